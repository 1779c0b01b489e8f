import type { PlanCommand } from '../../domain/plan-command.js';
import type { TargetCommands, VolumeCommandInput } from '../target.js';

/** The filesystem VeraCrypt formats the volume with: one the platform reads natively. */
const FILESYSTEM: Readonly<Record<VolumeCommandInput['platform'], string>> = {
  linux: 'ext4',
  darwin: 'exfat',
  win32: 'ntfs',
};

/**
 * `veracrypt -t -c` of a new volume with the planned algorithm, hash and PIM (VeraCrypt documentation,
 * "Command Line Usage"); the passphrase is read from stdin. Nothing when the rules decided no VeraCrypt settings.
 */
function veracryptVolumeCommands(input: VolumeCommandInput): PlanCommand[] {
  if (input.veracrypt === null) {
    return [];
  }
  return [
    {
      id: 'veracrypt-create',
      purpose: 'Create the VeraCrypt volume; the passphrase is read from stdin (--stdin), never from argv.',
      argv: [
        'veracrypt',
        '-t',
        '-c',
        '--volume-type=normal',
        `--encryption=${input.veracrypt.encryption}`,
        `--hash=${input.veracrypt.kdf.hash}`,
        `--pim=${String(input.veracrypt.kdf.pim)}`,
        `--filesystem=${FILESYSTEM[input.platform]}`,
        '-k',
        '',
        '--random-source=/dev/urandom',
        '--non-interactive',
        '--stdin',
        input.volumePath,
      ],
      risk: 'destroys-data',
      stdin: 'passphrase',
      ...(input.stage === undefined ? {} : { stage: input.stage }),
    },
  ];
}

/** VeraCrypt's commands: a partition of type 8300 "Linux filesystem" (sgdisk(8) -L) holding the volume. */
export const veracryptCommands: TargetCommands = {
  gptType: '8300',
  partitions: true,
  volume: veracryptVolumeCommands,
};
