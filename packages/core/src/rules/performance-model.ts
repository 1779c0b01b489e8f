import { z } from 'zod';
import { IO_PROFILE_SHAPES, planProfileIdSchema, type PlanProfileId, type PlanInput } from '../plan/plan-input.js';
import type { EffectiveCipherSpeed } from './cipher-speed.js';

/**
 * Kernel AES-XTS at 512-byte sectors runs at about half its 4096-byte speed (Zen 4 +155 %, Ice Lake +127 %
 * going to 4096, reference-facts §2.2); cryptsetup benchmark's 64 KiB chunks (§1.1) approximate 4096.
 */
const SMALL_SECTOR_CIPHER_SHARE = 0.5;

/** Which model a prediction uses (reference-facts §2.8). */
export const performanceRegimeSchema = z.enum(['min-device-cipher', 'serial-harmonic']);

/** Predicted encrypted throughput of one profile, beside the plain and (if any) measured values. */
export const predictedPerformanceSchema = z.object({
  profile: planProfileIdSchema,
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

/**
 * Predicts encrypted throughput per profile before any destructive test: min(device, cipher × parallelism)
 * for queued I/O, the serial (harmonic) combination for QD1 (reference-facts §2.8 cases A and C). Both
 * assume dm-crypt adds no queueing of its own; stock workqueues can fall far below (§2.8 case B).
 */
export function predictPerformance(input: PlanInput, settings: PerformanceSettings): PredictedPerformance[] {
  const cores = input.cpu.cores ?? 1;
  const share = settings.sectorSizeBytes >= 4096 ? 1 : SMALL_SECTOR_CIPHER_SHARE;
  const scale = (value: number | null | undefined) =>
    (value ?? null) === null ? null : (value ?? 0) * share;
  const encrypt = scale(settings.speed?.encryptBytesPerSecond);
  const decrypt = scale(settings.speed?.decryptBytesPerSecond);
  const allCoresEncrypt = scale(settings.speed?.allCoresEncryptBytesPerSecond);
  return (Object.keys(IO_PROFILE_SHAPES) as PlanProfileId[]).map((profile) => {
    const shape = IO_PROFILE_SHAPES[profile];
    const serial = shape.queueDepth === 1;
    const parallelism = Math.min(cores, shape.queueDepth);
    const plain = input.device.plainThroughput.find((row) => row.profile === profile) ?? null;
    const measuredRows = input.encryptedThroughput.filter((row) => row.profile === profile);
    const measured =
      measuredRows.find((row) => row.workqueueBypass === settings.workqueueBypass) ?? measuredRows[0] ?? null;
    const read = predictDirection(
      plain?.readBytesPerSecond ?? null,
      decrypt,
      allCoresEncrypt,
      parallelism,
      serial,
    );
    const write = predictDirection(
      plain?.writeBytesPerSecond ?? null,
      encrypt,
      allCoresEncrypt,
      parallelism,
      serial,
    );
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
      plainReadBytesPerSecond: plain?.readBytesPerSecond ?? null,
      plainWriteBytesPerSecond: plain?.writeBytesPerSecond ?? null,
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
