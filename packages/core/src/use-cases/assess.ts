import { createRecordingHost } from '../capture/recording-host.js';
import { ASSESSMENT_SCHEMA, ASSESSMENT_SCHEMA_VERSION, type AssessmentEnvelope, type AssessmentResult } from '../contract/assessment.js';
import { okEnvelope } from '../contract/envelope.js';
import { parseVersionBanner, VERSION_ARGUMENTS, type ToolRecord } from '../domain/tooling.js';
import { EncplanError } from '../errors.js';
import type { Clock, Host, ToolName } from '../ports.js';
import { probeCapabilities } from '../probes/capabilities.js';
import { probeLinuxInventory } from '../probes/linux/inventory.js';
import { resolveTarget } from '../probes/linux/resolve-target.js';
import { crossCheckDiskType, probeMachine } from '../probes/machine.js';
import { createProbeContext, tryRun, type ProbeContext } from '../probes/probe-context.js';
import { probeHostProtectedArea } from '../probes/linux/host-protected-area.js';
import { TOOL_VERSION } from '../version.js';

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
}

async function recordTools(context: ProbeContext, tools: readonly ToolName[]): Promise<ToolRecord[]> {
  const records: ToolRecord[] = [];
  for (const tool of [...new Set(tools)].sort()) {
    const path = await context.host.whichTool(tool);
    const versionArgs = VERSION_ARGUMENTS[tool];
    let version: string | null = null;
    if (path !== null && versionArgs !== undefined) {
      const output = await tryRun(context, { tool, args: versionArgs, timeoutMs: 5000 }, `Asking ${tool} its version`);
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
export async function assess(environment: AssessEnvironment, request: AssessRequest): Promise<AssessmentEnvelope> {
  const host = createRecordingHost(environment.host);
  if (host.platform !== 'linux') {
    throw new EncplanError('DEVICE_UNSUPPORTED', `encplan assess runs on Linux in this version; this is ${host.platform}.`, {
      hint: 'Collect a bundle on the Linux machine (encplan collect) or run it there.',
    });
  }
  const context = createProbeContext(host, request.signal);
  const target = await resolveTarget(host, request.device, { requireReadable: request.mode === 'live' });
  const inventory = await probeLinuxInventory(context, target, { includeSerials: request.includeSerials });
  const hostProtectedArea = await probeHostProtectedArea(context, inventory.disk);
  const { machine, diskLayout } = await probeMachine(context);
  const crossCheck = crossCheckDiskType(diskLayout, inventory.disk.path, inventory.media);
  const capabilities = await probeCapabilities(host);
  const toolsRun = host.captures().flatMap((capture) => (capture.kind === 'command' ? [capture.tool] : []));
  const tools = await recordTools(context, toolsRun);
  const collectedAt = request.collectedAt ?? environment.clock.now();

  const result: AssessmentResult = {
    target: { path: target.path, kernelName: target.kernelName, requested: target.requested, resolvedFrom: request.mode === 'bundle' ? 'bundle' : target.resolvedFrom },
    provenance: { mode: request.mode, collectedAt: collectedAt.toISOString(), platform: `${host.platform}${machine === null ? '' : ` ${machine.os.kernel}`}` },
    disk: inventory.disk,
    media: inventory.media,
    partitions: inventory.partitions,
    stack: inventory.stack,
    encryption: inventory.encryption,
    space: { ...inventory.space, nvme: null, hostProtectedArea },
    machine,
    crossChecks: crossCheck === null ? [] : [crossCheck],
    capabilities,
    tools,
  };
  return okEnvelope(
    { schema: ASSESSMENT_SCHEMA, schemaVersion: ASSESSMENT_SCHEMA_VERSION, toolVersion: TOOL_VERSION, generatedAt: environment.clock.now() },
    result,
    context.warnings,
  );
}
