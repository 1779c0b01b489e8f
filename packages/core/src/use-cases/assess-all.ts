import {
  machineAssessmentDocument,
  type MachineAssessmentEnvelope,
  type MachineDisk,
} from '../contract/assessment.js';
import { toErrorBody } from '../contract/envelope.js';
import { machineFindings, summariseDisk, summariseFailedDisk } from './disk-summary.js';
import { validateDeviceArgument } from '../domain/target.js';
import type { Warning } from '../domain/warning.js';
import { EncplanError, isEncplanError } from '../errors.js';
import type { LsblkDevice } from '../parsers/lsblk/parse-lsblk-json.js';
import { listMachineBlockDevices } from '../probes/linux/inventory.js';
import { createProbeContext, warningCodeFor, type ProbeContext } from '../probes/probe-context.js';
import { resolvePlanOptions, type PlanOptions } from '../rules/plan-options.js';
import {
  finishAssessment,
  probeDisk,
  probeHostFacts,
  recordRunTools,
  startAssessment,
  type AssessEnvironment,
  type DiskFacts,
} from './assess.js';
import { whyCannotHoldData } from '../probes/linux/holds-data.js';

/**
 * How many disks are read at once. Each disk's probes wait on its drive (smartctl, sfdisk, blkid), not on the
 * CPU, so a few run side by side even on 2 cores; more would only queue on the same CPUs and controllers.
 */
const DISK_POOL_SIZE = 4;

/** `encplan assess --all`: every whole disk of the machine. */
export interface AssessAllRequest {
  readonly includeSerials: boolean;
  readonly mode: 'live' | 'bundle';
  readonly collectedAt?: Date;
  readonly signal?: AbortSignal;
  readonly planOptions?: PlanOptions;
  /** Disks read at once; {@link DISK_POOL_SIZE} when absent. */
  readonly poolSize?: number;
}

/**
 * The whole disks of a machine-wide lsblk listing: disks and attached loop devices that can hold data
 * (probes/linux/holds-data.ts: no zram or ram disk, nothing empty or read-only; `assess DEVICE` refuses them).
 */
export function wholeDisksOf(devices: readonly LsblkDevice[]): LsblkDevice[] {
  return devices.filter(
    (device) => (device.type === 'disk' || device.type === 'loop') && whyCannotHoldData(device) === null,
  );
}

/** Runs `work` over `items` with at most `size` at once, keeping the items' order in the answers. */
export async function mapPool<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      answers[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
  return answers;
}

/**
 * The device node lsblk named must be the device lsblk listed: a disk detached (or its node removed) since the
 * listing is an error of that disk, never facts of another device put in its place.
 */
async function checkNode(context: ProbeContext, device: LsblkDevice): Promise<void> {
  const path = validateDeviceArgument(device.path);
  const node = await context.host.stat(path);
  if (node?.kind !== 'block-device' || node.deviceNumber !== device.deviceNumber) {
    throw new EncplanError(
      'DEVICE_NOT_FOUND',
      node === null
        ? `${path} is gone: lsblk listed ${device.kernelName} (${device.deviceNumber}) but there is no device node.`
        : `${path} is not the device lsblk listed (${device.deviceNumber}); it was replaced or detached.`,
      { hint: 'Reattach the disk (or run `udevadm trigger`) and run encplan again.' },
    );
  }
}

type DiskOutcome =
  | { readonly device: LsblkDevice; readonly context: ProbeContext; readonly facts: DiskFacts }
  | { readonly device: LsblkDevice; readonly context: ProbeContext; readonly error: unknown };

/**
 * Assesses every whole disk of the machine in one run: one lsblk for all of them, the host facts (CPU,
 * memory, kernel crypto, kernel features, fstrim.timer, tool versions) once, the disks' own probes in a pool
 * of {@link DISK_POOL_SIZE}. A disk that fails is reported with its error while the others answer.
 */
export async function assessAll(
  environment: AssessEnvironment,
  request: AssessAllRequest,
): Promise<MachineAssessmentEnvelope> {
  resolvePlanOptions(request.planOptions ?? {});
  const { host, context } = startAssessment(environment, request.signal);
  const collectedAt = request.collectedAt ?? environment.clock.now();
  const devices = wholeDisksOf(await listMachineBlockDevices(context));
  const hostFacts = await probeHostFacts(context);
  const outcomes = await mapPool(
    devices,
    request.poolSize ?? DISK_POOL_SIZE,
    async (device): Promise<DiskOutcome> => {
      const diskContext = createProbeContext(host, request.signal);
      try {
        await checkNode(diskContext, device);
        const facts = await probeDisk(diskContext, {
          target: { kernelName: device.kernelName, path: device.path, requested: null, resolvedFrom: 'all' },
          mode: request.mode,
          includeSerials: request.includeSerials,
          collectedAt,
          lsblkDevice: device,
          hostFacts,
        });
        return { device, context: diskContext, facts };
      } catch (error) {
        if (request.signal?.aborted === true || (isEncplanError(error) && error.code === 'CANCELLED')) {
          throw error;
        }
        return { device, context: diskContext, error };
      }
    },
  );
  const tools = await recordRunTools(context, host);
  const warnings: Warning[] = [...context.warnings];
  const disks: MachineDisk[] = [];
  const summary = [];
  for (const outcome of outcomes) {
    if ('facts' in outcome) {
      const assessment = await finishAssessment(outcome.context, outcome.facts, tools, request.planOptions);
      const status = outcome.context.warnings.length === 0 ? 'ok' : 'partial';
      disks.push({
        device: outcome.device.path,
        status,
        assessment,
        warnings: outcome.context.warnings,
        error: null,
      });
      summary.push(summariseDisk(assessment, status));
    } else {
      const error = toErrorBody(outcome.error);
      disks.push({
        device: outcome.device.path,
        status: 'error',
        assessment: null,
        warnings: outcome.context.warnings,
        error,
      });
      summary.push(summariseFailedDisk(outcome.device.path, outcome.device.sizeBytes, error));
      warnings.push({
        code: isEncplanError(outcome.error) ? warningCodeFor(outcome.error) : 'TOOL_FAILED',
        message: `${outcome.device.path} could not be assessed: ${error.message}`,
        source: outcome.device.path,
      });
    }
  }
  const envelope = machineAssessmentDocument.ok(
    {
      provenance: {
        mode: request.mode,
        collectedAt: collectedAt.toISOString(),
        platform: `${host.platform}${hostFacts.machine === null ? '' : ` ${hostFacts.machine.os.kernel}`}`,
      },
      machine: hostFacts.machine,
      kernelCrypto: hostFacts.kernelCrypto,
      capabilities: hostFacts.capabilities,
      tools,
      machineFindings: machineFindings(
        disks.flatMap((disk) => (disk.assessment === null ? [] : [disk.assessment])),
      ),
      summary,
      disks,
    },
    warnings,
    environment.clock.now(),
  );
  // A disk with warnings (or an error) makes the machine's answer partial, like one disk's own envelope.
  return disks.every((disk) => disk.status === 'ok') ? envelope : { ...envelope, status: 'partial' };
}
