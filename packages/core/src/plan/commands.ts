import { z } from 'zod';
import { MIB } from '../domain/units.js';
import type { LuksCipherSpec, VeracryptEncryption } from '../rules/cipher.js';
import type { Luks2Pbkdf, VeracryptKdf } from '../rules/key-derivation.js';
import {
  existingEncryptionOf,
  lastPartitionEndSectorOf,
  osOf,
  plansForLinux,
  type PlanFacts,
} from '../rules/facts.js';
import type { SpacePlan } from '../rules/space.js';
import type { ResolvedPlanOptions, TargetTool } from '../rules/plan-options.js';
import { renderShellCommand } from './shell-quote.js';

/** What running a command does to the machine. `destroys-data` is never run or uncommented by default. */
export const commandRiskSchema = z.enum(['read-only', 'changes-settings', 'destroys-data']);

/** One command of the plan: an argv array (never a string), what it is for, and how risky it is. */
export const planCommandSchema = z.object({
  /** Stable kebab-case id: "luks-format", "blkdiscard-tail", … */
  id: z.string(),
  purpose: z.string(),
  argv: z.array(z.string()).min(1),
  risk: commandRiskSchema,
  /** What the command reads on stdin (typed by the user at the prompt); never put in argv. */
  stdin: z.enum(['passphrase']).nullable(),
});
/** A validated {@link planCommandSchema} value. */
export type PlanCommand = z.infer<typeof planCommandSchema>;

/** The settings the commands apply, as decided by the rules. */
export interface CommandSettings {
  readonly targetTool: TargetTool;
  readonly devicePath: string;
  readonly cipherSpec: LuksCipherSpec;
  readonly keyBits: number;
  readonly sectorSizeBytes: number | null;
  readonly luks2Pbkdf: Luks2Pbkdf | null;
  readonly workqueueBypass: boolean;
  readonly allowDiscards: boolean;
  readonly space: SpacePlan | null;
  readonly veracrypt: { readonly encryption: VeracryptEncryption; readonly kdf: VeracryptKdf } | null;
}

/** sgdisk GPT type codes: 8309 "Linux LUKS", 8300 "Linux filesystem" (for VeraCrypt, which has none of its own). */
const SGDISK_TYPE: Readonly<Record<TargetTool, string>> = { luks2: '8309', veracrypt: '8300', apfs: 'af0a' };

/** GPT's backup header and entry array after the last usable LBA (UEFI spec §5.3). */
const GPT_BACKUP_SECTORS = 34;

/** The partition path the plan creates: by GPT partition name, stable across reboots and device renames. */
export function partitionPathFor(label: string): string {
  return `/dev/disk/by-partlabel/${label}`;
}

function layoutCommands(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
): PlanCommand[] {
  const space = settings.space;
  if (space === null || space.partitionEndSector === null) {
    return [];
  }
  const sector = space.logicalSectorBytes;
  const lastEnd = lastPartitionEndSectorOf(facts);
  const fresh = facts.disk?.partitionTable === 'none';
  if (!fresh && (lastEnd === null || facts.disk?.partitionTable !== 'gpt')) {
    // Unknown partition ends, or an MBR disk (sgdisk would convert it to GPT): no exact layout command exists.
    return [];
  }
  // New partitions start on the next 1 MiB boundary (sgdisk's default alignment).
  const startSector =
    lastEnd === null ? MIB / sector : (Math.ceil(((lastEnd + 1) * sector) / MIB) * MIB) / sector;
  const commands: PlanCommand[] = [];
  if (space.method === 'hpa') {
    // The visible end keeps the partition plus GPT's 34-sector backup area; the rest is hidden (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
    const visibleSectors = space.partitionEndSector + 1 + GPT_BACKUP_SECTORS;
    commands.push({
      id: 'hpa-set',
      purpose: `Hide everything after sector ${String(visibleSectors - 1)} in a permanent Host Protected Area, then power-cycle the drive before partitioning.`,
      argv: [
        'hdparm',
        '-N',
        `p${String(visibleSectors)}`,
        '--yes-i-know-what-i-am-doing',
        settings.devicePath,
      ],
      risk: 'destroys-data',
      stdin: null,
    });
  }
  commands.push({
    id: 'partition-layout',
    purpose: fresh
      ? `Write a new GPT with one partition ending at sector ${String(space.partitionEndSector)}, leaving the tail unallocated.`
      : `Add a partition in the free space, ending at sector ${String(space.partitionEndSector)} and leaving the tail unallocated.`,
    argv: [
      'sgdisk',
      ...(fresh ? ['--clear'] : []),
      `--new=0:${String(startSector)}:${String(space.partitionEndSector)}`,
      `--typecode=0:${SGDISK_TYPE[settings.targetTool]}`,
      `--change-name=0:${options.label}`,
      settings.devicePath,
    ],
    risk: fresh ? 'destroys-data' : 'changes-settings',
    stdin: null,
  });
  if (space.discardRange !== null) {
    commands.push({
      id: 'blkdiscard-tail',
      purpose:
        'Discard the unallocated tail once so the drive can use it as spare area (its contents are lost).',
      argv: [
        'blkdiscard',
        '--offset',
        String(space.discardRange.offsetBytes),
        '--length',
        String(space.discardRange.lengthBytes),
        settings.devicePath,
      ],
      risk: 'destroys-data',
      stdin: null,
    });
  }
  return commands;
}

function luks2Commands(
  options: ResolvedPlanOptions,
  settings: CommandSettings,
  target: string,
): PlanCommand[] {
  const pbkdf = settings.luks2Pbkdf;
  const kdfArgs =
    pbkdf === null
      ? []
      : [
          '--pbkdf',
          'argon2id',
          '--pbkdf-memory',
          String(pbkdf.memoryKiB),
          '--pbkdf-parallel',
          String(pbkdf.parallel),
          ...(pbkdf.iterations === null
            ? ['--iter-time', String(pbkdf.iterTimeMs ?? 2000)]
            : ['--pbkdf-force-iterations', String(pbkdf.iterations)]),
        ];
  const flags = [
    ...(settings.allowDiscards ? ['--allow-discards'] : []),
    ...(settings.workqueueBypass ? ['--perf-no_read_workqueue', '--perf-no_write_workqueue'] : []),
  ];
  const crypttabOptions = [
    'luks',
    ...(settings.allowDiscards ? ['discard'] : []),
    ...(settings.workqueueBypass ? ['no-read-workqueue', 'no-write-workqueue'] : []),
  ].join(',');
  return [
    {
      id: 'luks-format',
      purpose:
        'Create the LUKS2 header with the planned cipher, sector size and key derivation (asks for the passphrase twice; cryptsetup lowers --pbkdf-parallel to the CPUs online where it runs).',
      argv: [
        'cryptsetup',
        'luksFormat',
        '--type',
        'luks2',
        '--cipher',
        settings.cipherSpec,
        '--key-size',
        String(settings.keyBits),
        ...(settings.sectorSizeBytes === null ? [] : ['--sector-size', String(settings.sectorSizeBytes)]),
        ...kdfArgs,
        '--label',
        options.label,
        target,
      ],
      risk: 'destroys-data',
      stdin: 'passphrase',
    },
    {
      id: 'luks-open',
      purpose:
        flags.length === 0
          ? 'Open the new volume.'
          : 'Open the new volume and store the discard/performance flags in the header (--persistent), so every later open uses them.',
      argv: [
        'cryptsetup',
        'open',
        ...flags,
        ...(flags.length === 0 ? [] : ['--persistent']),
        target,
        options.mappingName,
      ],
      risk: 'changes-settings',
      stdin: 'passphrase',
    },
    {
      id: 'crypttab-entry',
      purpose: `Append "${options.mappingName} UUID=<uuid> none ${crypttabOptions}" to /etc/crypttab so the volume opens at boot.`,
      argv: [
        'sh',
        '-c',
        'printf \'%s UUID=%s none %s\\n\' "$1" "$(blkid -s UUID -o value -- "$2")" "$3" >> /etc/crypttab',
        'sh',
        options.mappingName,
        target,
        crypttabOptions,
      ],
      risk: 'changes-settings',
      stdin: null,
    },
  ];
}

function refreshCommand(facts: PlanFacts, settings: CommandSettings): PlanCommand[] {
  const existing = existingEncryptionOf(facts);
  if (
    existing === null ||
    existing.mappingName === null ||
    (existing.kind !== 'luks1' && existing.kind !== 'luks2')
  ) {
    return [];
  }
  const flags = [
    ...(settings.allowDiscards ? ['--allow-discards'] : []),
    ...(settings.workqueueBypass ? ['--perf-no_read_workqueue', '--perf-no_write_workqueue'] : []),
  ];
  if (flags.length === 0) {
    return [];
  }
  // Only LUKS2 headers can store activation flags (--persistent, cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc).
  const persistent = existing.kind === 'luks2';
  return [
    {
      id: 'luks-refresh-existing',
      purpose: `Apply ${flags.join(' ')} to the open mapping "${existing.mappingName}" now${persistent ? ' and store them in its LUKS2 header' : ' (LUKS1 cannot store them: add them to /etc/crypttab too)'}.`,
      argv: [
        'cryptsetup',
        'refresh',
        existing.mappingName,
        ...flags,
        ...(persistent ? ['--persistent'] : []),
      ],
      risk: 'changes-settings',
      stdin: 'passphrase',
    },
  ];
}

function veracryptCommand(facts: PlanFacts, settings: CommandSettings): PlanCommand[] {
  if (settings.veracrypt === null) {
    return [];
  }
  const filesystem = plansForLinux(facts) ? 'ext4' : osOf(facts) === 'darwin' ? 'exfat' : 'ntfs';
  return [
    {
      id: 'veracrypt-create',
      purpose: 'Create the VeraCrypt volume; the passphrase is read from stdin (--stdin), never from argv.',
      argv: [
        'veracrypt',
        '-t',
        '-c',
        '--volume-type=normal',
        `--encryption=${settings.veracrypt.encryption}`,
        `--hash=${settings.veracrypt.kdf.hash}`,
        `--pim=${String(settings.veracrypt.kdf.pim)}`,
        `--filesystem=${filesystem}`,
        '-k',
        '',
        '--random-source=/dev/urandom',
        '--non-interactive',
        '--stdin',
        settings.devicePath,
      ],
      risk: 'destroys-data',
      stdin: 'passphrase',
    },
  ];
}

function apfsCommand(options: ResolvedPlanOptions, settings: CommandSettings): PlanCommand[] {
  return [
    {
      id: 'apfs-add-volume',
      purpose:
        'Add an encrypted APFS volume to the container; diskutil prompts for the passphrase (-passprompt).',
      argv: ['diskutil', 'apfs', 'addVolume', settings.devicePath, 'APFS', options.label, '-passprompt'],
      risk: 'changes-settings',
      stdin: 'passphrase',
    },
  ];
}

/**
 * What to encrypt: the partition the layout creates, else the device as given when it holds no partition
 * table (or stands in for one); null when the disk has partitions the plan cannot extend.
 */
function encryptionTarget(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
  layout: readonly PlanCommand[],
): string | null {
  if (layout.some((command) => command.id === 'partition-layout')) {
    return partitionPathFor(options.label);
  }
  const table = facts.disk?.partitionTable;
  return table === 'none' || table === undefined || facts.disk?.path === undefined
    ? settings.devicePath
    : null;
}

/** The exact commands that apply the plan, in order. Building them executes nothing. */
export function buildCommands(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
): PlanCommand[] {
  if (settings.targetTool === 'apfs') {
    return apfsCommand(options, settings);
  }
  // An open LUKS volume is tuned in place, never reformatted by the plan.
  const existing = existingEncryptionOf(facts);
  const existingLuks = existing?.kind === 'luks1' || existing?.kind === 'luks2';
  if (settings.targetTool === 'luks2' && existingLuks && (existing?.mappingName ?? null) !== null) {
    return refreshCommand(facts, settings);
  }
  const layout = plansForLinux(facts) ? layoutCommands(facts, options, settings) : [];
  const target = encryptionTarget(facts, options, settings, layout);
  if (target === null) {
    return layout;
  }
  if (settings.targetTool === 'veracrypt') {
    return [...layout, ...veracryptCommand(facts, { ...settings, devicePath: target })];
  }
  return [...layout, ...luks2Commands(options, settings, target)];
}

/**
 * The commands as a POSIX shell script: one comment per command, then the quoted command line. Commands
 * that destroy data are commented out unless `includeDestructive` is set (the user's destructive flag).
 */
export function renderCommandScript(commands: readonly PlanCommand[], includeDestructive: boolean): string {
  const lines = ['#!/bin/sh', '# encplan plan: review every line before running it.', 'set -eu', ''];
  for (const command of commands) {
    lines.push(`# ${command.purpose}`);
    const line = renderShellCommand(command.argv);
    if (command.risk === 'destroys-data' && !includeDestructive) {
      lines.push('# DESTROYS DATA: commented out; rerun with --destructive to include it.', `# ${line}`);
    } else {
      lines.push(line);
    }
    lines.push('');
  }
  return lines.join('\n');
}
