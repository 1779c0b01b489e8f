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
import { probePlatformStorage } from './collect-platform.js';
import { planFromAssessment } from './plan-from-assessment.js';

/**
 * `encplan assess` on macOS and Windows (assessment schema 1.2): the platform's probe set (diskutil,
 * system_profiler, fdesetup, sysctl; PowerShell storage cmdlets, manage-bde, fsutil) over the same Host port,
 * its facts in `platformStorage`, the Linux-shaped sections null, and the plan for the platform's own tools.
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
  const { facts: storage, warnings } = await probePlatformStorage(host, request.device, request.signal);
  const context = createProbeContext(host, request.signal);
  warnings.forEach((warning) => addWarning(context, warning));
  if (request.benchmark !== undefined && request.benchmark !== null) {
    addWarning(context, {
      code: 'PLATFORM_LIMITED',
      message: `Benchmarks do not run in the ${host.platform === 'darwin' ? 'macOS' : 'Windows'} assessment yet: cipher speed and plain versus encrypted I/O were not measured.`,
      source: 'fio',
    });
  }
  const toolsRun = host.captures().flatMap((capture) => (capture.kind === 'command' ? [capture.tool] : []));
  const tools = await recordTools(context, toolsRun);
  const collectedAt = request.collectedAt ?? clock.now();
  const facts: Omit<AssessmentResult, 'plan'> = {
    target: {
      path: request.device,
      kernelName: storage.disk.identifier,
      requested: request.device,
      resolvedFrom: request.mode === 'bundle' ? 'bundle' : 'argument',
    },
    provenance: { mode: request.mode, collectedAt: collectedAt.toISOString(), platform: host.platform },
    disk: null,
    media: null,
    partitions: null,
    stack: null,
    encryption: null,
    space: null,
    health: null,
    trim: null,
    discardPassthrough: null,
    sed: null,
    overProvisioning: null,
    kernelCrypto: null,
    findings: [],
    cipherBenchmark: null,
    ioBenchmark: null,
    machine: null,
    crossChecks: [],
    // The capability probes look for Linux kernel features (device-mapper, AF_ALG, loop devices).
    capabilities: [],
    tools,
    platformStorage: storage,
  };
  const plan = await attempt(context, 'plan', 'Planning', () =>
    Promise.resolve(planFromAssessment(facts, request.planOptions ?? {})),
  );
  return assessmentDocument.ok({ plan, ...facts }, context.warnings, clock.now());
}
