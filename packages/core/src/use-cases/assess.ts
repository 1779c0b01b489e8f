import { createRecordingHost } from '../capture/recording-host.js';
import {
  assessmentDocument,
  type AssessmentEnvelope,
  type AssessmentResult,
} from '../contract/assessment.js';
import { parseVersionBanner, VERSION_ARGUMENTS, type ToolRecord } from '../domain/tooling.js';
import { EncplanError } from '../errors.js';
import type { Clock, Host, ToolName } from '../ports.js';
import { probeCapabilities } from '../probes/capabilities.js';
import { probeLinuxInventory } from '../probes/linux/inventory.js';
import { computeSpace } from '../analyses/space.js';
import { resolveTarget } from '../probes/linux/resolve-target.js';
import { crossCheckDiskType, probeMachine } from '../probes/machine.js';
import type { IoBenchmark, ProgressEvent } from '../domain/io-benchmark.js';
import type { StackNode } from '../domain/device.js';
import type { CipherBenchmark } from '../domain/cipher.js';
import {
  addWarning,
  attempt,
  createProbeContext,
  tryRun,
  type ProbeContext,
} from '../probes/probe-context.js';
import { probeHostProtectedArea } from '../probes/linux/host-protected-area.js';
import type { PlanOptions } from '../rules/plan-options.js';
import { planFromAssessment } from './plan-from-assessment.js';
import { assessPlatform } from './assess-platform.js';
import { refuseForeignTarget } from '../rules/platform-targets.js';
import { assessDriveSections, nvmeCapacityOf } from '../analyses/drive-sections.js';
import { probeHealth } from '../probes/linux/health.js';
import { probeDiscardStack } from '../probes/linux/discard-stack.js';
import { probeKernelCrypto } from '../probes/kernel-crypto.js';
import { runCipherBenchmark } from './cipher-benchmark.js';
import { runIoBenchmark } from './benchmark/run-io-benchmark.js';
import { findKernelCipherBottleneck } from '../rules/kernel-cipher-bottleneck.js';

/** What the assess use case needs from the world. */
export interface AssessEnvironment {
  readonly host: Host;
  readonly clock: Clock;
}

/** One assessment request, as the CLI or the desktop builds it. */
export interface AssessRequest {
  /** The device argument, or null for the disk holding the working directory. */
  readonly device: string | null;
  readonly includeSerials: boolean;
  /** live: the host is this machine; bundle: the host replays a bundle collected at `collectedAt`. */
  readonly mode: 'live' | 'bundle';
  readonly collectedAt?: Date;
  readonly signal?: AbortSignal;
  /** Also measure cipher and key-derivation speed (and, with `io`, plain versus encrypted I/O). */
  readonly benchmark?: { readonly quick: boolean } | null;
  /** How to plan (target tool, threat model, workload, unlocking machine); defaults when absent. */
  readonly planOptions?: PlanOptions;
  /** Progress of long steps, for the CLI's progress bar and the desktop. */
  readonly onProgress?: (step: string) => void;
  /** Progress events of the I/O benchmark (run i of n, ETA), for progress bars. */
  readonly onBenchmarkProgress?: (event: ProgressEvent) => void;
}

/** The largest mounted filesystem of the disk's stack: where scratch containers can go without writing the device. */
function scratchDirectoryOf(stack: StackNode): string | null {
  const mounted: StackNode[] = [];
  const walk = (node: StackNode): void => {
    // A mount point proves a filesystem even when blkid could not name it (no raw access).
    if (node.mountpoints.some((mount) => mount.startsWith('/'))) {
      mounted.push(node);
    }
    node.children.forEach(walk);
  };
  walk(stack);
  const largest = mounted.sort((a, b) => b.sizeBytes - a.sizeBytes)[0];
  return largest?.mountpoints.find((mount) => mount.startsWith('/')) ?? null;
}

/**
 * One core's AES-XTS speed for the I/O bound analysis. OpenSSL's figure stands for the kernel only when the
 * kernel's driver is accelerated: with a generic driver it would be 100× too high (issue 4), so null.
 */
function kernelCipherSpeed(benchmark: CipherBenchmark | null): number | null {
  if (benchmark === null || benchmark.kernelCrypto?.xtsAesImplementation === 'generic') {
    return null;
  }
  const aes = benchmark.cipherSpeed.measurements.find(
    (m) => m.cipher === 'aes-xts' && m.keyBits === 512 && m.encryptBytesPerSecond !== null,
  );
  return aes?.encryptBytesPerSecond ?? null;
}

async function runIoStep(
  context: ProbeContext,
  request: AssessRequest,
  stack: StackNode,
  cipherBenchmark: CipherBenchmark | null,
): Promise<IoBenchmark | null> {
  if (request.benchmark === undefined || request.benchmark === null) {
    return null;
  }
  const directory = scratchDirectoryOf(stack);
  if (directory === null) {
    addWarning(context, {
      code: 'PLATFORM_LIMITED',
      message:
        'No filesystem of this disk is mounted, so there is nowhere to put scratch containers: plain versus encrypted I/O was not measured. Mount one, or run encplan benchmark io on the raw device with --destructive.',
      source: 'fio',
    });
    return null;
  }
  request.onProgress?.(`Measuring plain versus encrypted I/O in ${directory}`);
  const quick = request.benchmark.quick;
  // A benchmark that cannot run (no space, no fio) costs its section, not the whole assessment. It runs over
  // the host like every probe: recorded by `collect --benchmark`, replayed by `assess --bundle`. assess measures
  // only in a scratch directory of a mounted filesystem: never destructive.
  const outcome = await attempt(context, 'fio', 'Measuring plain versus encrypted I/O', () =>
    runIoBenchmark(context.host, {
      target: directory,
      backends: 'auto',
      mode: quick ? 'quick' : 'full',
      sweep: false,
      destructive: { allowDestructive: false, typedDevice: null, yes: false },
      cipherBytesPerSecondPerCore: kernelCipherSpeed(cipherBenchmark),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onBenchmarkProgress === undefined ? {} : { onProgress: request.onBenchmarkProgress }),
    }),
  );
  outcome?.warnings.forEach((warning) => addWarning(context, warning));
  return outcome?.result ?? null;
}

/** The tools a run used, with their paths and version banners (also for the macOS/Windows assessment). */
async function recordTools(context: ProbeContext, tools: readonly ToolName[]): Promise<ToolRecord[]> {
  const records: ToolRecord[] = [];
  for (const tool of [...new Set(tools)].sort()) {
    const path = await context.host.whichTool(tool);
    const versionArgs = VERSION_ARGUMENTS[tool];
    let version: string | null = null;
    if (path !== null && versionArgs !== undefined) {
      const output = await tryRun(
        context,
        { tool, args: versionArgs, timeoutMs: 5000 },
        `Asking ${tool} its version`,
      );
      version = output === null ? null : parseVersionBanner(`${output.stdout}\n${output.stderr}`);
    }
    records.push({ tool, path, version });
  }
  return records;
}

/**
 * Assesses one disk: inventory, stack, existing encryption, space, machine. Fatal problems (bad input,
 * a device that cannot be used) throw an EncplanError; everything else that fails becomes a warning and
 * the envelope's status is `partial`.
 */
export async function assess(
  environment: AssessEnvironment,
  request: AssessRequest,
): Promise<AssessmentEnvelope> {
  const host = createRecordingHost(environment.host);
  // A target tool the platform does not have is refused before anything runs (issue 10 item 3).
  refuseForeignTarget(host.platform, request.planOptions?.targetTool ?? null);
  if (host.platform === 'darwin' || host.platform === 'win32') {
    return assessPlatform(host, environment.clock, request, recordTools);
  }
  if (host.platform !== 'linux') {
    throw new EncplanError(
      'DEVICE_UNSUPPORTED',
      `encplan assess runs on Linux in this version; this is ${host.platform}.`,
      {
        hint: 'Collect a bundle on the Linux machine (encplan collect) or run it there.',
      },
    );
  }
  const context = createProbeContext(host, request.signal);
  const target = await resolveTarget(host, request.device, { requireReadable: request.mode === 'live' });
  const inventory = await probeLinuxInventory(context, target, { includeSerials: request.includeSerials });
  const hostProtectedArea = await probeHostProtectedArea(context, inventory.disk);
  request.onProgress?.('Reading SMART health and TRIM support');
  const drive = await probeHealth(
    host,
    { path: inventory.disk.path, transport: inventory.disk.transport },
    request.signal,
  );
  drive.warnings.forEach((warning) => addWarning(context, warning));
  const discard = await probeDiscardStack(host, inventory.stack, request.signal);
  discard.warnings.forEach((warning) => addWarning(context, warning));
  const space = {
    ...computeSpace(inventory.spaceInput),
    nvme: nvmeCapacityOf(drive.facts),
    hostProtectedArea,
  };
  const rotational = inventory.media.kind === 'unknown' ? null : inventory.media.kind === 'hdd';
  const sections = assessDriveSections({
    disk: { ...inventory.disk, rotational },
    stack: inventory.stack,
    space,
    drive: drive.facts,
    discard: discard.facts,
  });
  const { machine, diskLayout } = await probeMachine(context);
  const kernelCrypto = await probeKernelCrypto(context);
  let cipherBenchmark = null;
  if (request.benchmark !== undefined && request.benchmark !== null) {
    request.onProgress?.('Measuring cipher and key-derivation speed');
    cipherBenchmark = await runCipherBenchmark(context, { quick: request.benchmark.quick });
  }
  const ioBenchmark = await runIoStep(context, request, inventory.stack, cipherBenchmark);
  const kernelFinding =
    kernelCrypto === null || machine === null
      ? null
      : findKernelCipherBottleneck({
          kernel: kernelCrypto,
          cpuHasAes: machine.cryptoFlags.aes,
          cipherSpeed: cipherBenchmark?.cipherSpeed ?? null,
        });
  const crossCheck = crossCheckDiskType(diskLayout, inventory.disk.path, inventory.media);
  const capabilities = await probeCapabilities(host);
  const toolsRun = host.captures().flatMap((capture) => (capture.kind === 'command' ? [capture.tool] : []));
  const tools = await recordTools(context, toolsRun);
  const collectedAt = request.collectedAt ?? environment.clock.now();

  const facts: Omit<AssessmentResult, 'plan'> = {
    target: {
      path: target.path,
      kernelName: target.kernelName,
      requested: target.requested,
      resolvedFrom: request.mode === 'bundle' ? 'bundle' : target.resolvedFrom,
    },
    provenance: {
      mode: request.mode,
      collectedAt: collectedAt.toISOString(),
      platform: `${host.platform}${machine === null ? '' : ` ${machine.os.kernel}`}`,
    },
    disk: inventory.disk,
    media: inventory.media,
    partitions: inventory.partitions,
    stack: inventory.stack,
    encryption: inventory.encryption,
    space,
    health: sections.health,
    trim: sections.trim,
    discardPassthrough: sections.discardPassthrough,
    sed: sections.sed,
    overProvisioning: sections.overProvisioning,
    kernelCrypto,
    findings: kernelFinding === null ? [] : [kernelFinding],
    cipherBenchmark,
    ioBenchmark,
    machine,
    crossChecks: crossCheck === null ? [] : [crossCheck],
    capabilities,
    tools,
  };
  // Planning is pure; a plan that cannot be made (e.g. a device path it will not put in a command) is a
  // warning, and the facts still stand.
  const plan = await attempt(context, 'plan', 'Planning', () =>
    Promise.resolve(planFromAssessment(facts, request.planOptions ?? {})),
  );
  const result: AssessmentResult = { plan, ...facts };
  return assessmentDocument.ok(result, context.warnings, environment.clock.now());
}
