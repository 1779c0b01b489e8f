import type { PlanCommand } from '../../domain/plan-command.js';
import type { OpenVolume, TargetCommands, VolumeCommandInput } from '../target.js';

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

/** LUKS2's commands: a partition of type 8309 "Linux LUKS" (sgdisk(8) -L), a new volume or a refresh. */
export const luks2Commands: TargetCommands = {
  gptType: '8309',
  partitions: true,
  volume: (input) => luks2VolumeCommands(input),
  refresh: refreshCommands,
};
