import { z } from 'zod';
import { evidence, mediaKindEvidence, type Evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatBytes, MIB } from '../domain/units.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import {
  discardStopOf,
  healthSourceOf,
  lastPartitionEndSectorOf,
  rotationalOf,
  trimSourceOf,
  type PlanFacts,
} from './facts.js';
import type { RuleResult } from './rule-result.js';

/** Most client drives keep ≈ 7 % of their NAND as factory spare (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create, AnandTech 2012). */
const CLIENT_FACTORY_SPARE_SHARE = 0.07;
/** Partitions start and end on 1 MiB boundaries (sgdisk's and parted's default alignment). */
const ALIGNMENT_BYTES = MIB;
/** GPT keeps a backup header and a 32-sector entry array after the last usable LBA: 34 sectors reserved (UEFI spec §5.3). */
const GPT_BACKUP_SECTORS = 34;
/** Wear above which one more tier of spare is worth it: GSmartControl notices SSD life left < 50 (GSmartControl src/applib/storage_property_descr_*.cpp). */
const WORN_PERCENT = 50;
/**
 * Worst-case write amplification targets per tier; spare factor ρ = 1 / (2·WA − 1) from the greedy-GC worst
 * case WA = (1 + ρ) / (2ρ) (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create, Agarwal & Marrow). Tier 0 = no extra spare: TRIMmed free
 * space already acts as spare (dynamic OP, AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
 */
const WRITE_AMPLIFICATION_TIERS = [null, 3, 2, 1.5] as const;
const WORKLOAD_TIER: Readonly<Record<ResolvedPlanOptions['workload'], number>> = {
  desktop: 0,
  server: 1,
  'write-heavy': 2,
};

/** How to make the reserved space real spare area the drive can use. */
const spareMethodSchema = z.enum(['discarded-tail', 'nvme-namespace', 'hpa', 'never-written-tail', 'none']);
export type SpareMethod = z.infer<typeof spareMethodSchema>;

/** The space part of the plan. */
export const spacePlanSchema = z.object({
  /** Total bytes to leave unallocated (including what is already unallocated). */
  unallocatedBytes: z.number().int().nonnegative(),
  unallocatedPercent: z.number().nonnegative(),
  /** Inclusive last sector (logical sectors) of the encrypted partition; null without a size. */
  partitionEndSector: z.number().int().nonnegative().nullable(),
  logicalSectorBytes: z.number().int().positive(),
  /** Byte range [offset, offset + length) to discard so the drive can use it as spare; null when none. */
  discardRange: z
    .object({ offsetBytes: z.number().int().nonnegative(), lengthBytes: z.number().int().positive() })
    .nullable(),
  method: spareMethodSchema,
  /** True only when TRIM is known to reach the drive through the planned stack (unknown is false: read `trim`). */
  trimReachesDrive: z.boolean(),
  /**
   * Whether TRIM reaches the drive through the planned stack: true, false, or null when unknown (the drive did
   * not say whether it supports TRIM, or the existing stack was not walked), with the reason (since plan 1.3).
   */
  trim: z.object({ reachesDrive: z.boolean().nullable(), reason: z.string() }).optional(),
});
export type SpacePlan = z.infer<typeof spacePlanSchema>;

/**
 * Whether TRIM reaches the drive through the planned stack, and why: no when the plan passes no discards, the
 * drive cannot TRIM or a walked layer stops them; unknown (null) when the drive did not say or the existing
 * stack was not walked; yes only when all of it is known.
 */
function trimReach(
  allowDiscards: boolean,
  deviceSupportsTrim: boolean | null,
  stackPasses: boolean,
  stackKnown: boolean,
  blocking: { readonly kind: string; readonly name: string } | null,
): { reachesDrive: boolean | null; reason: string } {
  if (!allowDiscards) {
    return { reachesDrive: false, reason: 'the plan does not enable discards' };
  }
  if (deviceSupportsTrim === false) {
    return { reachesDrive: false, reason: 'the drive does not support TRIM' };
  }
  if (stackKnown && !stackPasses) {
    return {
      reachesDrive: false,
      reason: `TRIM does not reach the drive${blocking === null ? '' : ` (it stops at ${blocking.kind} "${blocking.name}")`}`,
    };
  }
  if (deviceSupportsTrim === null) {
    return { reachesDrive: null, reason: 'the drive did not say whether it supports TRIM' };
  }
  if (!stackKnown) {
    return { reachesDrive: null, reason: 'the existing stack was not walked' };
  }
  return {
    reachesDrive: true,
    reason: 'the drive supports TRIM and every layer of the planned stack passes discards',
  };
}

/** Spare factor ρ (spare ÷ user capacity) that keeps worst-case write amplification at `writeAmplification`. */
export function spareFactorFor(writeAmplification: number): number {
  return 1 / (2 * writeAmplification - 1);
}

/**
 * `unallocated-space` and `spare-area-method`: how much to leave unpartitioned, from drive type, wear, whether
 * TRIM reaches the drive through the planned stack, factory spare and the workload; and how to make it real
 * spare (only never-written or TRIMmed space counts, AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
 */
export function recommendSpace(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  allowDiscards: boolean,
): RuleResult & { readonly space: SpacePlan | null } {
  const size = facts.disk?.sizeBytes ?? null;
  const sector = facts.disk?.logicalSectorBytes ?? 512;
  const stop = discardStopOf(facts);
  const blocking = stop.firstBlockingLayer;
  const deviceSupportsTrim = facts.trim?.deviceSupportsTrim ?? null;
  const trimSource = trimSourceOf(facts);
  const wearPercentUsed = facts.health?.percentageUsed ?? null;
  const factorySpareBytes = facts.overProvisioning?.factorySpareBytes ?? null;
  const rotational = rotationalOf(facts);
  // Unknown passthrough counts as passing only when the plan builds the whole stack itself (a blank disk).
  const stackPasses = stop.known ? blocking === null : facts.disk?.partitionTable === 'none';
  const trim = trimReach(
    allowDiscards,
    deviceSupportsTrim,
    stackPasses,
    stop.known || facts.disk?.partitionTable === 'none',
    blocking,
  );
  // Unknown never counts as yes: the spare-area tier for unknown is the conservative one (issue 24 item 5).
  const trimReachesDrive = trim.reachesDrive === true;
  // A dm-crypt layer that blocks can be fixed by the plan's cryptsetup refresh; say what that would change.
  const fixable =
    !trimReachesDrive && allowDiscards && deviceSupportsTrim !== false && blocking?.kind === 'dm-crypt';
  const worn = wearPercentUsed !== null && wearPercentUsed >= WORN_PERCENT;
  const reasons: Evidence[] = [
    evidence('disk.sizeBytes', size, sourceOf('lsblk', 'size')),
    mediaKindEvidence(rotational),
    evidence('trim reaches the drive', trim.reachesDrive, trimSource),
    evidence('health.percentageUsed', wearPercentUsed, healthSourceOf(facts)),
    evidence('overProvisioning.factorySpareBytes', factorySpareBytes, sourceOf('nvme', 'tnvmcap')),
    evidence(
      'space.unallocatedBytes',
      facts.space?.unallocatedBytes ?? null,
      sourceOf('lsblk', 'partitions'),
    ),
    evidence('options.workload', options.workload, sourceOf('encplan', 'options.workload')),
  ];
  if (size === null) {
    return {
      recommendations: [
        {
          ruleId: 'unallocated-space',
          value: null,
          reason: 'The device size is unknown, so no layout can be computed.',
          evidence: reasons,
          confidence: 'low',
        },
      ],
      findings: [],
      space: null,
    };
  }
  if (rotational === true) {
    const space = { ...layout(size, sector, 0, 'none', false), trim };
    return {
      recommendations: [
        {
          ruleId: 'unallocated-space',
          value: { percent: 0, bytes: 0, partitionEndSector: space.partitionEndSector },
          reason: 'A rotational disk has no flash to wear-level, so unpartitioned space buys nothing.',
          evidence: reasons,
          confidence: 'high',
        },
      ],
      findings: [],
      space,
    };
  }
  const factorySpare = factorySpareBytes ?? Math.round(size * CLIENT_FACTORY_SPARE_SHARE);
  const tierFor = (trimReaches: boolean) =>
    Math.min(
      WRITE_AMPLIFICATION_TIERS.length - 1,
      WORKLOAD_TIER[options.workload] + (trimReaches ? 0 : 1) + (worn ? 1 : 0),
    );
  const targetWriteAmplification = WRITE_AMPLIFICATION_TIERS[tierFor(trimReachesDrive)] ?? null;
  const target = targetSpareBytes(size, factorySpareBytes, options.targetSpare);
  const needed = target?.bytes ?? neededSpareBytes(size, factorySpare, targetWriteAmplification);
  const neededAfterFix = neededSpareBytes(
    size,
    factorySpare,
    WRITE_AMPLIFICATION_TIERS[tierFor(true)] ?? null,
  );
  const method = spareMethod(facts, needed, target !== null);
  const space = { ...layout(size, sector, needed, method, trimReachesDrive), trim };
  const findings: Finding[] = [];
  const lastEnd = lastPartitionEndSectorOf(facts);
  if (lastEnd !== null && space.partitionEndSector !== null && lastEnd > space.partitionEndSector) {
    findings.push({
      ruleId: 'partition-overlaps-spare',
      severity: 'warning',
      message: `The last partition ends at sector ${String(lastEnd)}, beyond the planned end ${String(space.partitionEndSector)}: shrink it first (encplan never shrinks partitions), or accept less spare area.`,
      evidence: [evidence('last partition end (sector)', lastEnd, sourceOf('lsblk', 'partitions'))],
    });
  }
  // Unknown is not "no": say when the plan only assumes TRIM does not reach the drive.
  const trimText =
    trim.reachesDrive === true
      ? ''
      : trim.reachesDrive === null
        ? `whether TRIM reaches the drive is unknown (${trim.reason}), so the plan assumes written free space may not return to it and keeps the spare of a drive without TRIM; `
        : `${trim.reason}, so written free space never returns to the drive; `;
  const bases = spareBasesText(size, sector, factorySpareBytes, space.unallocatedBytes);
  const why =
    target !== null
      ? `you asked for ${String(target.percent)} % of the ${target.base === 'raw' ? 'raw flash' : "drive's user capacity"}${target.base === 'raw' ? ' (counting the factory spare)' : ''}`
      : targetWriteAmplification === null
        ? 'TRIM reaches the drive and the workload is light, so free space inside the filesystem already serves as spare area on top of the factory spare'
        : `${trimText}${worn ? 'the drive is past half its wear; ' : ''}for a ${options.workload} workload this keeps worst-case write amplification near ${String(targetWriteAmplification)} (spare factor ${spareFactorFor(targetWriteAmplification).toFixed(2)}) counting ${factorySpareBytes === null ? 'an assumed 7 %' : formatBytes(factorySpare)} factory spare`;
  return {
    recommendations: [
      {
        ruleId: 'unallocated-space',
        value: {
          percent: space.unallocatedPercent,
          bytes: space.unallocatedBytes,
          partitionEndSector: space.partitionEndSector,
        },
        reason: `Leave ${formatBytes(space.unallocatedBytes)} (${space.unallocatedPercent.toFixed(1)} % of the user capacity) unpartitioned: ${why}${fixable && target === null ? `; once the refresh below lets discards through, ${formatBytes(neededAfterFix)} is enough` : ''}. ${bases}`,
        evidence: reasons,
        confidence: target !== null ? 'high' : factorySpareBytes === null || !stop.known ? 'medium' : 'high',
      },
      {
        ruleId: 'spare-area-method',
        value: method,
        reason: methodReason(method, target !== null, facts),
        evidence: [
          evidence('trim.deviceSupportsTrim', deviceSupportsTrim, trimSource),
          evidence(
            'space.nvme.namespaceManagementSupported',
            facts.space?.nvme?.namespaceManagementSupported ?? null,
            sourceOf('nvme', 'id-ctrl oacs bit 3'),
          ),
          evidence('space.hostProtectedArea', hpaSupportedOf(facts), sourceOf('hdparm', '-N')),
        ],
        confidence: deviceSupportsTrim === null ? 'medium' : 'high',
      },
    ],
    findings,
    space,
  };
}

/** Bytes X to leave unallocated so that (factory + X) / (size − X) ≥ ρ(WA): X ≥ (ρ·size − factory) / (1 + ρ), in whole MiB. */
function neededSpareBytes(
  size: number,
  factorySpare: number,
  targetWriteAmplification: number | null,
): number {
  if (targetWriteAmplification === null) {
    return 0;
  }
  const rho = spareFactorFor(targetWriteAmplification);
  return Math.max(0, Math.ceil((rho * size - factorySpare) / (1 + rho) / MIB) * MIB);
}

/** The user's fixed spare area in bytes beyond the factory spare; null when none was asked for. */
function targetSpareBytes(
  size: number,
  factorySpareBytes: number | null,
  targetSpare: ResolvedPlanOptions['targetSpare'],
): { readonly bytes: number; readonly percent: number; readonly base: 'user' | 'raw' } | null {
  if (targetSpare === null) {
    return null;
  }
  if (targetSpare.base === 'user' || factorySpareBytes === null) {
    // Without the raw flash size a share of raw cannot be computed; fall back to the user capacity and say so.
    return {
      bytes: Math.ceil((size * targetSpare.percent) / 100 / MIB) * MIB,
      percent: targetSpare.percent,
      base: 'user',
    };
  }
  // Share of raw flash: total spare (factory + hidden) = percent × (size + factory).
  const raw = size + factorySpareBytes;
  const hidden = Math.max(0, (raw * targetSpare.percent) / 100 - factorySpareBytes);
  return { bytes: Math.ceil(hidden / MIB) * MIB, percent: targetSpare.percent, base: 'raw' };
}

/**
 * The spare area against both bases, side by side, with sector numbers: the share of the user capacity (what
 * the host sees) and, when the drive reports its factory spare, the share of raw flash (size + factory spare).
 */
function spareBasesText(
  size: number,
  sector: number,
  factorySpareBytes: number | null,
  unallocatedBytes: number,
): string {
  const userSectors = Math.floor(size / sector);
  const hiddenSectors = Math.floor(unallocatedBytes / sector);
  const userShare = `${((unallocatedBytes / size) * 100).toFixed(1)} % of the user capacity (${String(hiddenSectors)} of ${String(userSectors)} sectors)`;
  if (factorySpareBytes === null) {
    return `Base: ${userShare}; the raw flash size is unknown, so its share cannot be given.`;
  }
  const raw = size + factorySpareBytes;
  const rawSectors = Math.floor(raw / sector);
  const spareSectors = Math.floor((unallocatedBytes + factorySpareBytes) / sector);
  return `Bases: ${userShare}; with the factory spare, ${(((unallocatedBytes + factorySpareBytes) / raw) * 100).toFixed(1)} % of raw flash (${String(spareSectors)} of ${String(rawSectors)} sectors).`;
}

/** True when hdparm -N read a Host Protected Area (so it can be set); null when it was not read. */
function hpaSupportedOf(facts: PlanFacts): boolean | null {
  const hpa = facts.space?.hostProtectedArea;
  return hpa === undefined || hpa === null ? null : true;
}

/**
 * Whether `blkdiscard` of the never-allocated tail can work on this disk: it issues BLKDISCARD to the whole-disk
 * device, which the kernel refuses with EOPNOTSUPP where the disk's queue takes no discards (discard_max_bytes
 * 0: "A discard_max_bytes of 0 means that the device does not support discard functionality", Linux
 * Documentation/ABI/stable/sysfs-block; blkdiscard(8)), and under the script's `set -eu` a refused discard
 * stops the script. So the tail is discarded only where the kernel is known to send discards to the disk and
 * the drive is not known to lack TRIM; unknown is not yes. With the reason when it is not.
 */
function tailDiscard(facts: PlanFacts): {
  readonly discardable: boolean | null;
  readonly reason: string;
} {
  const disk = facts.disk?.kernelName ?? 'the disk';
  const maxBytes = facts.trim?.kernelDiscardMaxBytes ?? null;
  if (facts.trim?.deviceSupportsTrim === false) {
    return { discardable: false, reason: 'The drive cannot TRIM' };
  }
  if (maxBytes === null) {
    return {
      discardable: null,
      reason: `Whether the kernel sends discards to ${disk} is unknown (its discard_max_bytes was not read), so the commands run no blkdiscard, which would stop the script where the disk refuses it`,
    };
  }
  if (maxBytes === 0) {
    return {
      discardable: false,
      reason: `The kernel sends no discards to ${disk} (discard_max_bytes 0${facts.trim?.status === 'blocked-by-bridge' ? ', the USB bridge does not pass TRIM' : ''}), so blkdiscard of the tail would fail and the commands run none`,
    };
  }
  return {
    discardable: true,
    reason:
      facts.trim?.deviceSupportsTrim === true
        ? ''
        : ` The kernel accepts discards for ${disk} (discard_max_bytes ${String(maxBytes)}), but the drive did not say whether it supports TRIM, so whether the discard frees flash is unknown.`,
  };
}

function spareMethod(facts: PlanFacts, neededBytes: number, fixedByUser: boolean): SpareMethod {
  if (neededBytes === 0) {
    return 'none';
  }
  const hpaUsable = hpaSupportedOf(facts) === true && facts.disk?.transport !== 'usb';
  // A fixed spare area the user asked for is best hidden where no partitioning tool can take it back: an HPA
  // (hdparm(8) -N), when the drive has one and no USB bridge sits in between.
  if (fixedByUser && hpaUsable) {
    return 'hpa';
  }
  // Unpartitioned tail + one discard: simplest and OS-agnostic (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create); needs TRIM at the drive,
  // and a disk the kernel sends discards to: blkdiscard of the tail goes to the disk itself and fails where it
  // does not (tailDiscard).
  const tail = tailDiscard(facts).discardable;
  if (tail === true) {
    return 'discarded-tail';
  }
  // Unknown: leave the tail unpartitioned without a discard, rather than a namespace or HPA change the facts
  // do not call for.
  if (tail === null) {
    return 'never-written-tail';
  }
  if (facts.space?.nvme?.namespaceManagementSupported === true) {
    return 'nvme-namespace';
  }
  // HPA is frequently unsupported behind USB bridges (AnandTech, "Exploring the Relationship Between Spare Area and Performance Consistency in Modern SSDs", 2012; Agarwal & Marrow, write amplification; hdparm(8) -N; nvme-cli nvme-ns-create).
  if (hpaUsable) {
    return 'hpa';
  }
  return 'never-written-tail';
}

function methodReason(method: SpareMethod, fixedByUser: boolean, facts: PlanFacts): string {
  if (method === 'hpa' && fixedByUser) {
    return 'You asked for a fixed spare area and the drive has a Host Protected Area, so hide the tail with hdparm -N p… (after discarding it, and power-cycle before partitioning): no partitioning tool can take it back. A discarded unpartitioned tail would work too while TRIM reaches the drive.';
  }
  const tail = tailDiscard(facts);
  switch (method) {
    case 'discarded-tail':
      return `Discard the unpartitioned tail once (blkdiscard of that range) so the drive knows it is free; unpartitioned space counts as spare only if never written or TRIMmed.${tail.reason}`;
    case 'nvme-namespace':
      return `${tail.reason}, but the drive supports namespace management, so shrink the namespace (nvme ns create with a smaller size) to hand the rest to the controller.`;
    case 'hpa':
      return `${tail.reason}, so hide the tail with a Host Protected Area (hdparm -N p…); some BIOSes and USB bridges reset or ignore it.`;
    case 'never-written-tail':
      return `${tail.reason}${tail.discardable === null ? '' : ', and the drive offers no namespace or HPA control the plan can use'}, so the unpartitioned tail only helps if it was never written: secure-erase the drive before partitioning, or discard the tail yourself once \`lsblk --discard\` shows DISC-MAX above 0 for the disk.`;
    case 'none':
      return 'No extra spare area is needed.';
  }
}

function layout(
  size: number,
  sector: number,
  neededBytes: number,
  method: SpareMethod,
  trimReachesDrive: boolean,
): SpacePlan {
  const gptReserve = GPT_BACKUP_SECTORS * sector;
  const usableEnd =
    Math.floor((size - Math.max(neededBytes, gptReserve)) / ALIGNMENT_BYTES) * ALIGNMENT_BYTES;
  const partitionEndSector = usableEnd / sector - 1;
  const unallocatedBytes = neededBytes === 0 ? 0 : size - usableEnd;
  const discardEnd = size - gptReserve;
  const discardRange =
    method === 'discarded-tail' && discardEnd > usableEnd
      ? { offsetBytes: usableEnd, lengthBytes: discardEnd - usableEnd }
      : null;
  return {
    unallocatedBytes,
    unallocatedPercent: Math.round((unallocatedBytes / size) * 1000) / 10,
    partitionEndSector,
    logicalSectorBytes: sector,
    discardRange,
    method,
    trimReachesDrive,
  };
}
