import { accessSync, constants as fsConstants, readdirSync, readFileSync, statSync } from 'node:fs';
import { earlyDiskCalls, SYSTEMD_RUNTIME_DIRECTORY } from '../probes/linux/disk-calls.js';
import { startEarly } from './process/spawn-tool.js';

/**
 * `assess DEVICE` on Linux (issue 28): the disk's first read-only calls (probes/linux/disk-calls.ts) start
 * before the CLI imports the core, so that they fork from a small process and run on another core while Node
 * loads and compiles the core; the runner hands each to the probe that asks it (process/spawn-tool.ts). Only in
 * the normal case, where the assessment surely asks them: DEVICE is `/dev/NAME` of a whole disk the kernel
 * lists in /sys/block (so the probes' path, `/dev/KERNEL-NAME`, is DEVICE itself), not empty (an unbound loop
 * device is refused before any call), a block device this user may read. Anything else starts nothing and the
 * probes start their calls as before.
 */
export function startEarlyDiskCalls(device: string, environment: NodeJS.ProcessEnv): void {
  const name = /^\/dev\/([A-Za-z0-9][A-Za-z0-9._-]*)$/.exec(device)?.[1];
  if (process.platform !== 'linux' || name === undefined || !wholeReadableDisk(device, name)) {
    return;
  }
  // As discard-stack.ts `readFstrimTimer` decides between `show` and `is-enabled`.
  const systemdBooted =
    statSync(SYSTEMD_RUNTIME_DIRECTORY, { throwIfNoEntry: false })?.isDirectory() === true;
  startEarly(earlyDiskCalls(device, systemdBooted, blkidDevices(name)), environment.PATH ?? '');
}

/** A block device this user may read, a whole disk (/sys/block/NAME) that is not empty (resolve-target.ts). */
function wholeReadableDisk(device: string, name: string): boolean {
  try {
    accessSync(device, fsConstants.R_OK);
    return statSync(device).isBlockDevice() && readFileSync(`/sys/block/${name}/size`, 'utf8').trim() !== '0';
  } catch {
    return false;
  }
}

/** Where sysfs and udev's database are; tests give a copy of their own. */
export interface EarlyRoots {
  readonly sys: string;
  readonly udevData: string;
}

const SYSTEM_ROOTS: EarlyRoots = { sys: '/sys', udevData: '/run/udev/data' };

/**
 * The devices the inventory will ask blkid about (probes/linux/inventory.ts: every device lsblk lists for the
 * disk without a filesystem or a partition-table type), when they can be known before lsblk answers; else
 * null, and blkid is asked once lsblk has answered, as before. Known when:
 * - nothing is stacked on the disk or a partition (each `holders` folder is empty): lsblk then lists the disk
 *   and its partitions (the entries of its sysfs folder with a `partition` file, lsblk.c `process_partitions`);
 * - udev has no record of any of them (no /run/udev/data/bMAJOR:MINOR, the devices' `dev`): lsblk reads the
 *   types from that record only (util-linux misc-utils/lsblk-properties.c `get_properties_by_udev`, through
 *   libudev), so without one it has none, and every device is asked (containers, hosts without udev).
 * The order is lsblk's: the disk, then its partitions sorted by device number (lsblk.c `main` sorts by MAJ:MIN
 * unless told otherwise, "because /sys is no more sorted" since Linux 4.8, on glibc's `makedev(maj, min)`).
 * A wrong guess costs one process, never a wrong answer: the runner only hands over a call with the very same
 * arguments, and the early start kills and reaps any other.
 */
export function blkidDevices(name: string, roots: EarlyRoots = SYSTEM_ROOTS): string[] | null {
  try {
    const disk = `${roots.sys}/block/${name}`;
    const partitions = readdirSync(disk).filter(
      (entry) => entry.startsWith(name) && statSync(`${disk}/${entry}/partition`, { throwIfNoEntry: false }),
    );
    const devices = [name, ...partitions].map((device) => {
      const folder = device === name ? disk : `${disk}/${device}`;
      const [major = '', minor = ''] = readFileSync(`${folder}/dev`, 'utf8').trim().split(':');
      const udevRecord = statSync(`${roots.udevData}/b${major}:${minor}`, { throwIfNoEntry: false });
      const stacked = readdirSync(`${folder}/holders`).length > 0;
      return {
        path: `/dev/${device}`,
        order: makedev(Number(major), Number(minor)),
        known: !stacked && !udevRecord,
      };
    });
    const [whole, ...rest] = devices;
    if (whole === undefined || devices.some((device) => !device.known)) {
      return null;
    }
    rest.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
    return [whole, ...rest].map((device) => device.path);
  } catch {
    return null;
  }
}

/** glibc's `makedev` (sys/sysmacros.h): the 64-bit device number lsblk sorts on. */
function makedev(major: number, minor: number): bigint {
  const [high, low] = [BigInt(major), BigInt(minor)];
  return (
    ((high & 0xfffff000n) << 32n) | ((high & 0xfffn) << 8n) | ((low & 0xffffff00n) << 12n) | (low & 0xffn)
  );
}
