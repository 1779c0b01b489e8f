import { joinPath } from './paths.js';
import { EncplanError, isEncplanError, toolNotFound } from '../../errors.js';
import type { Host } from '../../ports.js';
import type {
  BackendId,
  FioRun,
  IoBenchmark,
  IoBenchmarkMode,
  IoProfile,
  ProfileMeasurement,
  ProgressEvent,
  SkippedBackend,
  TargetMeasurement,
} from '../../domain/io-benchmark.js';
import type { Warning } from '../../domain/warning.js';
import {
  CURRENT_QUICK_REVISION,
  QUICK_CUTS,
  type IoBenchmarkSettings,
  type QuickRevision,
} from '../../domain/benchmark-settings.js';
import { PhaseSchedule, type PlannedPhase } from '../../probes/phase-schedule.js';
import {
  FIO_MODES,
  STANDARD_PROFILES,
  SWEEP_PROFILES,
  buildFioArgs,
  chooseFioAccess,
  fioTimeoutMs,
  type FioModeSettings,
  type FioTargetAccess,
} from '../../plan/fio-jobs.js';
import { resourceName } from '../../plan/encrypted-backends.js';
import { benchmarkScratchBytes, FREE_SPACE_MARGIN_BYTES } from '../../plan/benchmark-footprint.js';
import { BENCHMARKS, benchmarkOf, benchmarksThroughPageCache } from '../../targets/registry.js';
import { parseFioJson } from '../../parsers/fio/parse-fio-json.js';
import { summarizeRuns } from '../../analyses/run-summary.js';
import { computeOverhead } from '../../analyses/io-overhead.js';
import { implausibleEncryption } from '../../analyses/implausible-encryption.js';
import type { RemovalOutcome } from '../../domain/cleanup.js';
import { CleanupRegistry, releaseAndThrow } from './cleanup-registry.js';
import { assertDeviceMayBeOverwritten, type DestructiveConfirmation } from './device-guard.js';
import {
  preparePlain,
  prepareScratchFilesystem,
  type PreparedTarget,
  type TargetContext,
} from './targets.js';

/** What `encplan benchmark io` was asked to do. */
export interface IoBenchmarkOptions {
  /** A directory whose filesystem holds the scratch containers, or a block device (destructive). */
  readonly target: string;
  /** Encrypted backends to measure; 'auto' picks what the platform supports. `plain` alone measures only plain. */
  readonly backends: readonly BackendId[] | 'auto';
  readonly mode: IoBenchmarkMode;
  /** Add the ATTO-style block-size sweep. */
  readonly sweep: boolean;
  /** Only the sweep-free profile ids listed here (for `npm run bench`); all when absent. */
  readonly profileIds?: readonly string[];
  readonly destructive: DestructiveConfirmation;
  /** One core's cipher speed for the bound analysis, e.g. from the cipher benchmark. */
  readonly cipherBytesPerSecondPerCore: number | null;
  /** Where the run's state file goes (default /run/encplan for root, else the temp dir). */
  readonly stateDirectory?: string;
  readonly onProgress?: (event: ProgressEvent) => void;
  readonly signal?: AbortSignal;
  /** Which quick mode to run (a bundle replays the one it was collected with); the current one when absent. */
  readonly quickRevision?: QuickRevision;
  /** The schedule of a whole assessment, so its ETA covers every benchmark; the run makes its own when absent. */
  readonly phases?: PhaseSchedule;
}

/** The benchmark result plus what went wrong along the way without stopping it. */
export interface IoBenchmarkOutcome {
  readonly result: IoBenchmark;
  readonly warnings: readonly Warning[];
  readonly cleanup: readonly RemovalOutcome[];
}

/** One encrypted target to prepare. */
interface EncryptedPlanItem {
  readonly backend: BackendId;
  readonly variant: string;
  prepare(
    context: TargetContext,
    scratch: { mountPoint: string; device: string },
    rawDevice: string | null,
  ): Promise<PreparedTarget>;
}

const MIB = 1024 * 1024;
/** The file fio measures, in each target's directory. */
const FIO_TEST_FILE = 'encplan.fio';

/** The backend shares the plain scratch filesystem (fscrypt), so it is measured before that is released. */
function sharesScratch(backend: BackendId): boolean {
  return benchmarkOf(backend)?.sharesScratchFilesystem === true;
}

function planEncrypted(backends: readonly BackendId[], mode: IoBenchmarkMode): EncryptedPlanItem[] {
  return backends.flatMap((backend): EncryptedPlanItem[] => {
    const benchmark = benchmarkOf(backend);
    return benchmark === null ? [] : benchmark.variants(mode).map((container) => ({ backend, ...container }));
  });
}

/** The backends the platform supports, for `--backend` left out: the selectable ones whose own tool is here. */
async function autoBackends(host: Host): Promise<BackendId[]> {
  const platform = host.platform;
  if (platform !== 'linux' && platform !== 'darwin') {
    return [];
  }
  const chosen: BackendId[] = [];
  for (const benchmark of BENCHMARKS) {
    if (!benchmark.selectable || !benchmark.platforms.some((on) => on === platform)) {
      continue;
    }
    if (benchmark.autoTool === null || (await host.whichTool(benchmark.autoTool)) !== null) {
      chosen.push(benchmark.backendId);
    }
  }
  return chosen;
}

/** One fio run of a profile in a directory, as encplan runs it: the exact argv and the parsed runs. */
export interface FioProfileRun {
  readonly fioArgv: string[];
  readonly runs: FioRun[];
}

/**
 * Runs fio once for `profile` on `directory/encplan.fio` through the host's runner, reads the JSON it wrote to
 * a file in `workDir`, and returns the runs of the profile's direction. Throws TOOL_FAILED when fio wrote no
 * result or a job failed, CANCELLED when aborted.
 */
export async function runFioProfile(
  host: Host,
  job: {
    profile: IoProfile;
    directory: string;
    workDir: string;
    access: FioTargetAccess;
    settings: FioModeSettings;
    tag: string;
    onePass?: boolean;
  },
  signal?: AbortSignal,
  registry?: CleanupRegistry,
): Promise<FioProfileRun> {
  const outputPath = joinPath(job.workDir, `fio-${job.tag}-${job.profile.id}.json`);
  const fioArgv = buildFioArgs({
    profile: job.profile,
    filePath: joinPath(job.directory, FIO_TEST_FILE),
    outputPath,
    access: job.access,
    settings: job.settings,
    onePass: job.onePass === true,
  });
  // Recorded before fio makes it, so a run killed meanwhile leaves it named in its state file.
  const mark = registry?.mark() ?? 0;
  await registry?.register({ kind: 'file', path: outputPath });
  const output = await host.run(
    { tool: 'fio', args: fioArgv, timeoutMs: fioTimeoutMs(job.settings) },
    signal,
  );
  const text = await host.readText(outputPath);
  await host.effects.remove(outputPath, { recursive: false });
  await registry?.forgetTo(mark);
  if (text === null || text.trim() === '') {
    throw new EncplanError(
      'TOOL_FAILED',
      `fio wrote no result (exit code ${output.exitCode}): ${output.stderr.trim().slice(-500)}`,
      {
        details: { tool: 'fio', args: fioArgv, exitCode: output.exitCode },
      },
    );
  }
  return { fioArgv, runs: parseFioJson(text).runs.filter((run) => run.direction === job.profile.direction) };
}

/** Every profile, `repeats` times, on one prepared target, each fio run a phase of `phases`. */
export async function measureTarget(
  context: TargetContext,
  target: PreparedTarget,
  profiles: readonly IoProfile[],
  repeats: number,
  mode: IoBenchmarkMode,
  phases: PhaseSchedule,
  /** Whether an fscrypt target is measured in one cold pass (quick revision ≥ 3 and full mode). */
  fscryptOnePass = true,
): Promise<TargetMeasurement> {
  const settings = FIO_MODES[mode];
  // fscrypt serves O_DIRECT through the page cache: one cold pass, never a cached loop.
  const onePass = fscryptOnePass && benchmarksThroughPageCache(target.backend);
  const access = chooseFioAccess(
    context.host.platform,
    await context.host.effects.directIoAllowed(target.directory),
  );
  const measured: ProfileMeasurement[] = [];
  // fio's test file, recorded so that a cleanup after SIGKILL removes it by name (it never removes a folder
  // with unrecorded content); it stays for every profile and goes with the target.
  await context.registry.register({ kind: 'file', path: joinPath(target.directory, FIO_TEST_FILE) });
  for (const profile of profiles) {
    const runs: FioRun[] = [];
    let fioArgv: string[] = [];
    const test = {
      profile: profile.label,
      direction: profile.direction,
      backend: target.backend,
      variant: target.variant,
    };
    for (let repeat = 1; repeat <= repeats; repeat += 1) {
      const result = await phases.run(
        fioPhaseId(target.variant, profile, repeat),
        `${target.variant}: ${profile.label} ${profile.direction} (run ${repeat} of ${repeats})`,
        () =>
          runFioProfile(
            context.host,
            {
              profile,
              directory: target.directory,
              workDir: context.workDir,
              access,
              settings,
              tag: `${target.backend}-${repeat}`,
              onePass,
            },
            context.signal,
            context.registry,
          ),
        'measure',
        test,
      );
      fioArgv = result.fioArgv;
      runs.push(...result.runs);
    }
    const summary = summarizeRuns(runs);
    measured.push({ profile, fioArgv, runs, summary });
    phases.report('measure', `${target.variant}: ${profile.label} ${profile.direction} done`, {
      ...test,
      bytesPerSecond: summary.medianBytesPerSecond,
      minBytesPerSecond: summary.minBytesPerSecond,
      maxBytesPerSecond: summary.maxBytesPerSecond,
    });
  }
  return {
    backend: target.backend,
    variant: target.variant,
    ioEngine: access.ioEngine,
    directIo: access.directIo,
    fileSizeBytes: settings.fileSizeBytes,
    notes: [
      ...target.notes,
      ...(access.note === null ? [] : [access.note]),
      ...(onePass
        ? [
            'Each job passes over its file once after invalidating its cache (fio --time_based=0 --invalidate=1, writes ending in fsync) instead of looping for the runtime: reads come cold through the kernel cipher, not as cached plaintext.',
          ]
        : []),
    ],
    profiles: measured,
    ...(target.verification === null ? {} : { verification: target.verification }),
  };
}

/** Throws INVALID_ARGUMENT when `directory` lacks `neededBytes` plus the free-space margin. */
export async function assertFreeSpace(host: Host, directory: string, neededBytes: number): Promise<void> {
  const freeBytes = await host.effects.freeBytes(directory);
  // The margin keeps the filesystem usable for everyone else while the containers exist.
  const requiredBytes = neededBytes + FREE_SPACE_MARGIN_BYTES;
  if (freeBytes < requiredBytes) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `${directory} has ${Math.floor(freeBytes / MIB)} MiB free; the benchmark needs ${Math.ceil(requiredBytes / MIB)} MiB (containers plus a ${FREE_SPACE_MARGIN_BYTES / MIB} MiB margin).`,
      {
        hint: 'Free some space, choose another directory, or use --quick (smaller containers).',
        details: { directory, freeBytes, requiredBytes },
      },
    );
  }
}

function skippable(error: unknown): error is EncplanError {
  return isEncplanError(
    error,
    'KERNEL_FEATURE_MISSING',
    'TOOL_NOT_FOUND',
    'TOOL_FAILED',
    'PERMISSION_DENIED',
    'TOOL_OUTPUT_UNRECOGNIZED',
    'TOOL_TIMED_OUT',
  );
}

/** fio's own start-up, file checks and JSON report around each run's measuring time (measured on the 2-core VM: 0.5–1 s). */
const FIO_OVERHEAD_MS = 700;
/** Setting up the plain target before its first run: sparse image, loop device, mkfs and mount. */
const PLAIN_PREPARE_EXPECTED_MS = 1000;

/** Setting up a target before its first run (an encrypted one's container: targets/*: prepareExpectedMs). */
function prepareExpectedMs(backend: BackendId): number {
  return benchmarkOf(backend)?.prepareExpectedMs ?? PLAIN_PREPARE_EXPECTED_MS;
}
const TEARDOWN_EXPECTED_MS = 400;

function fioPhaseId(variant: string, profile: IoProfile, repeat: number): string {
  return `io:${variant}:${profile.id}:${String(repeat)}`;
}

/** Drops the phases of a target that cannot be measured from the schedule. */
function skipPhases(phases: PhaseSchedule, variant: string): void {
  phases.skip(`io:prepare:${variant}`);
  phases.skip(`io:${variant}:`);
  phases.skip(`io:teardown:${variant}`);
}

/** What quick mode leaves out of the I/O benchmark, in words. */
function ioReductions(
  mode: IoBenchmarkMode,
  chosen: readonly string[] | null,
  backends: readonly BackendId[],
): string[] {
  if (mode !== 'quick') {
    return [];
  }
  const { runtimeSeconds, repeats, fileSizeBytes } = FIO_MODES.quick;
  const full = FIO_MODES.full;
  const left = STANDARD_PROFILES.filter((profile) => chosen !== null && !chosen.includes(profile.id));
  const labels = (list: readonly IoProfile[]) =>
    [...new Set(list.map((profile) => profile.label))].join(', ');
  return [
    `fio: ${String(repeats)} run of ${String(runtimeSeconds)} s per profile on ${String(fileSizeBytes / MIB)} MiB instead of ${String(full.repeats)} runs of ${String(full.runtimeSeconds)} s on ${String(full.fileSizeBytes / MIB)} MiB: no median and no spread, so run-to-run noise of the device stays in the figure.`,
    ...(left.length === 0
      ? []
      : [
          `fio: ${labels(STANDARD_PROFILES.filter((profile) => !left.includes(profile)))} only; ${labels(left)} not measured.`,
        ]),
    ...backends.flatMap((backend) => {
      const reduction = benchmarkOf(backend)?.quickReduction ?? null;
      return reduction === null ? [] : [reduction];
    }),
  ];
}

/**
 * What an I/O benchmark will do, before it does anything: the backends (auto: what the platform has), the fio
 * settings and profiles, the encrypted targets, and the phases with their expected durations for the ETA.
 */
export async function planIoBenchmark(
  host: Host,
  options: Pick<IoBenchmarkOptions, 'backends' | 'mode' | 'sweep' | 'profileIds' | 'quickRevision'>,
) {
  const backends = options.backends === 'auto' ? await autoBackends(host) : options.backends;
  const settings = FIO_MODES[options.mode];
  const cuts = options.mode === 'quick' ? QUICK_CUTS[options.quickRevision ?? CURRENT_QUICK_REVISION] : null;
  const chosen = options.profileIds ?? cuts?.fioProfileIds ?? null;
  const profiles = [...STANDARD_PROFILES, ...(options.sweep ? SWEEP_PROFILES : [])].filter(
    (profile) => chosen === null || chosen.includes(profile.id),
  );
  const encryptedPlan = planEncrypted(backends, options.mode);
  const fioRunMs = settings.runtimeSeconds * 1000 + FIO_OVERHEAD_MS;
  const targetPhases = (backend: BackendId, variant: string): PlannedPhase[] => [
    ...(backend === 'plain'
      ? []
      : [
          {
            id: `io:prepare:${variant}`,
            resource: 'disk' as const,
            expectedMs: prepareExpectedMs(backend),
          },
        ]),
    ...profiles.flatMap((profile) =>
      Array.from({ length: settings.repeats }, (_, index) => ({
        id: fioPhaseId(variant, profile, index + 1),
        resource: 'disk' as const,
        expectedMs: fioRunMs,
      })),
    ),
    ...(backend === 'plain'
      ? []
      : [{ id: `io:teardown:${variant}`, resource: 'disk' as const, expectedMs: TEARDOWN_EXPECTED_MS }]),
  ];
  const phases: PlannedPhase[] = [
    { id: 'io:prepare:plain', resource: 'disk', expectedMs: PLAIN_PREPARE_EXPECTED_MS },
    ...targetPhases('plain', 'plain'),
    // fscrypt first, as the run orders them (it shares the plain filesystem).
    ...[...encryptedPlan]
      .sort((a, b) => Number(sharesScratch(b.backend)) - Number(sharesScratch(a.backend)))
      .flatMap((item) => targetPhases(item.backend, item.variant)),
    { id: 'io:teardown:scratch', resource: 'disk', expectedMs: TEARDOWN_EXPECTED_MS },
  ];
  // Full mode and quick revision ≥ 3 measure fscrypt in one cold pass; older quick bundles replay as recorded.
  const fscryptOnePass = cuts?.fscryptOnePass ?? true;
  const recorded: IoBenchmarkSettings = {
    runtimeSeconds: settings.runtimeSeconds,
    repeats: settings.repeats,
    fileSizeBytes: settings.fileSizeBytes,
    profileIds: profiles.map((profile) => profile.id),
    quickRevision: cuts?.revision ?? null,
    reductions: ioReductions(options.mode, options.profileIds === undefined ? chosen : null, backends),
  };
  return { backends, settings, profiles, encryptedPlan, phases, recorded, fscryptOnePass };
}

/**
 * Measures fio profiles on a plain ext4 and on each encrypted backend, with the same filesystem and file size,
 * and computes the overhead. Everything created is registered before it exists and removed on success, error
 * or abort (the signal); a run that is killed leaves a state file for `cleanupLeftovers`. Throws CANCELLED when
 * aborted, DESTRUCTIVE_OPERATION_REFUSED for an unconfirmed or busy raw device, and the backend's error when the
 * only requested backend cannot run (in auto mode such backends are listed in `skipped` instead).
 */
export async function runIoBenchmark(host: Host, options: IoBenchmarkOptions): Promise<IoBenchmarkOutcome> {
  const started = await host.effects.monotonicMs();
  const targetInfo = await host.stat(options.target);
  if (targetInfo === null) {
    throw new EncplanError('DEVICE_NOT_FOUND', `${options.target} does not exist.`, {
      details: { target: options.target },
    });
  }
  const rawDevice = targetInfo.kind === 'block-device' ? options.target : null;
  if (rawDevice !== null) {
    await assertDeviceMayBeOverwritten(host, rawDevice, options.destructive);
  } else if (targetInfo.kind !== 'directory') {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `${options.target} is neither a directory nor a block device.`,
      {
        hint: 'Give a directory on the filesystem to measure (a scratch container is made there), or a whole device with --destructive.',
      },
    );
  }
  for (const tool of [
    'fio',
    ...(host.platform === 'linux' ? (['losetup', 'mkfs.ext4', 'mount', 'umount'] as const) : []),
  ] as const) {
    if ((await host.whichTool(tool)) === null) {
      throw toolNotFound(tool);
    }
  }
  const explicit = options.backends !== 'auto';
  const {
    backends,
    settings,
    profiles,
    encryptedPlan,
    phases: plannedPhases,
    recorded,
    fscryptOnePass,
  } = await planIoBenchmark(host, options);
  // On a raw device the mount points and key files live in a private directory under the temp dir.
  const identity = await host.effects.runIdentity();
  const workParent = rawDevice === null ? options.target : identity.tempDirectory;
  if (rawDevice === null) {
    await assertFreeSpace(host, workParent, benchmarkScratchBytes(backends, options.mode));
  }

  const registry = await CleanupRegistry.create(host, options.stateDirectory, identity);
  const pid = identity.pid;
  const workDir = joinPath(workParent, resourceName(pid, identity.nonce));
  const context: TargetContext = {
    host,
    registry,
    workDir,
    pid,
    fileSizeBytes: settings.fileSizeBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const phases = options.phases ?? new PhaseSchedule([], options.onProgress);
  phases.plan(plannedPhases);
  const warnings: Warning[] = [];
  const skipped: SkippedBackend[] = [];
  const encrypted: TargetMeasurement[] = [];
  try {
    await registry.register({ kind: 'directory', path: workDir });
    await host.effects.makeDirectory(workDir, { mode: 0o700 });
    const scratchMark = registry.mark();
    const { scratch, plainTarget } = await phases.run(
      'io:prepare:plain',
      'Preparing the plain filesystem',
      async () => {
        const made = await prepareScratchFilesystem(context, rawDevice);
        return { scratch: made, plainTarget: await preparePlain(context, made) };
      },
      'prepare',
    );
    const plain = await measureTarget(context, plainTarget, profiles, settings.repeats, options.mode, phases);
    // fscrypt shares the plain filesystem; every other backend needs it gone first on a raw device.
    const ordered = [
      ...encryptedPlan.filter((item) => sharesScratch(item.backend)),
      ...encryptedPlan.filter((item) => !sharesScratch(item.backend)),
    ];
    let scratchReleased = false;
    for (const item of ordered) {
      if (!sharesScratch(item.backend) && rawDevice !== null && !scratchReleased) {
        await registry.releaseTo(scratchMark);
        scratchReleased = true;
      }
      if (rawDevice !== null && benchmarkOf(item.backend)?.rawDevice !== true) {
        skipped.push({
          backend: item.backend,
          variant: item.variant,
          code: 'DEVICE_UNSUPPORTED',
          message: 'encplan measures this backend in a container file only.',
        });
        skipPhases(phases, item.variant);
        continue;
      }
      options.signal?.throwIfAborted();
      const mark = registry.mark();
      let target: PreparedTarget;
      try {
        target = await phases.run(
          `io:prepare:${item.variant}`,
          `Preparing ${item.variant}`,
          () => item.prepare(context, scratch, rawDevice),
          'prepare',
        );
      } catch (error) {
        await registry.releaseTo(mark);
        if (options.signal?.aborted === true || !skippable(error) || (explicit && ordered.length === 1)) {
          throw error;
        }
        skipped.push({
          backend: item.backend,
          variant: item.variant,
          code: error.code,
          message: error.message,
        });
        warnings.push({
          code:
            error.code === 'KERNEL_FEATURE_MISSING'
              ? 'KERNEL_FEATURE_MISSING'
              : error.code === 'TOOL_NOT_FOUND'
                ? 'TOOL_MISSING'
                : 'TOOL_FAILED',
          message: `${item.variant} was not measured: ${error.message}`,
          source: item.backend,
        });
        skipPhases(phases, item.variant);
        continue;
      }
      const measurement = await measureTarget(
        context,
        target,
        profiles,
        settings.repeats,
        options.mode,
        phases,
        fscryptOnePass,
      );
      const implausible = implausibleEncryption(plain, measurement);
      if (implausible === null) {
        encrypted.push(measurement);
      } else {
        // Refused at measurement time: a figure that cannot come from encrypted storage is never reported as one.
        skipped.push({
          backend: item.backend,
          variant: item.variant,
          code: 'DATA_INCONSISTENT',
          message: implausible,
        });
        warnings.push({
          code: 'DATA_INCONSISTENT',
          message: `${item.variant} was not reported: ${implausible}`,
          source: item.backend,
        });
      }
      await phases.run(
        `io:teardown:${item.variant}`,
        `Removing ${item.variant}`,
        () => registry.releaseTo(target.mark),
        'teardown',
      );
    }
    const cleanup = await phases.run(
      'io:teardown:scratch',
      'Removing the scratch filesystem',
      () => registry.finish(warnings),
      'teardown',
    );
    if (options.phases === undefined) {
      phases.report('done', 'Done');
    }
    return {
      result: {
        mode: options.mode,
        settings: recorded,
        target: options.target,
        destructive: rawDevice !== null,
        plain,
        encrypted,
        overhead: encrypted.flatMap((measurement) =>
          computeOverhead(plain, measurement, options.cipherBytesPerSecondPerCore),
        ),
        skipped,
        cipherBytesPerSecondPerCore: options.cipherBytesPerSecondPerCore,
        wallTimeMs: Math.max(0, (await host.effects.monotonicMs()) - started),
      },
      warnings,
      cleanup,
    };
  } catch (error) {
    return releaseAndThrow(registry, error, options.signal);
  }
}
