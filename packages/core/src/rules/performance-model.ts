import { z } from 'zod';
import {
  luks2VariantOf,
  STANDARD_PROFILE_SHAPES,
  standardProfileIdSchema,
  type IoDirection,
  type StandardProfileId,
  type TargetMeasurement,
} from '../domain/io-benchmark.js';
import type { EffectiveCipherSpeed } from './cipher-speed.js';
import type { DeepPartial, PlanFacts } from './facts.js';

/**
 * Kernel AES-XTS at 512-byte sectors runs at about half its 4096-byte speed (Zen 4 +155 %, Ice Lake +127 %
 * going to 4096, reference-facts §2.2); cryptsetup benchmark's 64 KiB chunks (§1.1) approximate 4096.
 */
const SMALL_SECTOR_CIPHER_SHARE = 0.5;

/** Which model a prediction uses (reference-facts §2.8). */
const performanceRegimeSchema = z.enum(['min-device-cipher', 'serial-harmonic']);

/** Predicted encrypted throughput of one profile, beside the plain and (if any) measured values. */
export const predictedPerformanceSchema = z.object({
  profile: standardProfileIdSchema,
  regime: performanceRegimeSchema,
  /** The assumption behind the numbers, in one sentence. */
  assumption: z.string(),
  plainReadBytesPerSecond: z.number().nullable(),
  plainWriteBytesPerSecond: z.number().nullable(),
  cipherReadBytesPerSecond: z.number().nullable(),
  cipherWriteBytesPerSecond: z.number().nullable(),
  predictedReadBytesPerSecond: z.number().nullable(),
  predictedWriteBytesPerSecond: z.number().nullable(),
  measuredReadBytesPerSecond: z.number().nullable(),
  measuredWriteBytesPerSecond: z.number().nullable(),
  /** (predicted − measured) ÷ measured × 100. */
  readErrorPercent: z.number().nullable(),
  writeErrorPercent: z.number().nullable(),
  readLimitedBy: z.enum(['device', 'cipher']).nullable(),
  writeLimitedBy: z.enum(['device', 'cipher']).nullable(),
});
export type PredictedPerformance = z.infer<typeof predictedPerformanceSchema>;

/** The settings the model needs. */
export interface PerformanceSettings {
  readonly speed: EffectiveCipherSpeed | null;
  readonly sectorSizeBytes: number;
  readonly workqueueBypass: boolean;
}

interface Direction {
  readonly predicted: number | null;
  readonly cipher: number | null;
  readonly limitedBy: 'device' | 'cipher' | null;
}

function predictDirection(
  plain: number | null,
  oneCore: number | null,
  allCores: number | null,
  parallelism: number,
  serial: boolean,
): Direction {
  if (oneCore === null) {
    return { predicted: null, cipher: null, limitedBy: null };
  }
  const cipher = serial ? oneCore : Math.min(oneCore * parallelism, allCores ?? Number.POSITIVE_INFINITY);
  if (plain === null) {
    return { predicted: null, cipher, limitedBy: null };
  }
  // Case C of §2.8: one request at a time does I/O and cipher back to back → 1 / (1/device + 1/cipher).
  const predicted = serial ? 1 / (1 / plain + 1 / cipher) : Math.min(plain, cipher);
  return { predicted, cipher, limitedBy: cipher < plain ? 'cipher' : 'device' };
}

function errorPercent(predicted: number | null, measured: number | null): number | null {
  return predicted === null || measured === null || measured === 0
    ? null
    : Math.round(((predicted - measured) / measured) * 1000) / 10;
}

/** The median rate one measured target reached in a standard profile and direction; null when not measured. */
function measuredBytesPerSecond(
  target: DeepPartial<TargetMeasurement> | undefined,
  profile: StandardProfileId,
  direction: IoDirection,
): number | null {
  const shape = STANDARD_PROFILE_SHAPES[profile];
  const row = (target?.profiles ?? []).find(
    (measurement) =>
      measurement.profile?.direction === direction &&
      measurement.profile.pattern === shape.pattern &&
      measurement.profile.blockSizeBytes === shape.blockBytes &&
      measurement.profile.queueDepth === shape.queueDepth &&
      measurement.profile.threads === 1,
  );
  return row?.summary?.medianBytesPerSecond ?? null;
}

/** The measured dm-crypt (LUKS2) targets of the I/O benchmark, with the variant each was measured with. */
export function measuredLuks2Targets(facts: PlanFacts): {
  readonly target: DeepPartial<TargetMeasurement>;
  readonly noWorkqueues: boolean;
  readonly sectorSizeBytes: number;
}[] {
  return (facts.ioBenchmark?.encrypted ?? []).flatMap((target) => {
    const variant = target.backend === 'luks2' ? luks2VariantOf(target.variant ?? '') : null;
    return variant === null ? [] : [{ target, ...variant }];
  });
}

/**
 * Predicts encrypted throughput per profile before any destructive test: min(device, cipher × parallelism)
 * for queued I/O, the serial (harmonic) combination for QD1 (reference-facts §2.8 cases A and C). Both
 * assume dm-crypt adds no queueing of its own; stock workqueues can fall far below (§2.8 case B).
 */
export function predictPerformance(facts: PlanFacts, settings: PerformanceSettings): PredictedPerformance[] {
  const cores = facts.machine?.logicalCores ?? 1;
  const share = settings.sectorSizeBytes >= 4096 ? 1 : SMALL_SECTOR_CIPHER_SHARE;
  const scale = (value: number | null | undefined) =>
    (value ?? null) === null ? null : (value ?? 0) * share;
  const encrypt = scale(settings.speed?.encryptBytesPerSecond);
  const decrypt = scale(settings.speed?.decryptBytesPerSecond);
  const allCoresEncrypt = scale(settings.speed?.allCoresEncryptBytesPerSecond);
  const luks2 = measuredLuks2Targets(facts);
  // The dm-crypt run with the planned sector size and workqueue setting, else the closest one measured.
  const measuredTarget =
    luks2.find(
      (row) =>
        row.noWorkqueues === settings.workqueueBypass && row.sectorSizeBytes === settings.sectorSizeBytes,
    ) ??
    luks2.find((row) => row.noWorkqueues === settings.workqueueBypass) ??
    luks2[0];
  return standardProfileIdSchema.options.map((profile) => {
    const shape = STANDARD_PROFILE_SHAPES[profile];
    const serial = shape.queueDepth === 1;
    const parallelism = Math.min(cores, shape.queueDepth);
    const plainTarget = facts.ioBenchmark?.plain;
    const plain = {
      readBytesPerSecond: measuredBytesPerSecond(plainTarget, profile, 'read'),
      writeBytesPerSecond: measuredBytesPerSecond(plainTarget, profile, 'write'),
    };
    const measured =
      measuredTarget === undefined
        ? null
        : {
            readBytesPerSecond: measuredBytesPerSecond(measuredTarget.target, profile, 'read'),
            writeBytesPerSecond: measuredBytesPerSecond(measuredTarget.target, profile, 'write'),
          };
    const read = predictDirection(plain.readBytesPerSecond, decrypt, allCoresEncrypt, parallelism, serial);
    const write = predictDirection(plain.writeBytesPerSecond, encrypt, allCoresEncrypt, parallelism, serial);
    const queueing = settings.workqueueBypass
      ? 'dm-crypt workqueues bypassed'
      : 'no extra dm-crypt queueing (stock workqueues can fall far below this)';
    const assumption = serial
      ? `One request at a time: device time and one core's cipher time add up (serial pipeline); ${queueing}.`
      : `Queued I/O: the slower of the device and the cipher on ${String(parallelism)} core(s) sets the pace; ${queueing}.`;
    return {
      profile,
      regime: serial ? 'serial-harmonic' : 'min-device-cipher',
      assumption,
      plainReadBytesPerSecond: plain.readBytesPerSecond,
      plainWriteBytesPerSecond: plain.writeBytesPerSecond,
      cipherReadBytesPerSecond: read.cipher,
      cipherWriteBytesPerSecond: write.cipher,
      predictedReadBytesPerSecond: read.predicted,
      predictedWriteBytesPerSecond: write.predicted,
      measuredReadBytesPerSecond: measured?.readBytesPerSecond ?? null,
      measuredWriteBytesPerSecond: measured?.writeBytesPerSecond ?? null,
      readErrorPercent: errorPercent(read.predicted, measured?.readBytesPerSecond ?? null),
      writeErrorPercent: errorPercent(write.predicted, measured?.writeBytesPerSecond ?? null),
      readLimitedBy: read.limitedBy,
      writeLimitedBy: write.limitedBy,
    };
  });
}
