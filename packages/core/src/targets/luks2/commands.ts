import type { PlanCommand } from '../../domain/plan-command.js';
import { appliedOption } from '../command-words.js';
import type {
  ActivationSwitch,
  AppliedSettings,
  CommandReading,
  DiskStep,
  InPlaceCommands,
  OpenVolume,
  TargetCommands,
  VolumeCommandInput,
} from '../target.js';

/** The ids of the commands whose settings are read back by id (the crypttab line; the refresh of an open volume). */
const CRYPTTAB_ENTRY = 'crypttab-entry';
const REFRESH_EXISTING = 'luks-refresh-existing';

/** The activation options of cryptsetup open and refresh (cryptsetup(8)) the plan decides, by the setting each sets. */
const ACTIVATION_OPTIONS: readonly Omit<ActivationSwitch, 'given'>[] = [
  { option: '--allow-discards', setting: 'discards' },
  { option: '--perf-no_read_workqueue', setting: 'workqueue-bypass' },
  { option: '--perf-no_write_workqueue', setting: 'workqueue-bypass' },
];

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
      id: CRYPTTAB_ENTRY,
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
      id: REFRESH_EXISTING,
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
    atBoot: activation.filter((command) => command.id === CRYPTTAB_ENTRY),
  };
}

/** The cipher, key size, sector size and key derivation a luksFormat or reencrypt --encrypt argv applies. */
function volumeSettings(argv: readonly string[]): AppliedSettings {
  return {
    kind: 'volume',
    cipher: appliedOption(argv, '--cipher'),
    keySizeBits: appliedOption(argv, '--key-size'),
    sectorSizeBytes: appliedOption(argv, '--sector-size'),
    kdf: appliedOption(argv, '--pbkdf'),
    kdfMemoryKiB: appliedOption(argv, '--pbkdf-memory'),
    kdfParallel: appliedOption(argv, '--pbkdf-parallel'),
    kdfIterations: appliedOption(argv, '--pbkdf-force-iterations'),
  };
}

/**
 * The discards and workqueue bypass an open, a refresh or the crypttab line applies: cryptsetup(8)
 * --allow-discards and --perf-no_read_workqueue, crypttab(5) discard and no-read-workqueue. A refresh applies
 * only the flags that change, so its workqueue bypass is not read (null).
 */
function activationSettings(command: PlanCommand): AppliedSettings {
  const words = command.id === CRYPTTAB_ENTRY ? (command.stdinText ?? '').split(/[\s,]+/) : command.argv;
  return {
    kind: 'activation',
    discards: words.includes('--allow-discards') || words.includes('discard'),
    workqueueBypass:
      command.id === REFRESH_EXISTING
        ? null
        : words.includes('--perf-no_read_workqueue') || words.includes('no-read-workqueue'),
  };
}

/** The settings a LUKS2 command applies: luksFormat and reencrypt the volume's, open, refresh and crypttab its flags. */
function appliedSettings(command: PlanCommand): AppliedSettings | null {
  const [tool, action] = command.argv;
  if (tool === 'cryptsetup' && (action === 'luksFormat' || action === 'reencrypt')) {
    return volumeSettings(command.argv);
  }
  if (
    (tool === 'cryptsetup' && (action === 'open' || action === 'refresh')) ||
    command.id === CRYPTTAB_ENTRY
  ) {
    return activationSettings(command);
  }
  return null;
}

/** What a cryptsetup line does to the disk: luksFormat and open write it; refresh and reencrypt --encrypt do not. */
function diskStep(argv: readonly string[]): DiskStep | null {
  const [tool, action] = argv;
  if (tool !== 'cryptsetup') {
    return null;
  }
  const switches = ACTIVATION_OPTIONS.map((flag) => ({ ...flag, given: argv.includes(flag.option) }));
  switch (action) {
    case 'luksFormat':
      return { kind: 'format', step: 'luksFormat', device: argv.at(-1), writesDisk: true };
    case 'open':
      return {
        kind: 'open',
        step: 'cryptsetup open',
        device: argv.at(-2),
        mapping: argv.at(-1),
        switches,
        writesDisk: true,
      };
    case 'refresh':
      return { kind: 'refresh', step: 'cryptsetup refresh', mapping: argv[2], switches, writesDisk: false };
    case 'reencrypt':
      return { kind: 'in-place', step: 'cryptsetup reencrypt', writesDisk: false };
    default:
      return { kind: 'unjudged', step: `cryptsetup ${String(action)}`, writesDisk: false };
  }
}

/** Reads a LUKS2 (or LUKS2 on OPAL) command back from its words (TargetCommands.read). */
export function readLuks2Command(command: PlanCommand): CommandReading | null {
  const step = diskStep(command.argv);
  const settings = appliedSettings(command);
  return step === null && settings === null ? null : { step, settings };
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
  read: readLuks2Command,
};
