import type { PlanCommand } from '../../domain/plan-command.js';
import { MIB } from '../../domain/units.js';
import { appliedOption } from '../command-words.js';
import { powershell } from '../windows-commands.js';
import type { CommandReading, TargetCommands, VolumeCommandInput } from '../target.js';

/** The id of the command that creates a VeraCrypt volume, on Linux and macOS (veracrypt -c) and on Windows. */
const CREATE = 'veracrypt-create';

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
      id: CREATE,
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

/**
 * Reads a VeraCrypt command back from its words (TargetCommands.read): `veracrypt -c` formats the device it ends
 * with, any other `veracrypt` line is no step the checks can judge (every one writes the disk); the create line
 * applies its PIM and hash (`--pim=N --hash=H`, or Format.exe's `/pim N /hash H` on Windows).
 */
function readVeracryptCommand(command: PlanCommand): CommandReading | null {
  const { argv } = command;
  const step: CommandReading['step'] =
    argv[0] !== 'veracrypt'
      ? null
      : argv.includes('-c')
        ? { kind: 'format', step: 'veracrypt -c', device: argv.at(-1), writesDisk: true }
        : { kind: 'unjudged', step: `veracrypt ${argv.slice(1).join(' ')}`, writesDisk: true };
  const windows = argv.includes('/create');
  const settings: CommandReading['settings'] =
    command.id === CREATE
      ? {
          kind: 'pim-and-hash',
          pim: appliedOption(argv, windows ? '/pim' : '--pim').value,
          hash: appliedOption(argv, windows ? '/hash' : '--hash').value,
        }
      : null;
  return step === null && settings === null ? null : { step, settings };
}

/** VeraCrypt's commands: a partition of type 8300 "Linux filesystem" (sgdisk(8) -L) holding the volume. */
export const veracryptCommands: TargetCommands = {
  gptType: '8300',
  partitions: true,
  volume: veracryptVolumeCommands,
  read: readVeracryptCommand,
};

/** Where VeraCrypt installs its volume creation program (VeraCrypt documentation, "Command Line Usage for Windows"). */
const VERACRYPT_FORMAT_EXE = 'C:\\Program Files\\VeraCrypt\\VeraCrypt Format.exe';

/** VeraCrypt Format.exe's /encryption name: a cascade nests in parentheses ("AES-Twofish-Serpent" → "AES(Twofish(Serpent))"). */
function windowsEncryptionName(encryption: string): string {
  const [first, ...rest] = encryption.split('-');
  return rest.length === 0
    ? (first ?? encryption)
    : `${first ?? ''}(${windowsEncryptionName(rest.join('-'))})`;
}

/**
 * The largest share of its volume a dynamic container may grow to: half. The assessment knows the volume's
 * size, not its free space, and a dynamic container that fills the system volume stops Windows; half always
 * leaves the other half to what is there (encplan's policy, stated in the command's purpose).
 */
const CONTAINER_VOLUME_SHARE = 0.5;

/**
 * A VeraCrypt file container in VeraCrypt's Windows syntax. `/create` makes file containers only (partitions,
 * drives and the system are encrypted in the wizard); `/dynamic` makes it grow as it fills, up to `/size`
 * (VeraCrypt documentation, "Command Line Usage for Windows"). Its only password switch, /password, would put
 * the password into the command line: encplan leaves it out.
 */
export function veracryptWindowsCommands(
  mountPoint: string | null,
  settings: NonNullable<VolumeCommandInput['veracrypt']>,
  label: string,
  sizeBytes: number | null,
): PlanCommand[] {
  if (mountPoint === null || sizeBytes === null) {
    return [];
  }
  // /size in whole MiB (VeraCrypt Format.exe takes a number with a K/M/G/T suffix: "Command Line Usage for Windows").
  const containerMiB = Math.floor((sizeBytes * CONTAINER_VOLUME_SHARE) / MIB);
  if (containerMiB < 1) {
    return [];
  }
  return [
    powershell({
      id: CREATE,
      purpose: `Create a dynamic VeraCrypt file container on ${mountPoint} with ${settings.encryption}, ${settings.kdf.hash} and the planned PIM ${String(settings.kdf.pim)} (/pim: VeraCrypt Format.exe reads it, src/Format/Tcformat.c; the same PIM is needed to mount it). It grows as it fills, up to ${String(containerMiB)} MiB, half of ${mountPoint}, so it can never fill the volume: change /size to what you need and what is free there. VeraCrypt Format.exe takes a password only as /password on its command line, where shell history and the process list would keep it: encplan leaves it out. Add it only in a session that saves no history, or create the same container in the VeraCrypt Volume Creation Wizard.`,
      argv: [
        VERACRYPT_FORMAT_EXE,
        '/create',
        `${mountPoint}\\${label}.hc`,
        '/size',
        `${String(containerMiB)}M`,
        '/dynamic',
        '/encryption',
        windowsEncryptionName(settings.encryption),
        '/hash',
        settings.kdf.hash,
        '/pim',
        String(settings.kdf.pim),
        '/filesystem',
        'NTFS',
      ],
      risk: 'changes-settings',
      stdin: null,
    }),
  ];
}
