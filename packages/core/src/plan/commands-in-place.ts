import { MIB } from '../domain/units.js';
import type { PlanFacts } from '../rules/facts.js';
import type { ResolvedPlanOptions } from '../rules/plan-options.js';
import { IN_PLACE_REDUCTION_BYTES, type Strategy } from '../rules/strategy.js';
import { inPlaceVolumeCommands, type CommandSettings, type PlanCommand } from './commands.js';

/** Where a btrfs filesystem that is not mounted is mounted to shrink it (btrfs shrinks only while mounted). */
export const BTRFS_SHRINK_MOUNTPOINT = '/run/encplan-shrink';

/** --reduce-device-size as cryptsetup takes it: 32M (cryptsetup-reencrypt(8), "--reduce-device-size 32M"). */
const REDUCTION_ARG = `${String(IN_PLACE_REDUCTION_BYTES / MIB)}M`;

/**
 * The filesystem shrink that frees the header's room at the end of `path` (ext2/3/4 offline, btrfs mounted);
 * `encryptId` is the target's in-place encryption command, which an unmount prepares when nothing is shrunk.
 */
function shrinkCommands(target: NonNullable<Strategy['target']>, encryptId: string): PlanCommand[] {
  const path = target.path;
  const size = target.sizeBytes;
  const mounted = target.mountpoints.filter((mountpoint) => mountpoint !== '/');
  if (target.filesystemType === 'btrfs') {
    const mountpoint = mounted[0] ?? BTRFS_SHRINK_MOUNTPOINT;
    const mount: PlanCommand[] =
      mounted.length > 0
        ? []
        : [
            {
              id: 'in-place-mount',
              purpose: `Mount the btrfs filesystem at ${BTRFS_SHRINK_MOUNTPOINT}: btrfs shrinks only while mounted (btrfs-filesystem(8) resize).`,
              argv: [
                'sh',
                '-c',
                'mkdir -p -- "$1" && mount -- "$2" "$1"',
                'sh',
                BTRFS_SHRINK_MOUNTPOINT,
                path,
              ],
              risk: 'changes-settings',
              stdin: null,
            },
          ];
    return [
      ...mount,
      {
        id: 'in-place-shrink',
        purpose: `Shrink the btrfs filesystem by ${REDUCTION_ARG}iB to free room for the LUKS2 header at the end.`,
        argv: ['btrfs', 'filesystem', 'resize', `-${REDUCTION_ARG.toLowerCase()}`, mountpoint],
        risk: 'destroys-data',
        stdin: null,
      },
      {
        id: 'in-place-unmount',
        purpose: 'Unmount the filesystem: reencrypt --encrypt works on an unused device only.',
        argv: ['umount', mountpoint],
        risk: 'changes-settings',
        stdin: null,
      },
    ];
  }
  const unmount = (prepares: string): PlanCommand[] =>
    mounted.map((mountpoint) => ({
      id: 'in-place-unmount',
      purpose: `Unmount ${mountpoint}: ext4 shrinks only while unmounted (resize2fs(8)) and reencrypt --encrypt needs an unused device.`,
      argv: ['umount', mountpoint],
      risk: 'changes-settings',
      stdin: null,
      prepares,
    }));
  if (size === null) {
    return unmount(encryptId);
  }
  // The new size ends on a 1 MiB boundary at least the reduction before the end of the device.
  const newSizeBytes = Math.floor((size - IN_PLACE_REDUCTION_BYTES) / MIB) * MIB;
  return [
    ...unmount('in-place-shrink'),
    {
      id: 'in-place-fsck',
      purpose:
        'Check the filesystem first: resize2fs refuses to shrink a filesystem not checked since its last mount (resize2fs(8): "Please run e2fsck -f first"); -p repairs only what is safe without questions.',
      argv: ['e2fsck', '-f', '-p', path],
      risk: 'changes-settings',
      stdin: null,
      prepares: 'in-place-shrink',
    },
    {
      id: 'in-place-shrink',
      purpose: `Shrink the filesystem to ${String(newSizeBytes / MIB)} MiB, at least ${REDUCTION_ARG}iB short of the device end, to free room for the LUKS2 header (refuses if the data do not fit).`,
      argv: ['resize2fs', path, `${String(newSizeBytes / 1024)}K`],
      risk: 'destroys-data',
      stdin: null,
    },
  ];
}

/**
 * The encryption sector the in-place commands use: the planned one, or 512 bytes when the filesystem's size is
 * no multiple of it (cryptsetup refuses a sector size the device size is not a multiple of: "Device size is not
 * aligned to requested sector size").
 */
export function inPlaceSectorSize(strategy: Strategy, planned: number | null): number | null {
  const size = strategy.target?.sizeBytes ?? null;
  return planned !== null && size !== null && size % planned !== 0 ? 512 : planned;
}

/**
 * The in-place command set for a strategy of kind `in-place`: shrink the filesystem, the planned target's
 * in-place encryption (LUKS2: `cryptsetup reencrypt --encrypt --reduce-device-size 32M` with the plan's cipher,
 * key size, sector size and key derivation, targets/luks2/commands.ts), then open the volume, grow the filesystem
 * into it and add the line that opens it at boot. For the running root (strategy.offline) the crypttab line
 * belongs to the installed system and is a manual step in the chroot (strategy.steps), so it is not a command
 * here.
 */
export function buildInPlaceCommands(
  strategy: Strategy,
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
): PlanCommand[] {
  const target = strategy.target;
  if (strategy.kind !== 'in-place' || target === null || target.sizeBytes === null) {
    return [];
  }
  const sectorSizeBytes = inPlaceSectorSize(strategy, settings.sectorSizeBytes);
  const steps = inPlaceVolumeCommands(
    facts,
    options,
    { ...settings, sectorSizeBytes },
    target.path,
    REDUCTION_ARG,
  );
  if (steps === null) {
    return [];
  }
  const grow: PlanCommand[] =
    target.filesystemType === 'btrfs'
      ? []
      : [
          {
            id: 'in-place-grow',
            purpose:
              'Grow the filesystem to fill the opened volume (resize2fs without a size uses the whole device).',
            argv: ['resize2fs', `/dev/mapper/${options.mappingName}`],
            risk: 'changes-settings',
            stdin: null,
          },
        ];
  return [
    ...shrinkCommands(target, steps.encrypt.id),
    steps.encrypt,
    ...steps.open,
    ...grow,
    ...(strategy.offline ? [] : steps.atBoot),
  ];
}
