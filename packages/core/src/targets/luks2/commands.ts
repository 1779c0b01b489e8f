import type { PlanCommand } from '../../domain/plan-command.js';
import type { InPlaceCommands, OpenVolume, TargetCommands, VolumeCommandInput } from '../target.js';

/** The dm-crypt activation flags the plan decided, as cryptsetup open options and as crypttab options. */
function activationFlags(input: VolumeCommandInput): { open: string[]; crypttab: string[] } {
  return {
    open: [
      ...(input.allowDiscards ? ['--allow-discards'] : []),
      ...(input.workqueueBypass ? ['--perf-no_read_workqueue', '--perf-no_write_workqueue'] : []),
    ],
    crypttab: [
      ...(input.allowDiscards ? ['discard'] : []),
      ...(input.workqueueBypass ? ['no-read-workqueue', 'no-write-workqueue'] : []),
    ],
  };
}

/**
 * luksFormat, open, mkfs.ext4 and the /etc/crypttab line of a new LUKS2 volume (cryptsetup(8), crypttab(5)).
 * `formatArguments` are added to luksFormat (luks2-opal: --hw-opal).
 */
export function luks2VolumeCommands(
  input: VolumeCommandInput,
  formatArguments: readonly string[] = [],
): PlanCommand[] {
  const staged = input.stage === undefined ? {} : { stage: input.stage };
  const pbkdf = input.luks2Pbkdf;
  const iterationArgs = (iterations: number | null, iterTimeMs: number | null): string[] =>
    iterations === null
      ? ['--iter-time', String(iterTimeMs ?? 2000)]
      : ['--pbkdf-force-iterations', String(iterations)];
  // A PBKDF2 keyslot (GRUB opens no other: rules/grub-boot.ts) has no memory or parallel cost
  // (cryptsetup-luksFormat(8): "Memory and parallel costs are unused for PBKDF2").
  const kdfArgs =
    pbkdf === null
      ? []
      : pbkdf.kdf === 'pbkdf2'
        ? ['--pbkdf', 'pbkdf2', ...iterationArgs(pbkdf.iterations, pbkdf.iterTimeMs)]
        : [
            '--pbkdf',
            'argon2id',
            '--pbkdf-memory',
            String(pbkdf.memoryKiB),
            '--pbkdf-parallel',
            String(pbkdf.parallel),
            ...iterationArgs(pbkdf.iterations, pbkdf.iterTimeMs),
          ];
  const flags = activationFlags(input);
  const crypttabOptions = ['luks', ...flags.crypttab].join(',');
  const target = input.volumePath;
  const mapped = `/dev/mapper/${input.mappingName}`;
  const crypttabLine = `${input.mappingName} UUID=${input.volumeUuid} none ${crypttabOptions}`;
  return [
    {
      id: 'luks-format',
      purpose: `Create the LUKS2 header on ${target} with the planned cipher, sector size and key derivation, and the UUID the crypttab line names (asks for the passphrase twice; cryptsetup lowers --pbkdf-parallel to the CPUs online where it runs).`,
      argv: [
        'cryptsetup',
        'luksFormat',
        '--type',
        'luks2',
        ...formatArguments,
        '--cipher',
        input.cipherSpec,
        '--key-size',
        String(input.keyBits),
        ...(input.sectorSizeBytes === null ? [] : ['--sector-size', String(input.sectorSizeBytes)]),
        ...kdfArgs,
        '--label',
        input.label,
        '--uuid',
        input.volumeUuid,
        target,
      ],
      risk: 'destroys-data',
      stdin: 'passphrase',
      ...staged,
    },
    {
      id: 'luks-open',
      purpose:
        flags.open.length === 0
          ? 'Open the new volume.'
          : `Open the new volume with ${flags.open.join(' ')} and store them in the header (--persistent), so every later open uses them.`,
      argv: [
        'cryptsetup',
        'open',
        '--type',
        'luks2',
        ...flags.open,
        ...(flags.open.length === 0 ? [] : ['--persistent']),
        target,
        input.mappingName,
      ],
      risk: 'changes-settings',
      stdin: 'passphrase',
      ...staged,
    },
    {
      id: 'mkfs',
      purpose: `Make an ext4 filesystem on the opened volume ${mapped}.`,
      argv: ['mkfs.ext4', '-L', input.label, mapped],
      risk: 'destroys-data',
      stdin: null,
      ...staged,
    },
    {
      id: 'crypttab-entry',
      purpose: `Append "${crypttabLine}" to /etc/crypttab so the volume opens at boot (run once: a second run adds the line again).`,
      argv: ['tee', '-a', '/etc/crypttab'],
      risk: 'changes-settings',
      stdin: 'text',
      stdinText: `${crypttabLine}\n`,
      ...staged,
    },
  ];
}

/** cryptsetup refresh of an open LUKS volume with the planned activation flags (cryptsetup(8) refresh). */
function refreshCommands(input: VolumeCommandInput, open: OpenVolume): PlanCommand[] {
  const flags = activationFlags(input).open;
  if (flags.length === 0) {
    return [];
  }
  // Only LUKS2 headers can store activation flags (cryptsetup(8) refresh --persistent).
  const persistent = open.storesActivationFlags;
  return [
    {
      id: 'luks-refresh-existing',
      purpose: `Apply ${flags.join(' ')} to the open mapping "${open.mappingName}" now${persistent ? ' and store them in its LUKS2 header' : ' (LUKS1 cannot store them: add them to /etc/crypttab too)'}.`,
      argv: ['cryptsetup', 'refresh', open.mappingName, ...flags, ...(persistent ? ['--persistent'] : [])],
      risk: 'changes-settings',
      stdin: 'passphrase',
    },
  ];
}

/**
 * `cryptsetup reencrypt --encrypt --reduce-device-size` of the filesystem at `input.volumePath` with the plan's
 * cipher, key size, sector size and key derivation: the luksFormat argv of the fresh path, so both paths agree
 * (cryptsetup-reencrypt(8)); then the same open and crypttab line as a new volume's.
 */
function inPlaceCommands(input: VolumeCommandInput, reduction: string): InPlaceCommands | null {
  const [format, ...activation] = luks2VolumeCommands(input);
  if (format === undefined) {
    return null;
  }
  const path = input.volumePath;
  return {
    // luksFormat --type luks2 --cipher … --label L TARGET → reencrypt --encrypt --type luks2 … --label L TARGET.
    encrypt: {
      id: 'in-place-reencrypt',
      purpose: `Encrypt ${path} in place: the data shift by the ${reduction}iB reduction, the LUKS2 header goes in front (asks for the new passphrase; after an interruption, cryptsetup repair then cryptsetup reencrypt --resume-only DEVICE continues it: cryptsetup-reencrypt(8)).`,
      argv: [
        'cryptsetup',
        'reencrypt',
        '--encrypt',
        ...format.argv.slice(2, -1),
        '--reduce-device-size',
        reduction,
        path,
      ],
      risk: 'destroys-data',
      stdin: 'passphrase',
    },
    open: activation.filter((command) => command.id === 'luks-open'),
    atBoot: activation.filter((command) => command.id === 'crypttab-entry'),
  };
}

/**
 * LUKS2's commands: a partition of type 8309 "Linux LUKS" (sgdisk(8) -L), a new volume, a refresh or the
 * encryption of a filesystem in place.
 */
export const luks2Commands: TargetCommands = {
  gptType: '8309',
  partitions: true,
  volume: (input) => luks2VolumeCommands(input),
  refresh: refreshCommands,
  inPlace: inPlaceCommands,
};
