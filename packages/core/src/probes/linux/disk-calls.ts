import type { CommandSpec } from '../../ports.js';

/**
 * The read-only tool calls of one disk's live assessment whose arguments depend only on the disk's path (and,
 * for systemctl, on whether systemd runs as init; for blkid, on the devices lsblk lists). The probes ask them through these functions, and so does the
 * CLI's early start (packages/cli/src/direct.ts, node/process/spawn-tool.ts), which starts them before the
 * core is loaded: one definition of each command line, so that a started call is the very call a probe asks.
 * This module imports nothing at run time: the CLI's `direct.js` loads it without the core.
 */

/** lsblk, sfdisk and blkid answer in well under a second; 15 s covers a loaded machine. */
const LISTING_TIMEOUT_MS = 15_000;
/** `smartctl -x` reads several logs; 60 s covers slow USB bridges (smartctl_exporter uses similar limits). */
const SMARTCTL_TIMEOUT_MS = 60_000;
/** systemctl answers in well under a second; 10 s covers a loaded machine. */
const SYSTEMCTL_TIMEOUT_MS = 10_000;

/** `lsblk --json --bytes -O -- PATH`: the disk and everything stacked on it. */
export function lsblkDiskCall(path: string): CommandSpec {
  return { tool: 'lsblk', args: ['--json', '--bytes', '-O', '--', path], timeoutMs: LISTING_TIMEOUT_MS };
}

/** `sfdisk --json -- PATH`: the partition table. */
export function sfdiskCall(path: string): CommandSpec {
  return { tool: 'sfdisk', args: ['--json', '--', path], timeoutMs: LISTING_TIMEOUT_MS };
}

/**
 * `blkid -p -o export -- DEV…`: the signatures blkid's low-level probe finds on each device (blkid(8): `-p`
 * reads the devices themselves, bypassing and never writing the cache), one KEY=value block per device.
 */
export function blkidSignaturesCall(paths: readonly string[]): CommandSpec {
  return { tool: 'blkid', args: ['-p', '-o', 'export', '--', ...paths], timeoutMs: LISTING_TIMEOUT_MS };
}

/** `smartctl --json=v -x --nocheck=standby [-d TYPE] -- PATH` (smartctl(8)): SMART data, never waking the drive. */
export function smartctlCall(path: string, deviceType: string | null): CommandSpec {
  return {
    tool: 'smartctl',
    args: [
      '--json=v',
      '-x',
      '--nocheck=standby',
      ...(deviceType === null ? [] : ['-d', deviceType]),
      '--',
      path,
    ],
    timeoutMs: SMARTCTL_TIMEOUT_MS,
  };
}

/** sd_booted(3): systemd runs as init when this is a directory (the probe and the early start both ask it). */
export const SYSTEMD_RUNTIME_DIRECTORY = '/run/systemd/system';

/** How `systemctl show` names the state of fstrim.timer (systemd.unit(5), org.freedesktop.systemd1(5)). */
const FSTRIM_SHOW_ARGS = [
  'show',
  'fstrim.timer',
  '--property=LoadState,UnitFileState,LastTriggerUSec',
  '--timestamp=utc',
];

/**
 * The one systemctl call about fstrim.timer: `show` where systemd runs as init (sd_booted(3): /run/systemd/system
 * is a directory), else `is-enabled`, which reads the unit files (discard-stack.ts `readFstrimTimer`).
 */
export function fstrimTimerCall(systemdBooted: boolean): CommandSpec {
  return {
    tool: 'systemctl',
    args: systemdBooted ? FSTRIM_SHOW_ARGS : ['is-enabled', 'fstrim.timer'],
    timeoutMs: SYSTEMCTL_TIMEOUT_MS,
  };
}

/**
 * The calls `assess PATH` makes in the normal case, in the order it asks them: what the early start starts.
 * blkid's arguments are the devices lsblk lists that lack a signature there (inventory.ts): `blkidDevices` is
 * that list when the caller knows it before lsblk answered (early-disk-calls.ts), else null (no blkid).
 */
export function earlyDiskCalls(
  path: string,
  systemdBooted: boolean,
  blkidDevices: readonly string[] | null = null,
): CommandSpec[] {
  return [
    lsblkDiskCall(path),
    sfdiskCall(path),
    smartctlCall(path, null),
    fstrimTimerCall(systemdBooted),
    ...(blkidDevices === null || blkidDevices.length === 0 ? [] : [blkidSignaturesCall(blkidDevices)]),
  ];
}
