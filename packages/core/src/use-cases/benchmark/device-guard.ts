import { baseName } from './paths.js';
import { EncplanError } from '../../errors.js';
import type { Host } from '../../ports.js';
import { parseMountinfo } from '../../parsers/proc/mountinfo.js';

/** How the user confirmed a destructive run: the device name typed back, or `--yes` in scripts. */
export interface DestructiveConfirmation {
  readonly allowDestructive: boolean;
  /** The device name the user typed, or null when `--yes` was given. */
  readonly typedDevice: string | null;
  readonly yes: boolean;
}

function refuse(device: string, reason: string, hint: string): EncplanError {
  return new EncplanError('DESTRUCTIVE_OPERATION_REFUSED', `Refusing to overwrite ${device}: ${reason}`, {
    hint,
    details: { device },
  });
}

/**
 * Checks that a raw block device may be overwritten by the benchmark: `--destructive` given, the name typed back
 * (or `--yes`), and neither the device nor any of its partitions mounted, used as swap, or held by another
 * device (LVM, dm-crypt, RAID: /sys/class/block/<name>/holders). The disk holding `/` is always mounted, so
 * system disks are refused by the same check. Throws DESTRUCTIVE_OPERATION_REFUSED or DEVICE_NOT_FOUND.
 */
export async function assertDeviceMayBeOverwritten(
  host: Host,
  device: string,
  confirmation: DestructiveConfirmation,
): Promise<void> {
  const info = await host.stat(device);
  if (info === null) {
    throw new EncplanError('DEVICE_NOT_FOUND', `${device} does not exist.`, { details: { device } });
  }
  if (info.kind !== 'block-device' || info.deviceNumber === null) {
    throw new EncplanError('INVALID_ARGUMENT', `${device} is not a block device.`, { details: { device } });
  }
  if (!confirmation.allowDestructive) {
    throw refuse(
      device,
      'measuring a raw device erases it.',
      'Add --destructive, or give a directory to measure without erasing anything.',
    );
  }
  const typedOk =
    confirmation.yes || confirmation.typedDevice === device || confirmation.typedDevice === baseName(device);
  if (!typedOk) {
    throw refuse(
      device,
      'the device name was not confirmed.',
      `Type ${device} when asked, or pass --yes in scripts.`,
    );
  }
  const name = baseName((await host.realPath(device)) ?? device);
  const entries = (await host.listDir(`/sys/class/block/${name}`)) ?? [];
  const partitions = entries.filter((entry) => entry.startsWith(name) && entry !== name);
  const deviceNumbers = new Set([info.deviceNumber]);
  for (const partition of partitions) {
    const number = (await host.readText(`/sys/class/block/${partition}/dev`))?.trim();
    if (number !== undefined) {
      deviceNumbers.add(number);
    }
  }
  const mounted = parseMountinfo((await host.readText('/proc/self/mountinfo')) ?? '').filter((entry) =>
    deviceNumbers.has(entry.deviceNumber),
  );
  if (mounted.length > 0) {
    throw refuse(
      device,
      `it is mounted at ${mounted.map((entry) => entry.mountPoint).join(', ')}.`,
      'Unmount it first, and never point encplan at the system disk.',
    );
  }
  for (const block of [name, ...partitions]) {
    const holders = (await host.listDir(`/sys/class/block/${block}/holders`)) ?? [];
    if (holders.length > 0) {
      throw refuse(
        device,
        `${block} is in use by ${holders.join(', ')}.`,
        'Close the mappings, volume groups or arrays that use it first.',
      );
    }
  }
  const swaps = (await host.readText('/proc/swaps')) ?? '';
  const swapDevices = swaps
    .split('\n')
    .slice(1)
    .map((line) => line.split(/\s+/)[0] ?? '');
  const swapHit = swapDevices.find((swap) => [name, ...partitions].some((block) => swap === `/dev/${block}`));
  if (swapHit !== undefined) {
    throw refuse(device, `${swapHit} is active swap.`, 'Run swapoff first.');
  }
}
