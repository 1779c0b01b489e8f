import { accessSync, constants as fsConstants, readFileSync, statSync } from 'node:fs';
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
  startEarly(earlyDiskCalls(device, systemdBooted), environment.PATH ?? '');
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
