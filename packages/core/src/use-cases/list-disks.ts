import { EncplanError } from '../errors.js';
import { parseLsblkJson, type LsblkDevice } from '../parsers/lsblk/parse-lsblk-json.js';
import type { Host } from '../ports.js';
import { SYSTEM_MOUNTPOINTS, transportOf } from '../probes/linux/inventory.js';
import type { DeviceSummary } from './device-list.js';
import { wholeDisksOf } from './assess-all.js';

/** lsblk over every device answers within a second on a desktop; 15 s covers slow USB enumeration. */
const TIMEOUT_MS = 15_000;

function mountpointsBelow(device: LsblkDevice): string[] {
  return [...device.mountpoints, ...device.children.flatMap(mountpointsBelow)];
}

/**
 * Lists the whole disks and attached loop devices of this machine for the wizard's first step, from one
 * `lsblk --json --bytes -O`; those that cannot hold data (an unused zram, a read-only snap loop) are left out
 * as `assess --all` leaves them out. Health is `unknown` here: SMART is
 * read when a drive is assessed.
 */
export async function listDisks(host: Host, signal?: AbortSignal): Promise<{ devices: DeviceSummary[] }> {
  const output = await host.run(
    { tool: 'lsblk', args: ['--json', '--bytes', '-O'], timeoutMs: TIMEOUT_MS },
    signal,
  );
  if (output.exitCode !== 0) {
    throw new EncplanError(
      'TOOL_FAILED',
      `lsblk exited with status ${String(output.exitCode)}: ${output.stderr.trim()}`,
      {
        hint: 'Run `lsblk --json` by hand to see what it reports.',
      },
    );
  }
  const devices = wholeDisksOf(parseLsblkJson(output.stdout));
  return {
    devices: devices.map((device) => ({
      path: device.path,
      model: device.model,
      sizeBytes: device.sizeBytes,
      transport: transportOf(device),
      rotational: device.rotational === true,
      isSystemDisk: mountpointsBelow(device).some((mount) => SYSTEM_MOUNTPOINTS.has(mount)),
      healthVerdict: 'unknown' as const,
    })),
  };
}
