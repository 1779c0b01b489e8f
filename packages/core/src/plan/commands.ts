import { planCommandsOf, planSettingsOf } from '../targets/registry.js';
import type { InPlaceCommands, VolumeCommandInput } from '../targets/target.js';
import type { PlanCommand } from '../domain/plan-command.js';
import { evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatBytes, MIB } from '../domain/units.js';
import type { LuksCipherSpec, VeracryptEncryption } from '../rules/cipher.js';
import type { Luks2Pbkdf, VeracryptKdf } from '../rules/key-derivation.js';
import { existingEncryptionOf, osOf, plansForLinux, type PlanFacts } from '../rules/facts.js';
import type { SpacePlan } from '../rules/space.js';
import type { ResolvedPlanOptions, TargetTool } from '../rules/plan-options.js';
import {
  activeUseOf,
  diskUsageOf,
  IN_PLACE_ALTERNATIVE,
  partitionPathOf,
  type ByteRange,
  type DiskUsage,
} from './disk-usage.js';
import { volumeUuidFor } from './volume-uuid.js';

export { planCommandSchema, type PlanCommand } from '../domain/plan-command.js';

/** The settings the commands apply, as decided by the rules. */
export interface CommandSettings {
  readonly targetTool: TargetTool;
  readonly devicePath: string;
  /** True when `devicePath` is a stand-in: the facts name no disk, so the commands are a template. */
  readonly devicePlaceholder?: boolean;
  readonly cipherSpec: LuksCipherSpec;
  readonly keyBits: number;
  readonly sectorSizeBytes: number | null;
  readonly luks2Pbkdf: Luks2Pbkdf | null;
  readonly workqueueBypass: boolean;
  readonly allowDiscards: boolean;
  readonly space: SpacePlan | null;
  readonly veracrypt: { readonly encryption: VeracryptEncryption; readonly kdf: VeracryptKdf } | null;
}

/** What the command builder produced: the commands, and why it left out any it could not build safely. */
export interface BuiltCommands {
  readonly commands: PlanCommand[];
  readonly findings: Finding[];
  /** The commands tune an open volume in place (the target's refresh), the only ones kept when nothing is to do. */
  readonly refreshesOpenVolume?: true;
}

/** GPT's backup header and entry array after the last usable LBA: 1 + 32 sectors of 512 bytes, +1 margin (UEFI spec §5.3). */
export const GPT_BACKUP_SECTORS = 34;

/**
 * The smallest partition the plan creates: the LUKS2 header with its default 16 MiB of metadata and keyslots
 * (cryptsetup(8), --luks2-metadata-size/--luks2-keyslots-size; LUKS2 on-disk format spec §2) plus room for a
 * filesystem. Below it the free space is too small to be worth a volume.
 */
export const MINIMUM_PARTITION_BYTES = 64 * MIB;

/** The GPT holds 128 entries by default (UEFI spec §5.3.3; sgdisk's default table size). */
const GPT_MAX_PARTITIONS = 128;

/** The partition the plan creates. */
export interface NewPartition {
  readonly number: number;
  readonly startSector: number;
  readonly endSector: number;
  readonly path: string;
}

/** The layout the plan writes: a new partition in never-allocated space, and the tail to discard. */
export interface PlannedLayout {
  /** True when the plan writes a new GPT (the disk is wholly never-allocated, or a stand-in template). */
  readonly freshTable: boolean;
  readonly partition: NewPartition;
  /** Never-allocated bytes after the partition to discard once; null when not discarded. */
  readonly discard: { readonly offsetBytes: number; readonly lengthBytes: number } | null;
}

function note(message: string, facts: PlanFacts, severity: Finding['severity'] = 'info'): Finding {
  return {
    ruleId: 'partition-first',
    severity,
    message,
    evidence: [
      evidence('disk.partitionTable', facts.disk?.partitionTable ?? null, sourceOf('lsblk', 'pttype')),
      evidence('space.regions', facts.space?.regions?.length ?? null, sourceOf('sfdisk', '--json')),
    ],
  };
}

const alignUp = (bytes: number): number => Math.ceil(bytes / MIB) * MIB;

/** {@link planLayout}'s answer for a GPT whose partition entries are all in use. */
const GPT_FULL = Symbol('gpt-full');

/**
 * `gpt-full`: every entry of the GPT's partition array is taken, so no partition can be added however much
 * never-allocated space is left. A full table is a warning, not a note: the plan has no commands at all, and
 * the fix (free an entry or enlarge the array: sgdisk(8) --delete, --resize-table; the UEFI
 * specification §5.3.3 sizes the array by NumberOfPartitionEntries, 128 by default) is the user's to make.
 */
function gptFullFinding(facts: PlanFacts, usage: DiskUsage, settings: CommandSettings): Finding {
  const inUse =
    usage.inUse.length > 0
      ? ` Something on the disk is in use (${usage.inUse.map((item) => item.detail).join('; ')}): change its table only from a system that does not use it.`
      : '';
  return {
    ruleId: 'gpt-full',
    severity: 'warning',
    message: `No partition or format commands: all ${String(GPT_MAX_PARTITIONS)} entries of the GPT's partition table are in use, so no partition can be added${usage.freeRegions.length > 0 ? ' even in the never-allocated space left' : ''}. Free an entry first: delete a partition you no longer need (sgdisk --delete=N ${settings.devicePath}) or enlarge the entry array when the gap before the first partition allows it (sgdisk --resize-table=256 ${settings.devicePath}), then assess again; or encrypt an existing, unused partition with the settings above.${inUse}`,
    evidence: [
      evidence('disk.partitionTable', facts.disk?.partitionTable ?? null, sourceOf('lsblk', 'pttype')),
      evidence('partitions in use', usage.partitions?.length ?? null, sourceOf('sfdisk', '--json')),
      evidence('GPT partition entries', GPT_MAX_PARTITIONS, sourceOf('sgdisk', 'default table size')),
    ],
  };
}

/**
 * Where the new partition goes: on a wholly never-allocated disk (or the stand-in template) after a new GPT,
 * else inside a never-allocated region of an existing GPT that holds the whole planned partition. Returns a
 * reason instead when no layout can be written exactly from the known facts.
 */
function planLayout(
  facts: PlanFacts,
  usage: DiskUsage,
  settings: CommandSettings,
): PlannedLayout | string | typeof GPT_FULL {
  const space = settings.space;
  if (space === null || space.partitionEndSector === null) {
    return 'the disk size is unknown, so no partition range can be computed';
  }
  const sector = space.logicalSectorBytes;
  const endSector = space.partitionEndSector;
  const endBytes = (endSector + 1) * sector;
  const size = usage.sizeBytes;
  const placeholder = settings.devicePlaceholder === true;
  let region: ByteRange;
  let number: number;
  let freshTable: boolean;
  if (placeholder || usage.wholeDiskFree) {
    if (size === null && !placeholder) {
      return 'the disk size is unknown';
    }
    const total = size ?? space.unallocatedBytes + endBytes + GPT_BACKUP_SECTORS * sector;
    region = { startBytes: MIB, endBytes: total - GPT_BACKUP_SECTORS * sector };
    number = 1;
    freshTable = true;
  } else {
    if (facts.disk?.partitionTable === 'none') {
      return usage.inUse.length > 0
        ? 'the disk is used whole (no partition table, and something on it is in use)'
        : 'the facts do not show the disk wholly never-allocated (no partition table, but its signatures, holders or free space are unknown)';
    }
    if (facts.disk?.partitionTable !== 'gpt') {
      return facts.disk?.partitionTable === 'dos'
        ? 'the disk has an MBR partition table, which sgdisk would convert to GPT'
        : 'the partition table type is unknown';
    }
    const partitions = usage.partitions;
    if (partitions === null || partitions.some((partition) => partition.number === null)) {
      return 'the existing partitions and their numbers are unknown';
    }
    // A full table blocks any new partition, wherever the free space lies: say that first.
    const used = new Set(partitions.map((partition) => partition.number));
    number = 1;
    while (used.has(number)) {
      number += 1;
    }
    if (number > GPT_MAX_PARTITIONS) {
      return GPT_FULL;
    }
    const candidate = usage.freeRegions.find(
      (free) => alignUp(free.startBytes) < endBytes && endBytes <= free.endBytes,
    );
    if (candidate === undefined) {
      return `no never-allocated region holds a partition ending at sector ${String(endSector)} (the free space lies elsewhere, or an existing partition reaches past it)`;
    }
    region = candidate;
    freshTable = false;
  }
  const startBytes = alignUp(region.startBytes);
  if (endBytes - startBytes < MINIMUM_PARTITION_BYTES || endBytes > region.endBytes) {
    return `the never-allocated space before sector ${String(endSector)} is smaller than ${formatBytes(MINIMUM_PARTITION_BYTES)}`;
  }
  const planned = space.discardRange;
  const discardStart = Math.max(endBytes, planned?.offsetBytes ?? 0);
  const discardEnd = Math.min(
    region.endBytes,
    planned === null ? 0 : planned.offsetBytes + planned.lengthBytes,
  );
  return {
    freshTable,
    partition: {
      number,
      startSector: startBytes / sector,
      endSector,
      path: partitionPathOf(settings.devicePath, number),
    },
    discard:
      planned !== null && discardEnd > discardStart
        ? { offsetBytes: discardStart, lengthBytes: discardEnd - discardStart }
        : null,
  };
}

/** "X (Y % of the user capacity …)": the base of every percentage is said (issue 10). */
function spareShareText(facts: PlanFacts, space: SpacePlan): string {
  const size = facts.disk?.sizeBytes ?? null;
  const factory = facts.overProvisioning?.factorySpareBytes ?? null;
  const userShare =
    size === null
      ? `${space.unallocatedPercent.toFixed(1)} % of the user capacity`
      : `${space.unallocatedPercent.toFixed(1)} % of the ${formatBytes(size)} user capacity`;
  if (size === null || factory === null || factory <= 0) {
    return `${formatBytes(space.unallocatedBytes)} (${userShare})`;
  }
  const raw = size + factory;
  const rawShare = (((space.unallocatedBytes + factory) / raw) * 100).toFixed(1);
  return `${formatBytes(space.unallocatedBytes)} (${userShare}; with the ${formatBytes(factory)} factory spare, ${rawShare} % of the ${formatBytes(raw)} raw flash)`;
}

/**
 * ATA secure erase, then a permanent Host Protected Area over the tail, then a stop: the drive must be
 * power-cycled before the kernel sees the new size (hdparm(8) -N: "A hardware reset (or power cycle) is
 * required before another permanent -N operation can succeed"). Erasing first makes the hidden range
 * never-written again, which only then counts as spare area (the drive cannot TRIM, or the method would
 * be a discarded tail). Only with ATA Security known supported, enabled=no and not frozen (hdparm(8)
 * --security-erase); the temporary password is a fixed word the erase itself clears, not a secret.
 */
function hpaCommands(
  facts: PlanFacts,
  settings: CommandSettings,
  layout: PlannedLayout,
): PlanCommand[] | string {
  const security = facts.sed?.ataSecurity ?? null;
  if (facts.disk?.transport === 'usb') {
    return 'USB bridges often drop or reset a Host Protected Area';
  }
  if (security?.supported !== true || security.enabled !== false || security.frozen !== false) {
    return 'ATA secure erase is not known to be available (supported, not enabled, not frozen: hdparm -I), and the range must be erased before it is hidden';
  }
  const sector = settings.space?.logicalSectorBytes ?? 512;
  const visibleSectors = layout.partition.endSector + 1 + GPT_BACKUP_SECTORS;
  const password = 'encplan-erase';
  return [
    {
      id: 'ata-security-set-pass',
      purpose: `Set a temporary ATA user password ("${password}", not a secret: the erase below clears it); secure erase needs one. Run it only together with the erase: a password left set locks the drive at its next power-up.`,
      argv: ['hdparm', '--user-master', 'u', '--security-set-pass', password, settings.devicePath],
      // Part of the destructive erase step: never live on its own.
      risk: 'destroys-data',
      stdin: null,
      stage: 1,
    },
    {
      id: 'ata-security-erase',
      purpose:
        'Secure-erase the whole drive so the range hidden next is never-written flash the controller can use as spare.',
      argv: ['hdparm', '--user-master', 'u', '--security-erase', password, settings.devicePath],
      risk: 'destroys-data',
      stdin: null,
      stage: 1,
    },
    {
      id: 'hpa-set',
      purpose: `Hide everything after sector ${String(visibleSectors - 1)} (${String(sector)}-byte sectors${settings.space === null ? '' : `: ${spareShareText(facts, settings.space)}`}) in a permanent Host Protected Area. Then power-cycle the drive (off and on; a reboot is not enough) before stage 2.`,
      argv: [
        'hdparm',
        '-N',
        `p${String(visibleSectors)}`,
        '--yes-i-know-what-i-am-doing',
        settings.devicePath,
      ],
      risk: 'destroys-data',
      stdin: null,
      stage: 1,
    },
  ];
}

function layoutCommands(
  facts: PlanFacts,
  usage: DiskUsage,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
  layout: PlannedLayout,
  stage: number | undefined,
): PlanCommand[] {
  const space = settings.space;
  const { partition } = layout;
  const staged = stage === undefined ? {} : { stage };
  const share = space === null || space.unallocatedBytes === 0 ? null : spareShareText(facts, space);
  const commands: PlanCommand[] = [
    {
      id: 'partition-layout',
      purpose: `${layout.freshTable ? 'Write a new GPT with' : 'Add'} partition ${String(partition.number)} (sectors ${String(partition.startSector)}–${String(partition.endSector)})${layout.freshTable ? '' : ' in never-allocated space'}${share === null ? '' : `, leaving ${share} unallocated as spare area`}.${settings.devicePlaceholder === true ? ` ${settings.devicePath} stands for an empty disk you choose.` : ''}`,
      argv: [
        'sgdisk',
        ...(layout.freshTable ? ['--clear'] : []),
        `--new=${String(partition.number)}:${String(partition.startSector)}:${String(partition.endSector)}`,
        `--typecode=${String(partition.number)}:${planCommandsOf(settings.targetTool).gptType}`,
        `--change-name=${String(partition.number)}:${options.label}`,
        settings.devicePath,
      ],
      risk: layout.freshTable ? 'destroys-data' : 'changes-settings',
      stdin: null,
      ...staged,
    },
    {
      id: 'partition-table-reread',
      purpose: `Tell the kernel about partition ${String(partition.number)} (partx --update; sgdisk\u2019s own re-read can race with udev), so ${partition.path} exists before it is used.`,
      argv: ['partx', '--update', '--nr', String(partition.number), settings.devicePath],
      risk: 'changes-settings',
      stdin: null,
      ...staged,
    },
  ];
  if (layout.discard !== null) {
    commands.push({
      id: 'blkdiscard-tail',
      purpose: `Discard the never-allocated tail after partition ${String(partition.number)} once, so the drive can use it as spare area.`,
      argv: [
        'blkdiscard',
        '--offset',
        String(layout.discard.offsetBytes),
        '--length',
        String(layout.discard.lengthBytes),
        settings.devicePath,
      ],
      risk: 'destroys-data',
      stdin: null,
      ...staged,
    });
  }
  return commands;
}

/**
 * What the planned target's command builder (targets/<id>/commands.ts) is given: where the volume goes and the
 * settings the rules decided, with the UUID derived from the disk's identity and the planned layout.
 */
function volumeInputOf(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
  volumePath: string,
  stage: number | undefined,
): VolumeCommandInput {
  return {
    platform: plansForLinux(facts) ? 'linux' : (osOf(facts) ?? 'linux'),
    devicePath: settings.devicePath,
    volumePath,
    stage,
    label: options.label,
    mappingName: options.mappingName,
    volumeUuid: volumeUuidFor(
      [
        settings.devicePath,
        String(facts.disk?.sizeBytes ?? ''),
        volumePath,
        options.label,
        options.mappingName,
      ].join('\u0000'),
    ),
    cipherSpec: settings.cipherSpec,
    keyBits: settings.keyBits,
    sectorSizeBytes: settings.sectorSizeBytes,
    luks2Pbkdf: settings.luks2Pbkdf,
    allowDiscards: settings.allowDiscards,
    workqueueBypass: settings.workqueueBypass,
    veracrypt: settings.veracrypt,
  };
}

/** The planned target's commands that make its volume at `volumePath` (targets/<id>/commands.ts). */
export function volumeCommands(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
  volumePath: string,
  stage: number | undefined,
): PlanCommand[] {
  return planCommandsOf(settings.targetTool).volume(
    volumeInputOf(facts, options, settings, volumePath, stage),
  );
}

/**
 * The planned target's in-place encryption of the filesystem at `volumePath` (targets/<id>/commands.ts inPlace),
 * after the shared steps freed `reduction` at its end; null when the target cannot encrypt in place.
 */
export function inPlaceVolumeCommands(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
  volumePath: string,
  reduction: string,
): InPlaceCommands | null {
  return (
    planCommandsOf(settings.targetTool).inPlace?.(
      volumeInputOf(facts, options, settings, volumePath, undefined),
      reduction,
    ) ?? null
  );
}

/** The fresh-format path on Linux: a new partition in never-allocated space, its spare tail, the volume. */
function freshCommands(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
): BuiltCommands {
  const usage = diskUsageOf(facts);
  const space = settings.space;
  if (settings.devicePlaceholder === true && space === null) {
    // A template for a device the user names, with no size to lay out and no spare advice to honour.
    return {
      commands: volumeCommands(facts, options, settings, settings.devicePath, undefined),
      findings: [],
    };
  }
  const active = activeUseOf(usage);
  if (active.length > 0 && settings.devicePlaceholder !== true) {
    return {
      commands: [],
      findings: [
        note(
          `No partition or format commands: encplan never writes a disk in use (${active.map((item) => item.detail).join('; ')}), not its partition table nor its never-allocated space (blkdiscard opens the whole disk exclusively and fails "busy"). Stop using it (or start from a live system) and assess it again, or: ${IN_PLACE_ALTERNATIVE}`,
          facts,
        ),
      ],
    };
  }
  const layout = planLayout(facts, usage, settings);
  if (layout === GPT_FULL) {
    return { commands: [], findings: [gptFullFinding(facts, usage, settings)] };
  }
  if (typeof layout === 'string') {
    return {
      commands: [],
      findings: [
        note(
          usage.inUse.length > 0
            ? `No partition or format commands: ${layout}. On a disk in use encplan writes nothing but a new partition and discards in never-allocated space (${usage.inUse.map((item) => item.detail).join('; ')}). ${IN_PLACE_ALTERNATIVE}`
            : `No partition or format commands: ${layout}. encplan writes only to never-allocated space or a wholly empty disk; create a partition ending at sector ${String(space?.partitionEndSector ?? 'unknown')} yourself (or pick an existing, unused one) and encrypt it with the settings above.`,
          facts,
        ),
      ],
    };
  }
  const findings: Finding[] = [];
  let prefix: PlanCommand[] = [];
  let stage: number | undefined;
  if (space?.method === 'hpa') {
    const hpa =
      layout.freshTable && settings.devicePlaceholder !== true
        ? hpaCommands(facts, settings, layout)
        : 'the disk is not wholly never-allocated (a Host Protected Area would cut off its GPT backup header)';
    if (typeof hpa === 'string') {
      findings.push(
        note(
          `The spare area is left as a never-written tail, not hidden in a Host Protected Area: ${hpa}.`,
          facts,
        ),
      );
    } else {
      prefix = hpa;
      stage = 2;
    }
  }
  return {
    commands: [
      ...prefix,
      ...layoutCommands(facts, usage, options, settings, layout, stage),
      ...volumeCommands(facts, options, settings, layout.partition.path, stage),
    ],
    findings,
  };
}

/** The exact commands that apply the plan, in order, and notes on what was left out. Executes nothing. */
export function buildCommands(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  settings: CommandSettings,
): BuiltCommands {
  const commands = planCommandsOf(settings.targetTool);
  if (!commands.partitions) {
    return {
      commands: volumeCommands(facts, options, settings, settings.devicePath, undefined),
      findings: [],
    };
  }
  // An open LUKS volume is tuned in place, never reformatted by the plan.
  const existing = existingEncryptionOf(facts);
  if (
    planSettingsOf(settings.targetTool).refreshOpenVolume &&
    existing?.refreshable === true &&
    existing.mappingName !== null
  ) {
    return {
      commands:
        commands.refresh?.(volumeInputOf(facts, options, settings, settings.devicePath, undefined), {
          mappingName: existing.mappingName,
          storesActivationFlags: existing.storesActivationFlags,
        }) ?? [],
      findings: [],
      refreshesOpenVolume: true,
    };
  }
  if (!plansForLinux(facts)) {
    // Outside Linux the OS tools partition; the volume goes on the device as given (platform command sets
    // come with their platform work).
    return {
      commands: volumeCommands(facts, options, settings, settings.devicePath, undefined),
      findings: [],
    };
  }
  return freshCommands(facts, options, settings);
}
