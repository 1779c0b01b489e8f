import { NO_LINUX_SECTIONS } from '../analyses/storage-model.js';
import type { RecordingHost } from '../capture/recording-host.js';
import {
  assessmentDocument,
  type AssessmentEnvelope,
  type AssessmentResult,
} from '../contract/assessment.js';
import { EncplanError } from '../errors.js';
import { addWarning, attempt, createProbeContext } from '../probes/probe-context.js';
import type { ToolRecord } from '../domain/tooling.js';
import type { Clock, ToolName } from '../ports.js';
import type { ProbeContext } from '../probes/probe-context.js';
import type { PlanOptions } from '../rules/plan-options.js';
import type { IoBenchmark, ProgressEvent } from '../domain/io-benchmark.js';
import type { StorageModel } from '../domain/storage-model.js';
import { runWindowsIoBenchmark } from './benchmark/run-windows-io-benchmark.js';
import { chooseDarwinBenchmarkVolume, runDarwinIoBenchmark } from './benchmark/run-darwin-io-benchmark.js';
import { probeDarwinStorage } from '../probes/darwin/probe-darwin-storage.js';
import { probeWindowsStorage } from '../probes/windows/probe-windows-storage.js';

/** What the assessment asks of its benchmark step. */
interface BenchmarkRequest {
  readonly benchmark?: { readonly quick: boolean } | null;
  readonly signal?: AbortSignal;
  readonly onBenchmarkProgress?: (event: ProgressEvent) => void;
}

/**
 * Plain versus encrypted I/O on the platform. Windows: DiskSpd on the disk's first lettered volume, plain and
 * on a BitLocker VHDX test volume made there (run-windows-io-benchmark.ts). macOS: fio on a plain and an
 * AES-256 encrypted APFS disk image on a mounted volume of the disk (run-darwin-io-benchmark.ts).
 */
async function benchmarkStep(
  context: ProbeContext,
  storage: StorageModel,
  request: BenchmarkRequest,
): Promise<IoBenchmark | null> {
  if (request.benchmark === undefined || request.benchmark === null) {
    return null;
  }
  if (context.host.platform === 'darwin') {
    return benchmarkDarwin(context, storage, request);
  }
  const lettered = storage.partitions.find((partition) => /^[A-Za-z]:$/.test(partition.mountpoint ?? ''));
  if (
    context.host.platform !== 'win32' ||
    lettered?.mountpoint === undefined ||
    lettered.mountpoint === null
  ) {
    addWarning(context, {
      code: 'PLATFORM_LIMITED',
      message:
        'No volume of this disk has a drive letter, so there is nowhere to put the test files: plain versus encrypted I/O was not measured.',
      source: 'diskspd',
    });
    return null;
  }
  const outcome = await attempt(context, 'diskspd', 'Measuring plain versus BitLocker I/O', () =>
    runWindowsIoBenchmark(context.host, {
      target: `${lettered.mountpoint}\\`,
      mode: request.benchmark?.quick === true ? 'quick' : 'full',
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onBenchmarkProgress === undefined ? {} : { onProgress: request.onBenchmarkProgress }),
    }),
  );
  outcome?.warnings.forEach((warning) => addWarning(context, warning));
  return outcome?.result ?? null;
}

/** The macOS branch of {@link benchmarkStep}: a volume of the disk for the scratch images, then the run. */
async function benchmarkDarwin(
  context: ProbeContext,
  storage: StorageModel,
  request: BenchmarkRequest,
): Promise<IoBenchmark | null> {
  const volume = await chooseDarwinBenchmarkVolume(context.host, storage, request.signal);
  if ('reason' in volume) {
    addWarning(context, {
      code: 'PLATFORM_LIMITED',
      message: `There is nowhere to put the scratch disk images: ${volume.reason}. Plain versus encrypted APFS was not measured.`,
      source: 'diskutil',
    });
    return null;
  }
  const outcome = await attempt(context, 'fio', 'Measuring plain versus encrypted APFS disk images', () =>
    runDarwinIoBenchmark(context.host, {
      volume,
      mode: request.benchmark?.quick === true ? 'quick' : 'full',
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onBenchmarkProgress === undefined ? {} : { onProgress: request.onBenchmarkProgress }),
    }),
  );
  outcome?.warnings.forEach((warning) => addWarning(context, warning));
  return outcome?.result ?? null;
}
import { planFromAssessment } from './plan-from-assessment.js';

/**
 * `encplan assess` on macOS and Windows (assessment schema 1.2): the platform's probe set (diskutil,
 * system_profiler, fdesetup, sysctl; PowerShell storage cmdlets, manage-bde, fsutil) over the same Host port,
 * its facts in the storage model (`storage`), the Linux-shaped sections null, and the plan for the platform's own tools.
 * The host is the caller's recording host, so `collect` bundles and `--bundle` replays see the same captures.
 */
export async function assessPlatform(
  host: RecordingHost,
  clock: Clock,
  request: {
    readonly device: string | null;
    readonly mode: 'live' | 'bundle';
    readonly collectedAt?: Date;
    readonly signal?: AbortSignal;
    readonly planOptions?: PlanOptions;
    readonly benchmark?: { readonly quick: boolean } | null;
    readonly onBenchmarkProgress?: (event: ProgressEvent) => void;
  },
  recordTools: (context: ProbeContext, tools: readonly ToolName[]) => Promise<ToolRecord[]>,
): Promise<AssessmentEnvelope> {
  if (request.device === null) {
    // The Linux path finds the disk of the working directory through lsblk/findmnt; macOS and Windows do not.
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `encplan assess on ${host.platform} needs the disk to assess.`,
      {
        hint:
          host.platform === 'darwin'
            ? 'Name it as diskutil does, e.g. encplan assess disk0 (see diskutil list).'
            : 'Name it by its number, e.g. encplan assess 0 (see Get-Disk).',
      },
    );
  }
  const context = createProbeContext(host, request.signal);
  // The platform's probe set fills the one storage model itself.
  const storage =
    host.platform === 'darwin'
      ? await probeDarwinStorage(context, request.device)
      : await probeWindowsStorage(context, request.device);
  const ioBenchmark = await benchmarkStep(context, storage, request);
  const toolsRun = host.captures().flatMap((capture) => (capture.kind === 'command' ? [capture.tool] : []));
  const tools = await recordTools(context, toolsRun);
  const collectedAt = request.collectedAt ?? clock.now();
  const result: Omit<AssessmentResult, 'plan'> = {
    target: {
      path: request.device,
      kernelName: storage.disk.id,
      requested: request.device,
      resolvedFrom: request.mode === 'bundle' ? 'bundle' : 'argument',
    },
    provenance: { mode: request.mode, collectedAt: collectedAt.toISOString(), platform: host.platform },
    ...NO_LINUX_SECTIONS,
    findings: [],
    cipherBenchmark: null,
    ioBenchmark,
    crossChecks: [],
    // The capability probes look for Linux kernel features (device-mapper, AF_ALG, loop devices).
    capabilities: [],
    tools,
    storage,
  };
  const plan = await attempt(context, 'plan', 'Planning', () =>
    Promise.resolve(planFromAssessment(result, request.planOptions ?? {})),
  );
  return assessmentDocument.ok({ plan, ...result }, context.warnings, clock.now());
}
