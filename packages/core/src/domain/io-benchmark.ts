import { z } from 'zod';
import { ioBenchmarkSettingsSchema } from './benchmark-settings.js';

/** The direction of one fio run. */
const ioDirectionSchema = z.enum(['read', 'write']);
export type IoDirection = z.infer<typeof ioDirectionSchema>;

/** Sequential or random access, as CrystalDiskMark's SEQ/RND prefixes (CrystalDiskMark DiskMark/DiskBench.cpp, DiskMarkDlg.cpp). */
const ioPatternSchema = z.enum(['sequential', 'random']);
export type IoPattern = z.infer<typeof ioPatternSchema>;

/** One direction of one fio job, in the units encplan uses everywhere (bytes/s, ns, ms, percent). */
const fioRunSchema = z.object({
  jobName: z.string(),
  direction: ioDirectionSchema,
  /** fio's `bw_bytes`, or `bw` (KiB/s) × 1024 on fio versions without `bw_bytes` (fio 3.1). */
  bytesPerSecond: z.number().int().nonnegative(),
  iops: z.number().nonnegative(),
  ioBytes: z.number().int().nonnegative(),
  runtimeMs: z.number().int().nonnegative(),
  /** Completion-latency percentiles from `clat_ns.percentile`; null when fio did not report them. */
  clatP50Ns: z.number().int().nonnegative().nullable(),
  clatP99Ns: z.number().int().nonnegative().nullable(),
  clatP999Ns: z.number().int().nonnegative().nullable(),
  /** fio's `usr_cpu` + `sys_cpu` of the job: percent of one CPU, so it can exceed 100 with numjobs > 1. */
  cpuUserPercent: z.number().nonnegative(),
  cpuSystemPercent: z.number().nonnegative(),
  cpuPercent: z.number().nonnegative(),
});
/** A validated {@link fioRunSchema} value. */
export type FioRun = z.infer<typeof fioRunSchema>;

/** A parsed fio JSON output file. */
export const fioOutputSchema = z.object({
  fioVersion: z.string(),
  runs: z.array(fioRunSchema),
  /** Lines fio printed before the JSON document in the same file (errors, "terminating on signal"). */
  preambleLines: z.array(z.string()),
});
export type FioOutput = z.infer<typeof fioOutputSchema>;

/**
 * The profiles of CrystalDiskMark's and KDiskMark's default set without the direction (CrystalDiskMark
 * `DiskMarkDlg.cpp` "Default"; KDiskMark "Standard" preset): the profiles the plan predicts encrypted speed for.
 */
export const STANDARD_PROFILE_IDS = ['seq1m-q8t1', 'seq1m-q1t1', 'rnd4k-q32t1', 'rnd4k-q1t1'] as const;
/** {@link STANDARD_PROFILE_IDS} as a schema (the plan reads the list: issue 28). */
export const standardProfileIdSchema = z.enum(STANDARD_PROFILE_IDS);
export type StandardProfileId = z.infer<typeof standardProfileIdSchema>;

/** Block size and queue depth of each standard profile (one thread each). */
export const STANDARD_PROFILE_SHAPES: Readonly<
  Record<
    StandardProfileId,
    { readonly pattern: IoPattern; readonly blockBytes: number; readonly queueDepth: number }
  >
> = {
  'seq1m-q8t1': { pattern: 'sequential', blockBytes: 1_048_576, queueDepth: 8 },
  'seq1m-q1t1': { pattern: 'sequential', blockBytes: 1_048_576, queueDepth: 1 },
  'rnd4k-q32t1': { pattern: 'random', blockBytes: 4096, queueDepth: 32 },
  'rnd4k-q1t1': { pattern: 'random', blockBytes: 4096, queueDepth: 1 },
};

/** The LUKS2 variants encplan measures (cryptsetup(8) --perf-no_read_workqueue; dm-crypt sector_size). */
export interface Luks2Variant {
  readonly sectorSizeBytes: 512 | 4096;
  readonly noWorkqueues: boolean;
}

/** A readable variant name, e.g. "luks2 sector 4096, no workqueues"; {@link luks2VariantOf} reads it back. */
export function luks2VariantName(variant: Luks2Variant): string {
  return `luks2 sector ${String(variant.sectorSizeBytes)}${variant.noWorkqueues ? ', no workqueues' : ''}`;
}

/** The LUKS2 variant a measurement's `variant` names, or null when it names none. */
export function luks2VariantOf(name: string): Luks2Variant | null {
  const match = /^luks2 sector (512|4096)(, no workqueues)?$/.exec(name);
  if (match === null) {
    return null;
  }
  return { sectorSizeBytes: match[1] === '512' ? 512 : 4096, noWorkqueues: match[2] !== undefined };
}

/** One I/O profile: what CrystalDiskMark calls e.g. "SEQ1M Q8T1" plus a direction. */
const ioProfileSchema = z.object({
  /** Stable kebab-case id, e.g. "seq1m-q8t1-read". */
  id: z.string(),
  /** The CrystalDiskMark/KDiskMark label, e.g. "SEQ1M Q8T1". */
  label: z.string(),
  pattern: ioPatternSchema,
  direction: ioDirectionSchema,
  blockSizeBytes: z.number().int().positive(),
  queueDepth: z.number().int().positive(),
  threads: z.number().int().positive(),
});
export type IoProfile = z.infer<typeof ioProfileSchema>;

/** The median of repeated runs and how far they spread. */
const runSummarySchema = z.object({
  runCount: z.number().int().nonnegative(),
  medianBytesPerSecond: z.number().int().nonnegative(),
  minBytesPerSecond: z.number().int().nonnegative(),
  maxBytesPerSecond: z.number().int().nonnegative(),
  /** (max - min) / median × 100; 0 for one run. */
  spreadPercent: z.number().nonnegative(),
  medianIops: z.number().nonnegative(),
  medianCpuPercent: z.number().nonnegative(),
  medianClatP50Ns: z.number().int().nonnegative().nullable(),
  medianClatP99Ns: z.number().int().nonnegative().nullable(),
  medianClatP999Ns: z.number().int().nonnegative().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** One profile measured on one target: the exact fio argv, every run, and their summary. */
const profileMeasurementSchema = z.object({
  profile: ioProfileSchema,
  fioArgv: z.array(z.string()),
  runs: z.array(fioRunSchema),
  summary: runSummarySchema,
});
export type ProfileMeasurement = z.infer<typeof profileMeasurementSchema>;

/** The kinds of target encplan can measure. */
/** `bitlocker`: a BitLocker-encrypted VHDX test volume on Windows (assessment 1.3). */
const backendIdSchema = z.enum(['plain', 'fscrypt', 'luks2', 'veracrypt', 'apfs', 'bitlocker']);
/** A validated {@link backendIdSchema} value. */
export type BackendId = z.infer<typeof backendIdSchema>;

/**
 * How an encrypted target was proven to be encrypted before it was measured: the tool asked, what it reported
 * (the mapping, policy or volume and its cipher). encplan refuses to measure a target it cannot verify.
 */
const backendVerificationSchema = z.object({
  /** The command whose output proved it, e.g. "dmsetup table encplan-bench-…", "fscrypt status DIR". */
  method: z.string(),
  /** The encrypted object: dm mapping name, fscrypt policy id, VeraCrypt virtual device, APFS mount point. */
  identity: z.string(),
  /** The cipher the tool reported, e.g. "aes-xts-plain64", "AES_256_XTS", "AES". */
  cipher: z.string(),
});
export type BackendVerification = z.infer<typeof backendVerificationSchema>;

/** Which target a result is about: the backend and its variant. */
const targetIdShape = {
  backend: backendIdSchema,
  /** The variant, e.g. "luks2 sector 4096, no workqueues"; equals the backend id when there is one variant. */
  variant: z.string(),
};

/** The I/O engine fio used, and whether O_DIRECT was on; `diskspd`: DiskSpd measured instead of fio (Windows). */
const ioEngineSchema = z.enum(['libaio', 'psync', 'posixaio', 'diskspd']);
export type IoEngine = z.infer<typeof ioEngineSchema>;

/** Every profile measured on one prepared target (plain or one encrypted variant). */
const targetMeasurementSchema = z.object({
  ...targetIdShape,
  ioEngine: ioEngineSchema,
  directIo: z.boolean(),
  fileSizeBytes: z.number().int().positive(),
  /** Facts about how this target was set up that affect the numbers (engine fallback, filesystem). */
  notes: z.array(z.string()),
  profiles: z.array(profileMeasurementSchema),
  /** For encrypted targets: the proof that the target was encrypted (since 1.1; absent for plain). */
  verification: backendVerificationSchema.optional(),
});
/** A validated {@link targetMeasurementSchema} value. */
export type TargetMeasurement = z.infer<typeof targetMeasurementSchema>;

/** What limits an encrypted run. */
const ioBoundSchema = z.enum(['device', 'cipher', 'queueing', 'undetermined']);
export type IoBound = z.infer<typeof ioBoundSchema>;

/** Encrypted ÷ plain for one profile and one encrypted variant, with the bound it hits. */
const overheadSchema = z.object({
  profileId: z.string(),
  profileLabel: z.string(),
  direction: ioDirectionSchema,
  ...targetIdShape,
  plainBytesPerSecond: z.number().int().nonnegative(),
  encryptedBytesPerSecond: z.number().int().nonnegative(),
  /** encrypted ÷ plain throughput; null when the plain run moved no data. */
  throughputRatio: z.number().nonnegative().nullable(),
  plainCpuPercent: z.number().nonnegative(),
  encryptedCpuPercent: z.number().nonnegative(),
  /** encrypted ÷ plain CPU per byte moved; null when either run moved no data or used no CPU. */
  cpuPerByteRatio: z.number().nonnegative().nullable(),
  bound: ioBoundSchema,
  boundReason: z.string(),
});
/** A validated {@link overheadSchema} value. */
export type Overhead = z.infer<typeof overheadSchema>;

/** A backend that could not be measured here, with the error code that says why. */
const skippedBackendSchema = z.object({
  ...targetIdShape,
  code: z.string(),
  message: z.string(),
});
export type SkippedBackend = z.infer<typeof skippedBackendSchema>;

/** quick fits a whole assessment in 60 s on a 2-core VM; full follows CrystalDiskMark's defaults. */
const ioBenchmarkModeSchema = z.enum(['quick', 'full']);
export type IoBenchmarkMode = z.infer<typeof ioBenchmarkModeSchema>;

/** The result of `encplan benchmark io`: plain and encrypted measurements and their overhead. */
export const ioBenchmarkSchema = z.object({
  mode: ioBenchmarkModeSchema,
  /** How fio ran and what quick mode left out (since assessment 1.2 / benchmark-io 1.1; absent in older documents). */
  settings: ioBenchmarkSettingsSchema.optional(),
  /** The directory (or device) the user asked to measure. */
  target: z.string(),
  destructive: z.boolean(),
  plain: targetMeasurementSchema,
  encrypted: z.array(targetMeasurementSchema),
  overhead: z.array(overheadSchema),
  skipped: z.array(skippedBackendSchema),
  /** The cipher speed given to the bound analysis (bytes/s on one core), or null. */
  cipherBytesPerSecondPerCore: z.number().int().positive().nullable(),
  wallTimeMs: z.number().int().nonnegative(),
});
/** A validated {@link ioBenchmarkSchema} value. */
export type IoBenchmark = z.infer<typeof ioBenchmarkSchema>;

/** A progress event the core emits for the CLI bar and the desktop (in-process only, never serialised). */
export interface ProgressEvent {
  /** The phases a benchmark goes through, for progress bars. */
  readonly phase: 'prepare' | 'measure' | 'teardown' | 'done';
  /** e.g. "fscrypt: SEQ1M Q8T1 read (run 2 of 2)". */
  readonly message: string;
  /** 1-based index of the current fio run, and how many there are in all. */
  readonly runIndex: number;
  readonly runCount: number;
  /** Fraction of the whole benchmark done, 0..1. */
  readonly fraction: number;
  /** Estimated time left, or null before the first run finished. */
  readonly etaMs: number | null;
  /** The I/O test running now (fio phases only), for a results grid that names it. */
  readonly test?: IoTestRef;
  /** A test that has just finished, with its median (one event per profile and target, as each ends). */
  readonly result?: IoTestResult;
}

/** One fio test of the I/O benchmark: a profile and direction on plain storage or one encrypted variant. */
export interface IoTestRef {
  /** The CrystalDiskMark label, e.g. "SEQ1M Q8T1". */
  readonly profile: string;
  readonly direction: 'read' | 'write';
  readonly backend: BackendId;
  /** The variant measured (a backend can have several, e.g. two LUKS2 sector sizes). */
  readonly variant: string;
}

/** A finished {@link IoTestRef}: the median of its runs. */
export interface IoTestResult extends IoTestRef {
  readonly bytesPerSecond: number;
  /**
   * The slowest and fastest of its runs (absent where a runner reports only one figure), so a live view can
   * apply the same spread rule as the finished result (analyses/io-overhead.ts cacheAbsorbed).
   */
  readonly minBytesPerSecond?: number;
  readonly maxBytesPerSecond?: number;
}

/**
 * The fio arguments of a one-pass, cache-proof job (plan/fio-jobs.ts FioJob.onePass): no time-based loop over
 * the file, its cache invalidated first (fio HOWTO.rst time_based, invalidate). rules/cipher-speed.ts trusts
 * an fscrypt figure as the kernel cipher's only when its run had them.
 */
export const ONE_PASS_ARGS: readonly string[] = ['--time_based=0', '--invalidate=1'];
