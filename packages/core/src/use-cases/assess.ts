import { createRecordingHost, type RecordingHost } from '../capture/recording-host.js';
import {
  assessmentDocument,
  type AssessmentEnvelope,
  type AssessmentResult,
} from '../contract/assessment.js';
import { parseVersionBanner, VERSION_ARGUMENTS, type ToolRecord } from '../domain/tooling.js';
import { EncplanError } from '../errors.js';
import type { Clock, Host, ToolName } from '../ports.js';
import { probeCapabilities } from '../probes/capabilities.js';
import { probeFileEncryption } from '../probes/linux/file-encryption.js';
import { probeLinuxInventory } from '../probes/linux/inventory.js';
import { linuxStorageModel } from '../analyses/storage-model.js';
import { computeSpace } from '../analyses/space.js';
import { resolveTarget, type ResolvedTarget } from '../probes/linux/resolve-target.js';
import { crossCheckDiskType, probeMachine } from '../probes/machine.js';
import type { BackendId, IoBenchmark, ProgressEvent } from '../domain/io-benchmark.js';
import type { StackNode } from '../domain/device.js';
import type { CipherBenchmark } from '../domain/cipher.js';
import { addWarning, attempt, createProbeContext, type ProbeContext } from '../probes/probe-context.js';
import { probeHostProtectedArea } from '../probes/linux/host-protected-area.js';
import { resolvePlanOptions, type PlanOptions } from '../rules/plan-options.js';
import { buildPlan } from '../plan/plan.js';
import { refuseForeignTarget } from '../targets/registry.js';
import { assessDriveSections, nvmeCapacityOf } from '../analyses/drive-sections.js';
import { probeHealth } from '../probes/linux/health.js';
import { probeDiscardStack, readFstrimTimer, type DiscardStackFacts } from '../probes/linux/discard-stack.js';
import type { Machine } from '../domain/cpu.js';
import type { KernelCryptoFacts } from '../domain/cipher.js';
import type { Capability } from '../domain/capabilities.js';
import type { LsblkDevice } from '../parsers/lsblk/parse-lsblk-json.js';
import { probeKernelCrypto } from '../probes/kernel-crypto.js';
import { runCipherBenchmark } from './cipher-benchmark.js';
import { planIoBenchmark, runIoBenchmark } from './benchmark/run-io-benchmark.js';
import { PhaseSchedule } from '../probes/phase-schedule.js';
import { speedProbePhases } from '../probes/cipher-speed.js';
import type { QuickRevision } from '../domain/benchmark-settings.js';
import { findKernelCipherBottleneck } from '../rules/kernel-cipher-bottleneck.js';
import { benchmarkScratchBytes, scratchDirectoryOf } from '../plan/benchmark-footprint.js';
import { parseMountinfo } from '../parsers/proc/mountinfo.js';

/** How much benchmarking an assessment or a collection does. */
export interface BenchmarkRequest {
  readonly quick: boolean;
  readonly quickRevision?: QuickRevision;
  /** The encrypted I/O backends: 'auto' (the default) what the platform has; an empty list: no I/O benchmark. */
  readonly io?: readonly BackendId[] | 'auto';
  /** The folder the user chose for the scratch containers (`--scratch DIR`); else the disk's own (scratchDirectoryOf). */
  readonly scratchDirectory?: string;
}

/**
 * Where the I/O benchmark of `stack` writes: the folder the user named, else the disk's largest mounted
 * filesystem at its own root mount (the mount table says which of its mount points that is).
 */
export async function chooseScratchDirectory(
  host: Host,
  stack: StackNode,
  request: BenchmarkRequest,
): Promise<string | null> {
  if (request.scratchDirectory !== undefined) {
    return request.scratchDirectory;
  }
  const mountInfo = await host.readText('/proc/self/mountinfo').catch(() => null);
  return scratchDirectoryOf(stack, mountInfo === null ? null : parseMountinfo(mountInfo));
}

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
  /**
   * Also measure cipher and key-derivation speed, and plain versus encrypted I/O. `quickRevision`: which quick
   * mode (a bundle replays the one it was collected with); the current one when absent.
   */
  readonly benchmark?: BenchmarkRequest | null;
  /** How to plan (target tool, threat model, workload, unlocking machine); defaults when absent. */
  readonly planOptions?: PlanOptions;
  /** Progress of long steps, for the CLI's progress bar and the desktop. */
  readonly onProgress?: (step: string) => void;
  /** Progress events of the I/O benchmark (run i of n, ETA), for progress bars. */
  readonly onBenchmarkProgress?: (event: ProgressEvent) => void;
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
  request: Pick<AssessRequest, 'benchmark' | 'onProgress' | 'onBenchmarkProgress' | 'signal'>,
  stack: StackNode,
  cipherBenchmark: CipherBenchmark | null,
  phases: PhaseSchedule | null,
): Promise<IoBenchmark | null> {
  const backends = request.benchmark?.io ?? 'auto';
  if (
    request.benchmark === undefined ||
    request.benchmark === null ||
    phases === null ||
    backends.length === 0
  ) {
    return null;
  }
  const directory = await chooseScratchDirectory(context.host, stack, request.benchmark);
  if (directory === null) {
    addWarning(context, {
      code: 'PLATFORM_LIMITED',
      message:
        'No filesystem of this disk is mounted, so there is nowhere to put scratch containers: plain versus encrypted I/O was not measured. Mount one, or run encplan benchmark io on the raw device with --destructive.',
      source: 'fio',
    });
    return null;
  }
  const { quick, quickRevision } = request.benchmark;
  const mode = quick ? 'quick' : 'full';
  const planned = await planIoBenchmark(context.host, { backends, mode, sweep: false });
  const scratchMiB = Math.ceil(benchmarkScratchBytes(planned.backends, mode) / (1024 * 1024));
  request.onProgress?.(
    `Measuring plain versus encrypted I/O in ${directory} (scratch containers up to ${scratchMiB} MiB, removed afterwards)`,
  );
  // A benchmark that cannot run (no space, no fio) costs its section, not the whole assessment. It runs over
  // the host like every probe: recorded by `collect --benchmark`, replayed by `assess --bundle`. assess measures
  // only in a scratch directory of a mounted filesystem: never destructive.
  const outcome = await attempt(context, 'fio', 'Measuring plain versus encrypted I/O', () =>
    runIoBenchmark(context.host, {
      target: directory,
      backends,
      mode: quick ? 'quick' : 'full',
      sweep: false,
      destructive: { allowDestructive: false, typedDevice: null, yes: false },
      cipherBytesPerSecondPerCore: kernelCipherSpeed(cipherBenchmark),
      phases,
      ...(quickRevision === undefined ? {} : { quickRevision }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    }),
  );
  // Whatever did not run (a backend that failed, the whole run on an error) is no longer expected.
  phases.skip('io:');
  outcome?.warnings.forEach((warning) => addWarning(context, warning));
  return outcome?.result ?? null;
}

/** The tools a run used, with their paths and version banners (also for the macOS/Windows assessment). */
async function recordTools(context: ProbeContext, tools: readonly ToolName[]): Promise<ToolRecord[]> {
  // Every version question is asked at once (they are independent); the answers, and any warning, are then
  // taken in tool order so the result does not depend on which process finished first.
  const asked = [...new Set(tools)].sort().map((tool) => {
    const versionArgs = VERSION_ARGUMENTS[tool];
    const path = context.host.whichTool(tool);
    const output = path.then((found) =>
      found === null || versionArgs === undefined
        ? null
        : context.host.run({ tool, args: versionArgs, timeoutMs: 5000 }, context.signal),
    );
    // Handled below, in order; this keeps an early failure from counting as unhandled meanwhile.
    output.catch(() => undefined);
    return { tool, path, output };
  });
  const records: ToolRecord[] = [];
  for (const { tool, path, output } of asked) {
    const answer = await attempt(context, tool, `Asking ${tool} its version`, () => output);
    records.push({
      tool,
      path: await path,
      version: answer === null ? null : parseVersionBanner(`${answer.stdout}\n${answer.stderr}`),
    });
  }
  return records;
}

/** What every disk of one run shares, gathered once: CPU, memory, OS, kernel crypto, kernel features, fstrim.timer. */
export interface HostFacts {
  readonly machine: Machine | null;
  /** systeminformation's disk guesses: only when a bundle from before issue 18 answered from its capture. */
  readonly diskLayout: readonly Record<string, unknown>[];
  readonly kernelCrypto: KernelCryptoFacts | null;
  readonly capabilities: Capability[];
  readonly fstrimTimer: DiscardStackFacts['fstrimTimer'];
}

/** Reads the host facts once; expected failures become warnings in `context`. */
export async function probeHostFacts(
  context: ProbeContext,
  known: { fstrimTimer?: DiscardStackFacts['fstrimTimer'] } = {},
): Promise<HostFacts> {
  const { machine, diskLayout } = await probeMachine(context);
  const kernelCrypto = await probeKernelCrypto(context);
  const capabilities = await probeCapabilities(context.host);
  const fstrimTimer = known.fstrimTimer === undefined ? await readFstrimTimer(context) : known.fstrimTimer;
  return { machine, diskLayout, kernelCrypto, capabilities, fstrimTimer };
}

/** A disk's facts without the run-wide tool list and the plan (assembled once every disk is read). */
export type DiskFacts = Omit<AssessmentResult, 'plan' | 'tools'>;

/** How one disk is to be read: its target, and what the run already knows. */
export interface DiskProbeRequest {
  readonly target: ResolvedTarget;
  readonly mode: 'live' | 'bundle';
  readonly includeSerials: boolean;
  readonly collectedAt: Date;
  /** The disk as the machine-wide lsblk listed it (`--all`); absent: the disk's own lsblk. */
  readonly lsblkDevice?: LsblkDevice;
  /** The host facts when already read (`--all`); absent: read after the disk's own probes, as always. */
  readonly hostFacts?: HostFacts;
}

/**
 * Reads one disk: inventory, host protected area, SMART and TRIM, discard stack, space, and (with a request
 * for benchmarks) cipher and I/O speed. Warnings go to `context`; a disk that cannot be read throws.
 */
export async function probeDisk(
  context: ProbeContext,
  disk: DiskProbeRequest,
  request: Pick<AssessRequest, 'benchmark' | 'onProgress' | 'onBenchmarkProgress' | 'signal'> = {},
): Promise<DiskFacts> {
  const { host } = context;
  const { target } = disk;
  const inventory = await probeLinuxInventory(context, target, {
    includeSerials: disk.includeSerials,
    ...(disk.lsblkDevice === undefined ? {} : { lsblkDevice: disk.lsblkDevice }),
  });
  const hostProtectedArea = await probeHostProtectedArea(context, inventory.disk);
  request.onProgress?.('Reading SMART health and TRIM support');
  const drive = await probeHealth(
    host,
    { path: inventory.disk.path, transport: inventory.disk.transport },
    context.signal,
  );
  drive.warnings.forEach((warning) => addWarning(context, warning));
  const discard = await probeDiscardStack(host, inventory.stack, context.signal, disk.hostFacts?.fstrimTimer);
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
  const shared =
    disk.hostFacts ?? (await probeHostFacts(context, { fstrimTimer: discard.facts.fstrimTimer }));
  const { machine, kernelCrypto } = shared;
  let cipherBenchmark = null;
  let phases: PhaseSchedule | null = null;
  if (request.benchmark !== undefined && request.benchmark !== null) {
    const { quick, quickRevision } = request.benchmark;
    const speedOptions = { quick, ...(quickRevision === undefined ? {} : { quickRevision }) };
    // One plan for every measurement of the run, so the ETA covers them all; they run one after another
    // (CPU-only cipher and KDF runs first, then fio), never two at once.
    phases = new PhaseSchedule(
      [
        ...speedProbePhases({ ...speedOptions, kernelCrypto, logicalCpuCount: machine?.logicalCores ?? 1 }),
        ...((request.benchmark.scratchDirectory ?? scratchDirectoryOf(inventory.stack)) === null ||
        request.benchmark.io?.length === 0
          ? []
          : (
              await planIoBenchmark(host, {
                backends: request.benchmark.io ?? 'auto',
                mode: quick ? 'quick' : 'full',
                sweep: false,
                ...(quickRevision === undefined ? {} : { quickRevision }),
              })
            ).phases),
      ],
      request.onBenchmarkProgress,
    );
    request.onProgress?.('Measuring cipher and key-derivation speed');
    cipherBenchmark = await runCipherBenchmark(
      context,
      { ...speedOptions, phases },
      { kernelCrypto, machine },
    );
  }
  const ioBenchmark = await runIoStep(context, request, inventory.stack, cipherBenchmark, phases);
  phases?.report('done', 'Done');
  const kernelFinding =
    kernelCrypto === null || machine === null
      ? null
      : findKernelCipherBottleneck({
          kernel: kernelCrypto,
          cpuHasAes: machine.cryptoFlags.aes,
          cipherSpeed: cipherBenchmark?.cipherSpeed ?? null,
        });
  const crossCheck = crossCheckDiskType(shared.diskLayout, inventory.disk.path, inventory.media);
  return {
    target: {
      path: target.path,
      kernelName: target.kernelName,
      requested: target.requested,
      resolvedFrom: disk.mode === 'bundle' ? 'bundle' : target.resolvedFrom,
    },
    provenance: {
      mode: disk.mode,
      collectedAt: disk.collectedAt.toISOString(),
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
    capabilities: shared.capabilities,
    storage: linuxStorageModel({
      ...inventory,
      fileEncryption: await probeFileEncryption(context, inventory.disk.mountpoints),
      space,
      discardPassthrough: sections.discardPassthrough,
      overProvisioning: sections.overProvisioning,
      sed: sections.sed,
    }),
  };
}

/** The tools the run started (from the recording host's captures), each with its path and version, asked once. */
export function recordRunTools(context: ProbeContext, host: RecordingHost): Promise<ToolRecord[]> {
  const toolsRun = host.captures().flatMap((capture) => (capture.kind === 'command' ? [capture.tool] : []));
  return recordTools(context, toolsRun);
}

/**
 * Adds the tool list and the plan to a disk's facts. Planning is pure; a plan that cannot be made is a warning.
 * The facts are this run's own, typed as the contract's sections (`AssessmentResult` minus its plan, an
 * `AssessedSections`): they are planned as they are. planFromAssessment is for documents from outside (`plan
 * --input`, a saved assessment), which it validates against the deep-partial schema first; for facts the run has
 * just built, building that schema and walking every fact through it was ~20 % of a one-disk `assess`'s CPU time
 * (docs/performance.md, issue 28).
 */
export async function finishAssessment(
  context: ProbeContext,
  facts: DiskFacts,
  tools: ToolRecord[],
  planOptions: PlanOptions | undefined,
): Promise<AssessmentResult> {
  const withTools: Omit<AssessmentResult, 'plan'> = { ...facts, tools };
  const plan = await attempt(context, 'plan', 'Planning', () =>
    Promise.resolve(buildPlan(withTools, planOptions ?? {})),
  );
  return { plan, ...withTools };
}

/** Starts a Linux assessment run: a recording host over the environment's (its captures name the tools run) and a context. */
export function startAssessment(
  environment: AssessEnvironment,
  signal: AbortSignal | undefined,
): { host: RecordingHost; context: ProbeContext } {
  const host = createRecordingHost(environment.host);
  requireLinux(host);
  return { host, context: createProbeContext(host, signal) };
}

/** Refuses a platform assess does not run on. */
function requireLinux(host: Host): void {
  if (host.platform !== 'linux') {
    throw new EncplanError(
      'DEVICE_UNSUPPORTED',
      `encplan assess runs on Linux in this version; this is ${host.platform}.`,
      {
        hint: 'Collect a bundle on the Linux machine (encplan collect) or run it there.',
      },
    );
  }
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
  // Options that do not match their definition, and a target tool the platform does not have, are refused
  // before anything runs (issue 25 item 4, issue 10 item 3): never an empty plan after the disk was read.
  resolvePlanOptions(request.planOptions ?? {});
  refuseForeignTarget(environment.host.platform, request.planOptions?.targetTool ?? null);
  if (environment.host.platform === 'darwin' || environment.host.platform === 'win32') {
    // The macOS and Windows probes, parsers and I/O benchmarks (~74 kB of the bundled core) are imported only
    // here: a Linux `assess DISK` neither compiles nor evaluates them (issue 28; startup-modules.test.ts).
    const { assessPlatform } = await import('./assess-platform.js');
    return assessPlatform(createRecordingHost(environment.host), environment.clock, request, recordTools);
  }
  const { host, context } = startAssessment(environment, request.signal);
  const target = await resolveTarget(host, request.device, { requireReadable: request.mode === 'live' });
  const facts = await probeDisk(
    context,
    {
      target,
      mode: request.mode,
      includeSerials: request.includeSerials,
      collectedAt: request.collectedAt ?? environment.clock.now(),
    },
    request,
  );
  const tools = await recordRunTools(context, host);
  const result = await finishAssessment(context, facts, tools, request.planOptions);
  return assessmentDocument.ok(result, context.warnings, environment.clock.now());
}
