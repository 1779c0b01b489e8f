import {
  ONE_PASS_ARGS,
  type IoBenchmarkMode,
  type IoDirection,
  type IoEngine,
  type IoPattern,
  type IoProfile,
} from '../domain/io-benchmark.js';

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

function profile(
  pattern: IoPattern,
  blockSizeBytes: number,
  queueDepth: number,
  threads: number,
  direction: IoDirection,
): IoProfile {
  const size =
    blockSizeBytes >= MIB
      ? `${blockSizeBytes / MIB}M`
      : blockSizeBytes >= KIB
        ? `${blockSizeBytes / KIB}K`
        : `${blockSizeBytes}B`;
  const label = `${pattern === 'sequential' ? 'SEQ' : 'RND'}${size} Q${queueDepth}T${threads}`;
  return {
    id: `${label.toLowerCase().replace(' ', '-')}-${direction}`,
    label,
    pattern,
    direction,
    blockSizeBytes,
    queueDepth,
    threads,
  };
}

/**
 * CrystalDiskMark's and KDiskMark's default profile set, read and write: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1,
 * RND4K Q1T1 (CrystalDiskMark DiskMark/DiskBench.cpp, DiskMarkDlg.cpp `DiskMarkDlg.cpp` "Default", KDiskMark src/helper.cpp, src/benchmark.cpp KDiskMark "Standard" preset).
 */
export const STANDARD_PROFILES: readonly IoProfile[] = (['read', 'write'] as const).flatMap((direction) => [
  profile('sequential', MIB, 8, 1, direction),
  profile('sequential', MIB, 1, 1, direction),
  profile('random', 4 * KIB, 32, 1, direction),
  profile('random', 4 * KIB, 1, 1, direction),
]);

/** ATTO's queue depth as reviewers use it (QD4, ATTO Disk Benchmark documentation). */
const SWEEP_QUEUE_DEPTH = 4;

/**
 * An ATTO-style block-size sweep, sequential read and write, 512 B to 64 MiB in powers of two (
 * ATTO Disk Benchmark documentation): shows where per-request encryption overhead is amortised.
 */
export const SWEEP_PROFILES: readonly IoProfile[] = (['read', 'write'] as const).flatMap((direction) =>
  Array.from({ length: 18 }, (_, exponent) =>
    profile('sequential', 512 * 2 ** exponent, SWEEP_QUEUE_DEPTH, 1, direction),
  ),
);

/** How long and how often each profile runs, and on how large a file. */
export interface FioModeSettings {
  readonly mode: IoBenchmarkMode;
  readonly runtimeSeconds: number;
  readonly repeats: number;
  readonly fileSizeBytes: number;
}

/**
 * quick: one 1 s run per profile on 64 MiB. Each fio run costs about 1.9 s of wall time on the 2-core build VM
 * (measured: 32 runs took 59.5 s), so plain + fscrypt (16 runs) take about 30 s and leave room in the 60 s
 * budget of a whole quick assessment (issue #4). full: CrystalDiskMark's and KDiskMark's defaults, 5 runs of
 * 5 s on a 1 GiB file (CrystalDiskMark DiskMark/DiskBench.cpp, DiskMarkDlg.cpp, KDiskMark src/helper.cpp, src/benchmark.cpp), summarised as median and spread.
 */
export const FIO_MODES: Readonly<Record<IoBenchmarkMode, FioModeSettings>> = {
  quick: { mode: 'quick', runtimeSeconds: 1, repeats: 1, fileSizeBytes: 64 * MIB },
  full: { mode: 'full', runtimeSeconds: 5, repeats: 5, fileSizeBytes: GIB },
};

/** How fio may reach the target. */
export interface FioTargetAccess {
  readonly ioEngine: IoEngine;
  readonly directIo: boolean;
}

/**
 * The engine for a platform: libaio queues only with O_DIRECT, so without it (or where the filesystem
 * refuses O_DIRECT) psync is used and queue depth means nothing; macOS uses posixaio (fio HOWTO.rst, stat.c).
 */
export function chooseFioAccess(
  platform: 'linux' | 'darwin' | 'win32' | 'other',
  directIoAllowed: boolean,
): FioTargetAccess & { note: string | null } {
  if (platform === 'darwin') {
    return { ioEngine: 'posixaio', directIo: directIoAllowed, note: null };
  }
  if (platform === 'linux' && directIoAllowed) {
    return { ioEngine: 'libaio', directIo: true, note: null };
  }
  return {
    ioEngine: 'psync',
    directIo: false,
    note: 'The target refused O_DIRECT, so fio used psync through the page cache; queue depths above 1 are not real queues (fio HOWTO "iodepth").',
  };
}

/** One fio job to run. */
export interface FioJob {
  readonly profile: IoProfile;
  readonly filePath: string;
  readonly outputPath: string;
  readonly access: FioTargetAccess;
  readonly settings: FioModeSettings;
  /**
   * Read and write the file once instead of looping for the runtime: for targets whose O_DIRECT goes through
   * the page cache (fscrypt without inline encryption, kernel Documentation/filesystems/fscrypt.rst "Direct
   * I/O support"). A time-based job "will simply loop over the same workload as many times as the runtime
   * allows" (fio HOWTO.rst, time_based), so every pass after the first is served from the cache as plaintext;
   * one pass after `invalidate` (fio HOWTO.rst: "Invalidate the buffer/page cache parts of the files to be
   * used prior to starting I/O") reads a cold file, and `end_fsync` makes the writes' encryption part of the
   * job's time. The runtime still caps the job.
   */
  readonly onePass?: boolean;
}

const FIO_RW: Readonly<Record<IoPattern, Readonly<Record<IoDirection, string>>>> = {
  sequential: { read: 'read', write: 'write' },
  random: { read: 'randread', write: 'randwrite' },
};

/**
 * The exact fio argv (after the tool name) for one job, modelled on KDiskMark's command (KDiskMark src/helper.cpp, src/benchmark.cpp):
 * random, refilled buffers so compression cannot help, fsync at the end of writes, time-based runtime, and
 * JSON written to a file so stray warnings cannot corrupt it (fio HOWTO.rst, stat.c).
 */
export function buildFioArgs(job: FioJob): string[] {
  const { profile: p, access, settings } = job;
  return [
    `--name=${p.id}`,
    `--filename=${job.filePath}`,
    `--size=${settings.fileSizeBytes}`,
    `--rw=${FIO_RW[p.pattern][p.direction]}`,
    `--bs=${p.blockSizeBytes}`,
    `--iodepth=${p.queueDepth}`,
    `--numjobs=${p.threads}`,
    '--group_reporting=1',
    `--ioengine=${access.ioEngine}`,
    `--direct=${access.directIo ? 1 : 0}`,
    ...(job.onePass === true ? ONE_PASS_ARGS : ['--time_based=1']),
    `--runtime=${settings.runtimeSeconds}`,
    '--randrepeat=0',
    '--refill_buffers=1',
    ...(p.direction === 'write' ? ['--end_fsync=1'] : []),
    '--output-format=json',
    `--output=${job.outputPath}`,
  ];
}

/** A generous fio timeout: runtime plus laying out the file at a slow 10 MiB/s, plus a minute. */
export function fioTimeoutMs(settings: FioModeSettings): number {
  return (settings.runtimeSeconds + settings.fileSizeBytes / (10 * MIB) + 60) * 1000;
}
