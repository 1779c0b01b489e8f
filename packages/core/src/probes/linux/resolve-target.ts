import { EncplanError } from '../../errors.js';
import { validateDeviceArgument } from '../../domain/target.js';
import type { Host } from '../../ports.js';
import { whyCannotHoldData } from './holds-data.js';
import { readNumber } from './sysfs.js';

/** The whole disk an assessment is about, and how it was chosen. */
export interface ResolvedTarget {
  readonly kernelName: string;
  readonly path: string;
  /** What the user typed, or null when encplan chose the disk holding the working directory. */
  readonly requested: string | null;
  readonly resolvedFrom: 'argument' | 'working-directory' | 'all';
}

const NEEDS_ROOT =
  'Run it as root (sudo). Without root encplan can still read lsblk and sysfs (size, sectors, stack, discard limits), but not partition-table signatures, SMART or LUKS headers.';

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

/** Walks from any block device's sysfs directory down to the whole disk under it. */
async function wholeDiskUnder(host: Host, sysPath: string, seen = new Set<string>()): Promise<string> {
  if (seen.has(sysPath)) {
    throw new EncplanError('INTERNAL_ERROR', `Cycle in the sysfs holder graph at ${sysPath}.`);
  }
  seen.add(sysPath);
  if ((await host.readText(`${sysPath}/partition`)) !== null) {
    return wholeDiskUnder(host, parentOf(sysPath), seen);
  }
  const slaves = (await host.listDir(`${sysPath}/slaves`)) ?? [];
  const first = slaves[0];
  if (first !== undefined) {
    const slavePath = await host.realPath(`/sys/class/block/${first}`);
    if (slavePath !== null) {
      return wholeDiskUnder(host, slavePath, seen);
    }
  }
  return sysPath;
}

/**
 * Turns the user's device argument (or, without one, the working directory) into the whole disk to
 * assess. Throws INVALID_ARGUMENT, DEVICE_NOT_FOUND, DEVICE_UNSUPPORTED or PERMISSION_DENIED with a hint.
 */
export async function resolveTarget(
  host: Host,
  argument: string | null,
  options: { requireReadable: boolean },
): Promise<ResolvedTarget> {
  if (argument === null) {
    const cwd = await host.stat(host.cwd);
    const sysPath = cwd === null ? null : await host.realPath(`/sys/dev/block/${cwd.containingDeviceNumber}`);
    if (sysPath === null) {
      throw new EncplanError(
        'DEVICE_NOT_FOUND',
        `The current directory (${host.cwd}) is not on a block device (tmpfs, overlay or network filesystem).`,
        {
          hint: 'Give the device to assess, e.g. encplan assess /dev/nvme0n1 (lsblk lists them).',
        },
      );
    }
    const kernelName = baseName(await wholeDiskUnder(host, sysPath));
    return checkReadable(
      host,
      { kernelName, path: `/dev/${kernelName}`, requested: null, resolvedFrom: 'working-directory' },
      options,
    );
  }

  const path = validateDeviceArgument(argument);
  const info = await host.stat(path);
  if (info === null) {
    throw new EncplanError('DEVICE_NOT_FOUND', `${path} does not exist.`, {
      hint: 'List block devices with lsblk.',
    });
  }
  switch (info.kind) {
    case 'file':
      throw new EncplanError('DEVICE_UNSUPPORTED', `${path} is a regular file, not a block device.`, {
        hint: 'encplan assesses disks. To attach an image file for testing: losetup --find --show FILE.',
      });
    case 'directory':
      throw new EncplanError('DEVICE_UNSUPPORTED', `${path} is a directory, not a block device.`, {
        hint: 'Run encplan assess without an argument to assess the disk holding the current directory.',
      });
    case 'character-device':
      throw new EncplanError('DEVICE_UNSUPPORTED', `${path} is a character device, not a block device.`, {
        hint: /\/nvme\d+$/.test(path)
          ? `That is an NVMe controller; assess its namespace, e.g. ${path}n1.`
          : 'Give a block device such as /dev/sda (lsblk lists them).',
      });
    case 'other':
      throw new EncplanError('DEVICE_UNSUPPORTED', `${path} is not a block device.`, {
        hint: 'Give a block device such as /dev/sda.',
      });
    case 'block-device':
      break;
  }
  const sysPath =
    info.deviceNumber === null ? null : await host.realPath(`/sys/dev/block/${info.deviceNumber}`);
  if (sysPath === null) {
    throw new EncplanError(
      'DEVICE_NOT_FOUND',
      `${path} is a block device the kernel does not list in /sys (a stale device node?).`,
    );
  }
  const kernelName = baseName(sysPath);
  if ((await host.readText(`${sysPath}/partition`)) !== null) {
    const disk = baseName(parentOf(sysPath));
    throw new EncplanError('DEVICE_UNSUPPORTED', `${path} is a partition; encplan assesses whole disks.`, {
      hint: `Assess the disk it belongs to: encplan assess /dev/${disk}`,
      details: { disk: `/dev/${disk}` },
    });
  }
  if ((await host.listDir(`${sysPath}/slaves`))?.length) {
    const disk = baseName(await wholeDiskUnder(host, sysPath));
    throw new EncplanError(
      'DEVICE_UNSUPPORTED',
      `${path} is a mapped device (${kernelName}) on top of other devices; encplan assesses whole disks.`,
      {
        hint: `Assess the disk underneath: encplan assess /dev/${disk}`,
        details: { disk: `/dev/${disk}` },
      },
    );
  }
  await refuseWithoutData(host, sysPath, kernelName);
  return checkReadable(
    host,
    { kernelName, path: `/dev/${kernelName}`, requested: argument, resolvedFrom: 'argument' },
    options,
  );
}

/**
 * Refuses a device that cannot hold data (holds-data.ts, the rule `assess --all` leaves them out by), from
 * sysfs `size` (512-byte units, whatever the sector size: block/genhd.c) and `ro`. An attribute that cannot be
 * read decides nothing.
 */
async function refuseWithoutData(host: Host, sysPath: string, kernelName: string): Promise<void> {
  const [sectors, readOnly] = await Promise.all([
    readNumber(host, `${sysPath}/size`),
    readNumber(host, `${sysPath}/ro`),
  ]);
  const why = whyCannotHoldData({
    kernelName,
    type: 'disk',
    sizeBytes: sectors === null ? null : sectors * 512,
    readOnly: readOnly === null ? null : readOnly === 1,
  });
  if (why !== null) {
    throw new EncplanError('DEVICE_UNSUPPORTED', why.message, {
      hint: 'encplan plans encryption of disks that hold data; lsblk lists them (encplan assess --all leaves these out).',
      details: { device: `/dev/${kernelName}`, reason: why.reason },
    });
  }
}

async function checkReadable(
  host: Host,
  target: ResolvedTarget,
  options: { requireReadable: boolean },
): Promise<ResolvedTarget> {
  if (options.requireReadable) {
    const info = await host.stat(target.path);
    if (info !== null && !info.readable) {
      throw new EncplanError('PERMISSION_DENIED', `You cannot read ${target.path}.`, {
        hint: NEEDS_ROOT,
        details: { device: target.path },
      });
    }
  }
  return target;
}
