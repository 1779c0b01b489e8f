import { z } from 'zod';
import { benchmarkOf, planSettingsOf, type PlanTargetId, type TargetEngine } from '../targets/registry.js';
import {
  luks2VariantOf,
  STANDARD_PROFILE_IDS,
  STANDARD_PROFILE_SHAPES,
  standardProfileIdSchema,
  type IoDirection,
  type StandardProfileId,
  type TargetMeasurement,
} from '../domain/io-benchmark.js';
import { cacheAbsorbed } from '../analyses/io-overhead.js';
import {
  CIPHER_EVIDENCE_RANK,
  cipherEvidenceKindSchema,
  cipherRateOnCores,
  type EffectiveCipherSpeed,
} from './cipher-speed.js';
import { evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { DeepPartial, PlanFacts } from './facts.js';

/**
 * The cipher rate at encryption sectors under 4096 bytes is not modelled: no primary source found gives the
 * rate of kernel AES-XTS (or dm-crypt) at 512-byte against 4096-byte sectors. The table in E. Biggers,
 * "[PATCH 0/6] Faster AES-XTS on modern x86_64 CPUs" (linux-crypto, 2024-03-26; v2 2024-03-29) gives the
 * patchset's throughput GAIN at 4096-byte and at 512-byte messages per CPU, not one size's rate over the other,
 * so it cannot calibrate a share (an earlier 0.44 was derived from reading it that way). cryptsetup(8)
 * (--sector-size) says only that 4096-byte sectors can give better performance, and cryptsetup benchmark
 * measures 64 KiB buffers (lib/crypto_backend/cipher_check.c, CIPHER_BLOCK_BYTES), i.e. the large-message rate.
 */
const SMALL_SECTOR_UNMODELLED_REASON =
  'no published measurement gives kernel AES-XTS at 512-byte against 4096-byte sectors; cryptsetup benchmark measures 64 KiB buffers';

/** The cipher rate at an encryption sector size from a large-message (≥ 4 KiB) rate; null below 4096 bytes (unknown). */
function cipherRateAtSector(rate: number, sectorSizeBytes: number): number | null {
  return sectorSizeBytes >= 4096 ? rate : null;
}

/**
 * Which model a prediction uses. `min-device-cipher`: queued I/O, the slower of device and cipher on the
 * cores the crypto can use. `one-core-stream`: one large request at a time; the block layer splits it into
 * bios that the device and one core's cipher work on at once, so min(device, one core). `qd1-latency`: one
 * small request at a time, device time and cipher time add up (1 / (1/device + 1/cipher)).
 * `serial-harmonic` is the name plan 1.0 gave the QD1 rows (no longer emitted).
 */
const performanceRegimeSchema = z.enum([
  'min-device-cipher',
  'one-core-stream',
  'qd1-latency',
  'serial-harmonic',
]);
export type PerformanceRegime = z.infer<typeof performanceRegimeSchema>;

/** Predicted encrypted throughput of one profile, beside the plain and (if any) measured values. */
export const predictedPerformanceSchema = z.object({
  profile: standardProfileIdSchema,
  regime: performanceRegimeSchema,
  /** The assumption behind the numbers, in one sentence. */
  assumption: z.string(),
  /** How many cores' cipher speed the prediction assumes (plan 1.1). */
  cipherCores: z.number().int().positive().optional(),
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
  /**
   * Who encrypts: dm-crypt (LUKS2, default), VeraCrypt (splits every request over all cores: VeraCrypt
   * documentation "Parallelization"), APFS or BitLocker (the CPU's AES, modelled like dm-crypt's workqueues).
   */
  readonly engine?: TargetEngine;
}

interface Direction {
  readonly predicted: number | null;
  readonly cipher: number | null;
  readonly limitedBy: 'device' | 'cipher' | null;
}

function predictDirection(plain: number | null, cipher: number | null, regime: PerformanceRegime): Direction {
  if (cipher === null) {
    return { predicted: null, cipher: null, limitedBy: null };
  }
  if (plain === null) {
    return { predicted: null, cipher, limitedBy: null };
  }
  // One small request at a time: device time and cipher time add up (blog.linux-ng.de "Linux dm-crypt
  // Performance – Theory": throughput = 1 / (1/crypto + 1/io)); otherwise the slower stage sets the pace.
  const predicted = regime === 'qd1-latency' ? 1 / (1 / plain + 1 / cipher) : Math.min(plain, cipher);
  return { predicted, cipher, limitedBy: cipher < plain ? 'cipher' : 'device' };
}

/**
 * The regime and the number of cores whose cipher speed a profile can use. dm-crypt's kcryptd workqueue is
 * unbound (Linux drivers/md/dm-crypt.c: alloc_workqueue("kcryptd/%s", WQ_CPU_INTENSIVE | WQ_MEM_RECLAIM |
 * WQ_UNBOUND, num_online_cpus()) unless same_cpu_crypt), so queued requests spread over min(cores, queue
 * depth) cores. With no_read_workqueue/no_write_workqueue the crypto runs in the submitting or completing
 * context (dm-crypt.c kcryptd_queue_crypt; Cloudflare, "Speeding up Linux disk encryption", 2020-03-25), so
 * one submitting thread gets one core. A single stream (queue depth 1) waits on one core's cipher. VeraCrypt
 * splits every request over all cores (VeraCrypt documentation "Parallelization").
 */
function cipherRegimeOf(
  profile: StandardProfileId,
  cores: number,
  settings: Pick<PerformanceSettings, 'workqueueBypass' | 'engine'>,
): { readonly regime: PerformanceRegime; readonly cipherCores: number } {
  const shape = STANDARD_PROFILE_SHAPES[profile];
  const regime: PerformanceRegime =
    shape.queueDepth > 1
      ? 'min-device-cipher'
      : shape.blockBytes >= 65_536
        ? 'one-core-stream'
        : 'qd1-latency';
  if (settings.engine?.allCores === true) {
    return { regime, cipherCores: Math.max(1, cores) };
  }
  const spread = regime === 'min-device-cipher' && !settings.workqueueBypass;
  return { regime, cipherCores: spread ? Math.max(1, Math.min(cores, shape.queueDepth)) : 1 };
}

function errorPercent(predicted: number | null, measured: number | null): number | null {
  return predicted === null || measured === null || measured === 0
    ? null
    : Math.round(((predicted - measured) / measured) * 1000) / 10;
}

/** The row one measured target has for a standard profile and direction; undefined when not measured. */
export function measuredRow(
  target: DeepPartial<TargetMeasurement> | undefined,
  profile: StandardProfileId,
  direction: IoDirection,
) {
  const shape = STANDARD_PROFILE_SHAPES[profile];
  return (target?.profiles ?? []).find(
    (measurement) =>
      measurement.profile?.direction === direction &&
      measurement.profile.pattern === shape.pattern &&
      measurement.profile.blockSizeBytes === shape.blockBytes &&
      measurement.profile.queueDepth === shape.queueDepth &&
      measurement.profile.threads === 1,
  );
}

/** The median rate one measured target reached in a standard profile and direction; null when not measured. */
function measuredBytesPerSecond(
  target: DeepPartial<TargetMeasurement> | undefined,
  profile: StandardProfileId,
  direction: IoDirection,
): number | null {
  return measuredRow(target, profile, direction)?.summary?.medianBytesPerSecond ?? null;
}

/** The measured dm-crypt (LUKS2) targets of the I/O benchmark, with the variant each was measured with. */
export function measuredLuks2Targets(facts: PlanFacts): {
  readonly target: DeepPartial<TargetMeasurement>;
  /** The variant's name as measured ("luks2 sector 4096, no workqueues"). */
  readonly name: string;
  readonly noWorkqueues: boolean;
  readonly sectorSizeBytes: number;
}[] {
  return (facts.ioBenchmark?.encrypted ?? []).flatMap((target) => {
    const dmCrypt =
      target.backend !== undefined && benchmarkOf(target.backend)?.container === 'dm-crypt-file';
    const name = target.variant ?? '';
    const variant = dmCrypt ? luks2VariantOf(name) : null;
    return variant === null ? [] : [{ target, name, ...variant }];
  });
}

/**
 * Predicts encrypted throughput per profile before any destructive test, in three regimes
 * ({@link cipherRegimeOf}): queued I/O min(device, cipher × cores), a single large-request stream
 * min(device, one core) and single small requests 1 / (1/device + 1/one core). The cipher rate is scaled to
 * the encryption sector ({@link cipherRateAtSector}). dm-crypt's own queueing is not modelled: stock
 * workqueues can fall far below (Cloudflare 2020: 80.6 MiB/s against 508 MiB/s raw with a null cipher), and
 * {@link findPerformanceResiduals} reports where a measurement says so.
 */
export function predictPerformance(facts: PlanFacts, settings: PerformanceSettings): PredictedPerformance[] {
  const cores = facts.machine?.logicalCores ?? 1;
  // Only dm-crypt's rate (cryptsetup benchmark, 64 KiB buffers) is scaled to the sector; another engine's speed
  // is taken as it is: VeraCrypt's own benchmark already encrypts in its 512-byte data units (VeraCrypt
  // src/Common/Dlgcode.c, benchmark: EncryptDataUnits over benchmarkBufferSize / ENCRYPTION_DATA_UNIT_SIZE).
  const scale = (value: number) =>
    settings.engine !== undefined && !settings.engine.dmCryptQueues
      ? value
      : cipherRateAtSector(value, settings.sectorSizeBytes);
  const speed = settings.speed ?? null;
  const luks2 = measuredLuks2Targets(facts);
  // The dm-crypt run with the planned sector size and workqueue setting, else the closest one measured.
  const measuredTarget =
    luks2.find(
      (row) =>
        row.noWorkqueues === settings.workqueueBypass && row.sectorSizeBytes === settings.sectorSizeBytes,
    ) ??
    luks2.find((row) => row.noWorkqueues === settings.workqueueBypass) ??
    luks2[0];
  const predictions = STANDARD_PROFILE_IDS.map((profile): PredictedPerformance => {
    const { regime, cipherCores } = cipherRegimeOf(profile, cores, settings);
    const plainTarget = facts.ioBenchmark?.plain;
    const plain = {
      readBytesPerSecond: measuredBytesPerSecond(plainTarget, profile, 'read'),
      writeBytesPerSecond: measuredBytesPerSecond(plainTarget, profile, 'write'),
    };
    const read = predictDirection(
      plain.readBytesPerSecond,
      cipherRateOnCores(speed, 'decrypt', cipherCores, scale),
      regime,
    );
    const write = predictDirection(
      plain.writeBytesPerSecond,
      cipherRateOnCores(speed, 'encrypt', cipherCores, scale),
      regime,
    );
    const queueing =
      settings.engine !== undefined && !settings.engine.dmCryptQueues
        ? `${settings.engine.name} adds no queueing of its own`
        : settings.workqueueBypass
          ? 'dm-crypt workqueues bypassed (crypto in the submitting thread)'
          : 'no extra dm-crypt queueing (stock workqueues can fall far below this)';
    const coresText = `${String(cipherCores)} core${cipherCores === 1 ? '' : 's'}`;
    const assumption =
      regime === 'qd1-latency'
        ? `One small request at a time: the device time and the cipher time on ${coresText} add up; ${queueing}.`
        : regime === 'one-core-stream'
          ? `One large request at a time: the device and the cipher on ${coresText} overlap, the slower sets the pace; ${queueing}.`
          : `Queued I/O: the slower of the device and the cipher on ${coresText} sets the pace; ${queueing}.`;
    return {
      profile,
      regime,
      assumption,
      cipherCores,
      plainReadBytesPerSecond: plain.readBytesPerSecond,
      plainWriteBytesPerSecond: plain.writeBytesPerSecond,
      cipherReadBytesPerSecond: read.cipher,
      cipherWriteBytesPerSecond: write.cipher,
      predictedReadBytesPerSecond: read.predicted,
      predictedWriteBytesPerSecond: write.predicted,
      measuredReadBytesPerSecond: null,
      measuredWriteBytesPerSecond: null,
      readErrorPercent: null,
      writeErrorPercent: null,
      readLimitedBy: read.limitedBy,
      writeLimitedBy: write.limitedBy,
    };
  });
  return pairPredictedWithMeasured(predictions, facts.ioBenchmark?.plain, measuredTarget?.target);
}

/**
 * Measured beats modelled (issue 24): pairs each predicted profile with the encrypted run measured for the
 * same backend and configuration, per direction, with the residual (predicted − measured) ÷ measured. A
 * measurement the page cache absorbed ({@link cacheAbsorbed}: faster than plain beyond both runs' spread) is
 * left out, never paired. Pure; the Linux plan (dm-crypt runs) and the macOS/Windows plan (APFS disk image,
 * BitLocker VHDX, VeraCrypt container) both call it.
 */
function pairPredictedWithMeasured(
  predictions: readonly PredictedPerformance[],
  plain: DeepPartial<TargetMeasurement> | undefined,
  measured: DeepPartial<TargetMeasurement> | undefined,
): PredictedPerformance[] {
  return predictions.map((row) => {
    const pick = (direction: IoDirection) => {
      const encrypted = measuredRow(measured, row.profile, direction);
      const base = measuredRow(plain, row.profile, direction);
      return encrypted === undefined || cacheAbsorbed(base?.summary, encrypted.summary)
        ? null
        : (encrypted.summary?.medianBytesPerSecond ?? null);
    };
    const read = pick('read');
    const write = pick('write');
    return {
      ...row,
      measuredReadBytesPerSecond: read,
      measuredWriteBytesPerSecond: write,
      readErrorPercent: errorPercent(row.predictedReadBytesPerSecond, read),
      writeErrorPercent: errorPercent(row.predictedWriteBytesPerSecond, write),
    };
  });
}

/** The display names of the engines that add no queueing of their own. */

/**
 * How far a measurement may stray from the model before the plan says so: ±25 %, the tolerance the
 * validation set holds the model to (docs/validation.md).
 */
export const RESIDUAL_TOLERANCE_PERCENT = 25;

/** What the plan knows that may explain a measurement below the model. */
export interface ResidualContext {
  readonly workqueueBypass: boolean;
  readonly sectorSizeBytes: number;
  readonly keyBits: number | null;
  readonly kernelAesGeneric: boolean;
  readonly kernelAtLeast59: boolean | null;
}

/**
 * `performance-residual`: measured against predicted, per profile and direction, where both exist and they
 * differ by more than {@link RESIDUAL_TOLERANCE_PERCENT}; a measurement below the model names the likely
 * causes this plan can see and what to try, so the measurement moves the advice.
 */
export function findPerformanceResiduals(
  predictions: readonly PredictedPerformance[],
  context: ResidualContext,
): Finding[] {
  const rows = predictions.flatMap((row) =>
    (['read', 'write'] as const).flatMap((direction) => {
      const error = direction === 'read' ? row.readErrorPercent : row.writeErrorPercent;
      const predicted =
        direction === 'read' ? row.predictedReadBytesPerSecond : row.predictedWriteBytesPerSecond;
      const measured =
        direction === 'read' ? row.measuredReadBytesPerSecond : row.measuredWriteBytesPerSecond;
      return error === null ||
        predicted === null ||
        measured === null ||
        Math.abs(error) <= RESIDUAL_TOLERANCE_PERCENT
        ? []
        : [{ profile: row.profile, direction, error, predicted, measured }];
    }),
  );
  if (rows.length === 0) {
    return [];
  }
  const below = rows.filter((row) => row.error > 0);
  const causes: string[] = [];
  if (below.length > 0) {
    if (!context.workqueueBypass && context.kernelAtLeast59 !== false) {
      causes.push(
        "dm-crypt's workqueues (Cloudflare measured 80.6 MiB/s against 508 MiB/s raw with a null cipher; measure again with --perf-no_read_workqueue --perf-no_write_workqueue)",
      );
    }
    if (context.sectorSizeBytes < 4096) {
      causes.push(
        'encryption sectors under 4096 bytes (their cipher cost is not modelled; measure with --sector-size 4096)',
      );
    }
    if (context.kernelAesGeneric) {
      causes.push("the kernel's generic AES driver (load the accelerated one)");
    }
    if (context.keyBits === 512) {
      causes.push('the 512-bit XTS key (about 20 % slower than 256-bit when the cipher limits)');
    }
    if (causes.length === 0) {
      causes.push('the device or its driver under this access pattern (queueing, power state, a USB bridge)');
    }
  }
  const worst = [...rows].sort((a, b) => Math.abs(b.error) - Math.abs(a.error))[0];
  const describe = (row: (typeof rows)[number]) =>
    `${row.profile} ${row.direction}: measured ${(row.measured / 1e6).toFixed(0)} MB/s, predicted ${(row.predicted / 1e6).toFixed(0)} MB/s (${row.error > 0 ? '+' : ''}${row.error.toFixed(0)} %)`;
  return [
    {
      ruleId: 'performance-residual',
      severity: below.length > 0 ? 'warning' : 'info',
      message:
        below.length > 0
          ? `The encrypted measurement is far below the model (${below.map(describe).join('; ')}); likely causes: ${causes.join('; ')}. Measured beats predicted: plan with the measured figure.`
          : `The encrypted measurement is well above the model (${rows.map(describe).join('; ')}): the cipher benchmark understates this machine; the plan's cipher-bound warnings are pessimistic.`,
      evidence: rows.map((row) =>
        evidence(
          `${row.profile} ${row.direction} error (%)`,
          row.error,
          sourceOf('fio', worst?.profile === row.profile ? 'worst residual' : 'residual'),
        ),
      ),
    },
  ];
}

/**
 * A target that fixes its encryption unit: BitLocker encrypts every sector of the volume on its own, the sector
 * number being the tweak (Niels Ferguson, "AES-CBC + Elephant diffuser: A Disk Encryption Algorithm for Windows
 * Vista", Microsoft, 2006, §2; XTS-AES since Windows 10 1511: R. Sosnowski, "Bitlocker: AES-XTS (new encryption
 * type)", Microsoft Dubai Security blog, 2016-03-04), and no published measurement gives its AES-XTS rate per
 * 512-byte sector against large blocks. Only a measured encrypted run tells its speed.
 */
const FIXED_SECTOR_REASON =
  'this tool encrypts each sector as its own unit and fixes that size, and no published measurement gives its cipher rate per sector against the large-block rate a cipher benchmark measures';

/**
 * `small-sector-cipher-bound`: with encryption sectors under 4096 bytes the model cannot tell the cipher's
 * speed ({@link SMALL_SECTOR_UNMODELLED_REASON}), so the profiles it leaves without a cipher rate are named
 * instead of guessed, with cryptsetup(8)'s advice (--sector-size: 4096-byte sectors can give better
 * performance). Kept under its plan-1.0 rule id; since plan 1.x it is `info`, not a `warning`.
 */
export function findSmallSectorBound(
  predictions: readonly PredictedPerformance[],
  sectorSizeBytes: number,
  canChoose: boolean,
): Finding[] {
  if (sectorSizeBytes >= 4096) {
    return [];
  }
  // A direction without a cipher rate that a measured encrypted run answers is not left unknown.
  const unknown = predictions.filter(
    (row) =>
      (row.cipherReadBytesPerSecond === null && row.measuredReadBytesPerSecond === null) ||
      (row.cipherWriteBytesPerSecond === null && row.measuredWriteBytesPerSecond === null),
  );
  if (unknown.length === 0) {
    return [];
  }
  return [
    {
      ruleId: 'small-sector-cipher-bound',
      severity: 'info',
      message: `With ${String(sectorSizeBytes)}-byte encryption sectors encplan cannot tell the cipher's speed (${canChoose ? SMALL_SECTOR_UNMODELLED_REASON : FIXED_SECTOR_REASON}), so it predicts nothing for ${unknown.map((row) => row.profile).join(', ')}. ${canChoose ? 'cryptsetup(8) says 4096-byte sectors can give better performance: use --sector-size 4096 (LUKS2) or measure both.' : 'Measure the encrypted volume to know its speed (encplan assess --benchmark measures a test volume of it where it can).'}`,
      evidence: [
        evidence('encryption sector size (bytes)', sectorSizeBytes, sourceOf('plan', 'sector size')),
      ],
    },
  ];
}

/**
 * The macOS/Windows plan's performance (issue 24, "measured beats modelled on every platform"): the model for
 * the platform's engine, paired with the encrypted run of the same backend that `assess --benchmark` measured
 * there (the APFS disk image, the BitLocker VHDX, the VeraCrypt container), and the residual finding when they
 * disagree. APFS encrypts 4096-byte blocks (the sector the Linux plan already assumes for it); BitLocker and
 * VeraCrypt encrypt per 512-byte sector (Niels Ferguson, "AES-CBC + Elephant diffuser: A Disk Encryption
 * Algorithm for Windows Vista", Microsoft, 2006, §2 "sectors"; VeraCrypt documentation "Modes of Operation":
 * "data unit" = 512 bytes).
 */
export function predictPlatformPerformance(
  facts: PlanFacts,
  targetTool: PlanTargetId,
  speed: EffectiveCipherSpeed | null,
): { readonly predictedPerformance: PredictedPerformance[]; readonly findings: Finding[] } {
  const { engine, defaultSectorBytes: sectorSizeBytes } = planSettingsOf(targetTool);
  // Off Linux there are no dm-crypt runs, so the model's own pairing finds nothing; the platform's run pairs here.
  const modelled = predictPerformance(facts, { speed, sectorSizeBytes, workqueueBypass: false, engine });
  const measured = (facts.ioBenchmark?.encrypted ?? []).find((target) => target.backend === targetTool);
  const predictedPerformance = pairPredictedWithMeasured(modelled, facts.ioBenchmark?.plain, measured);
  const findings = [
    ...findLoadTooLight(predictedPerformance),
    // BitLocker's 512-byte sectors leave cipher-bound profiles without a rate: say so rather than print nothing.
    // Without any cipher speed nothing is predicted at any sector size, and the cipher evidence says why.
    ...(speed === null ? [] : findSmallSectorBound(predictedPerformance, sectorSizeBytes, false)),
    ...findPerformanceResiduals(predictedPerformance, {
      // No dm-crypt workqueues or Linux kernel driver off Linux: the residual names the key and the device only.
      workqueueBypass: true,
      sectorSizeBytes: 4096,
      keyBits: speed?.keyBits ?? null,
      kernelAesGeneric: false,
      kernelAtLeast59: false,
    }),
  ];
  return { predictedPerformance, findings };
}

/** Which evidence the plan's cipher speed rests on (plan 1.2, issue 24); see cipherEvidenceKindSchema. */
export const cipherEvidenceSchema = z.object({
  /** 1 measured run of the backend, 2 kernel crypto API, 3 kernel cipher via fscrypt, 4 OpenSSL; null: none. */
  rank: z.number().int().min(1).max(4).nullable(),
  kind: cipherEvidenceKindSchema.nullable(),
  /** True when the figure can only overstate what the backend gets (OpenSSL in user space). */
  upperBound: z.boolean(),
  /** The tool run the figure came from, or null. */
  source: z.string().nullable(),
  /** In words: what the figure is, or why nothing could be used. */
  note: z.string(),
});
export type CipherEvidence = z.infer<typeof cipherEvidenceSchema>;

/**
 * The evidence behind a plan's performance: rank 1 when an encrypted run of the planned backend was paired
 * with the prediction ({@link pairPredictedWithMeasured}), else the rank of the cipher speed used, else none
 * with the reason OpenSSL was refused (`refusal`).
 */
export function describeCipherEvidence(
  speed: EffectiveCipherSpeed | null,
  predictions: readonly PredictedPerformance[],
  refusal: string | null,
): CipherEvidence {
  const measured = predictions.some(
    (row) => row.measuredReadBytesPerSecond !== null || row.measuredWriteBytesPerSecond !== null,
  );
  const basis = speed?.basis ?? null;
  const cipherNote =
    basis === null
      ? `No cipher speed this backend would get was measured${refusal === null ? '' : `: ${refusal}`}`
      : `${basis.note}${speed?.measured === false ? ` Derived for a ${String(speed.keyBits)}-bit key from the ${String(basis.keyBits)}-bit figure.` : ''}`;
  if (measured) {
    return {
      rank: CIPHER_EVIDENCE_RANK['measured-run'],
      kind: 'measured-run',
      upperBound: false,
      source: 'I/O benchmark (encrypted run of this backend)',
      note: `An encrypted run of this backend was measured: the answer uses it per profile. Elsewhere: ${cipherNote}`,
    };
  }
  if (basis === null) {
    return { rank: null, kind: null, upperBound: false, source: null, note: cipherNote };
  }
  return {
    rank: CIPHER_EVIDENCE_RANK[basis.evidence],
    kind: basis.evidence,
    upperBound: basis.evidence === 'userspace-upper-bound',
    source:
      basis.source.field === null ? basis.source.origin : `${basis.source.origin}: ${basis.source.field}`,
    note: cipherNote,
  };
}

/** Within this share of plain, an encrypted run shows no cost (io-overhead DEVICE_BOUND_RATIO, 10 %). */
const NO_COST_RATIO = 0.9;

/**
 * `encryption-cost-load`: an encrypted run within 10 % of plain shows "no measurable cost" only when the plain
 * run's load reached the cipher's ceiling; below it the run measured the storage, not the encryption, and
 * the report says the load was too light to tell. Published: about 1 % from fio at ~75k IOPS, about half the
 * read throughput under a heavier diskspd load on the same LUKS2 volume (harvester/harvester#11442, comment
 * of 2026-09-10, "Encryption overhead: guest-side measurement").
 */
export function findLoadTooLight(predictions: readonly PredictedPerformance[]): Finding[] {
  const rows = predictions.flatMap((row) =>
    (['read', 'write'] as const).flatMap((direction) => {
      const read = direction === 'read';
      const plain = read ? row.plainReadBytesPerSecond : row.plainWriteBytesPerSecond;
      const measured = read ? row.measuredReadBytesPerSecond : row.measuredWriteBytesPerSecond;
      const ceiling = read ? row.cipherReadBytesPerSecond : row.cipherWriteBytesPerSecond;
      return plain === null || measured === null || plain <= 0 || measured < NO_COST_RATIO * plain
        ? []
        : [
            {
              profile: row.profile,
              direction,
              plain,
              measured,
              ceiling,
              reached: ceiling !== null && plain >= ceiling,
            },
          ];
    }),
  );
  if (rows.length === 0) {
    return [];
  }
  const light = rows.filter((row) => !row.reached);
  const describe = (row: (typeof rows)[number]) =>
    `${row.profile} ${row.direction} (plain ${(row.plain / 1e6).toFixed(0)} MB/s, cipher ceiling ${row.ceiling === null ? 'unknown' : `${(row.ceiling / 1e6).toFixed(0)} MB/s`})`;
  return [
    {
      ruleId: 'encryption-cost-load',
      severity: 'info',
      message:
        light.length === 0
          ? `No measurable cost: the encrypted run kept within 10 % of plain while the plain load reached the cipher's ceiling (${rows.map(describe).join('; ')}).`
          : `The load was too light to tell the cost: the encrypted run kept within 10 % of plain, but the plain load stayed below the cipher's ceiling or the ceiling is unknown (${light.map(describe).join('; ')}). A heavier load can still lose much more: on one LUKS2 volume fio at about 75k IOPS showed about 1 %, diskspd under a heavier load about half the read throughput (harvester/harvester#11442).`,
      evidence: rows.map((row) =>
        evidence(
          `${row.profile} ${row.direction} measured ÷ plain`,
          Math.round((row.measured / row.plain) * 1000) / 1000,
          sourceOf(
            'I/O benchmark',
            row.reached ? 'load reached the cipher ceiling' : 'load below the cipher ceiling',
          ),
        ),
      ),
    },
  ];
}
