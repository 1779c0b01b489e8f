import { z } from 'zod';
import { evidence, type Evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatBytes, MIB } from '../domain/units.js';
import type { PlanInput } from '../plan/plan-input.js';
import type { ResolvedPlanOptions } from '../plan/plan-options.js';
import type { RuleResult } from './rule-result.js';

/** Most client drives keep ≈ 7 % of their NAND as factory spare (reference-facts §3.7, AnandTech 2012). */
export const CLIENT_FACTORY_SPARE_SHARE = 0.07;
/** Partitions start and end on 1 MiB boundaries (sgdisk's and parted's default alignment). */
const ALIGNMENT_BYTES = MIB;
/** GPT keeps a backup header and a 32-sector entry array after the last usable LBA: 34 sectors reserved (UEFI spec §5.3). */
const GPT_BACKUP_SECTORS = 34;
/** Wear above which one more tier of spare is worth it: GSmartControl notices SSD life left < 50 (§1.12). */
const WORN_PERCENT = 50;
/**
 * Worst-case write amplification targets per tier; spare factor ρ = 1 / (2·WA − 1) from the greedy-GC worst
 * case WA = (1 + ρ) / (2ρ) (reference-facts §3.7, Agarwal & Marrow). Tier 0 = no extra spare: TRIMmed free
 * space already acts as spare (dynamic OP, §3.7).
 */
const WRITE_AMPLIFICATION_TIERS = [null, 3, 2, 1.5] as const;
const WORKLOAD_TIER: Readonly<Record<ResolvedPlanOptions['workload'], number>> = {
  desktop: 0,
  server: 1,
  'write-heavy': 2,
};

/** How to make the reserved space real spare area the drive can use. */
export const spareMethodSchema = z.enum([
  'discarded-tail',
  'nvme-namespace',
  'hpa',
  'never-written-tail',
  'none',
]);
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
  /** True when TRIM reaches the drive through the planned stack. */
  trimReachesDrive: z.boolean(),
});
export type SpacePlan = z.infer<typeof spacePlanSchema>;

/** Spare factor ρ (spare ÷ user capacity) that keeps worst-case write amplification at `writeAmplification`. */
export function spareFactorFor(writeAmplification: number): number {
  return 1 / (2 * writeAmplification - 1);
}

/**
 * `unallocated-space` and `spare-area-method`: how much to leave unpartitioned, from drive type, wear, whether
 * TRIM reaches the drive through the planned stack, factory spare and the workload; and how to make it real
 * spare (only never-written or TRIMmed space counts, §3.7).
 */
export function recommendSpace(
  input: PlanInput,
  options: ResolvedPlanOptions,
  allowDiscards: boolean,
): RuleResult & { readonly space: SpacePlan | null } {
  const size = input.device.sizeBytes;
  const sector = input.device.logicalSectorBytes ?? 512;
  const blocking = input.trim.firstBlockingLayer;
  // Unknown passthrough counts as passing only when the plan builds the whole stack itself (a blank disk).
  const stackPasses = input.trim.passthroughKnown ? blocking === null : input.space.partitionTable === 'none';
  const trimReachesDrive = allowDiscards && input.trim.deviceSupportsTrim !== false && stackPasses;
  // A dm-crypt layer that blocks can be fixed by the plan's cryptsetup refresh; say what that would change.
  const fixable =
    !trimReachesDrive &&
    allowDiscards &&
    input.trim.deviceSupportsTrim !== false &&
    blocking?.kind === 'dm-crypt';
  const worn = input.health.wearPercentUsed !== null && input.health.wearPercentUsed >= WORN_PERCENT;
  const facts: Evidence[] = [
    evidence('device.sizeBytes', size, sourceOf('lsblk', 'size')),
    evidence('device.rotational', input.device.rotational, sourceOf('/sys/block/*/queue/rotational')),
    evidence('trim reaches the drive', trimReachesDrive, input.trim.source),
    evidence('health.wearPercentUsed', input.health.wearPercentUsed, input.health.source),
    evidence('space.factorySpareBytes', input.space.factorySpareBytes, sourceOf('nvme', 'tnvmcap')),
    evidence('space.unallocatedBytes', input.space.unallocatedBytes, sourceOf('lsblk', 'partitions')),
    evidence('options.workload', options.workload, sourceOf('encplan', 'options.workload')),
  ];
  if (size === null) {
    return {
      recommendations: [
        {
          ruleId: 'unallocated-space',
          value: null,
          reason: 'The device size is unknown, so no layout can be computed.',
          evidence: facts,
          confidence: 'low',
        },
      ],
      findings: [],
      space: null,
    };
  }
  if (input.device.rotational === true) {
    const space = layout(size, sector, 0, 'none', false);
    return {
      recommendations: [
        {
          ruleId: 'unallocated-space',
          value: { percent: 0, bytes: 0, partitionEndSector: space.partitionEndSector },
          reason: 'A rotational disk has no flash to wear-level, so unpartitioned space buys nothing.',
          evidence: facts,
          confidence: 'high',
        },
      ],
      findings: [],
      space,
    };
  }
  const factorySpare = input.space.factorySpareBytes ?? Math.round(size * CLIENT_FACTORY_SPARE_SHARE);
  const tierFor = (trimReaches: boolean) =>
    Math.min(
      WRITE_AMPLIFICATION_TIERS.length - 1,
      WORKLOAD_TIER[options.workload] + (trimReaches ? 0 : 1) + (worn ? 1 : 0),
    );
  const targetWriteAmplification = WRITE_AMPLIFICATION_TIERS[tierFor(trimReachesDrive)] ?? null;
  const needed = neededSpareBytes(size, factorySpare, targetWriteAmplification);
  const neededAfterFix = neededSpareBytes(
    size,
    factorySpare,
    WRITE_AMPLIFICATION_TIERS[tierFor(true)] ?? null,
  );
  const method = spareMethod(input, needed);
  const space = layout(size, sector, needed, method, trimReachesDrive);
  const findings: Finding[] = [];
  const lastEnd = input.space.lastPartitionEndSector;
  if (lastEnd !== null && space.partitionEndSector !== null && lastEnd > space.partitionEndSector) {
    findings.push({
      ruleId: 'partition-overlaps-spare',
      severity: 'warning',
      message: `The last partition ends at sector ${String(lastEnd)}, beyond the planned end ${String(space.partitionEndSector)}: shrink it first (encplan never shrinks partitions), or accept less spare area.`,
      evidence: [evidence('space.lastPartitionEndSector', lastEnd, sourceOf('lsblk', 'partitions'))],
    });
  }
  const why =
    targetWriteAmplification === null
      ? 'TRIM reaches the drive and the workload is light, so free space inside the filesystem already serves as spare area on top of the factory spare'
      : `${trimReachesDrive ? '' : `TRIM does not reach the drive${blocking === null ? '' : ` (it stops at ${blocking.kind} "${blocking.name}")`}, so written free space never returns to the drive; `}${worn ? 'the drive is past half its wear; ' : ''}for a ${options.workload} workload this keeps worst-case write amplification near ${String(targetWriteAmplification)} (spare factor ${spareFactorFor(targetWriteAmplification).toFixed(2)}) counting ${input.space.factorySpareBytes === null ? 'an assumed 7 %' : formatBytes(factorySpare)} factory spare`;
  return {
    recommendations: [
      {
        ruleId: 'unallocated-space',
        value: {
          percent: space.unallocatedPercent,
          bytes: space.unallocatedBytes,
          partitionEndSector: space.partitionEndSector,
        },
        reason: `Leave ${formatBytes(space.unallocatedBytes)} (${space.unallocatedPercent.toFixed(1)} %) unpartitioned: ${why}${fixable ? `; once the refresh below lets discards through, ${formatBytes(neededAfterFix)} is enough` : ''}.`,
        evidence: facts,
        confidence:
          input.space.factorySpareBytes === null || !input.trim.passthroughKnown ? 'medium' : 'high',
      },
      {
        ruleId: 'spare-area-method',
        value: method,
        reason: methodReason(method),
        evidence: [
          evidence('trim.deviceSupportsTrim', input.trim.deviceSupportsTrim, input.trim.source),
          evidence(
            'device.nvmeNamespaceManagement',
            input.device.nvmeNamespaceManagement,
            sourceOf('nvme', 'id-ctrl oacs bit 3'),
          ),
          evidence('device.hpaSupported', input.device.hpaSupported, sourceOf('hdparm', '-N')),
        ],
        confidence: input.trim.deviceSupportsTrim === null ? 'medium' : 'high',
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

function spareMethod(input: PlanInput, neededBytes: number): SpareMethod {
  if (neededBytes === 0) {
    return 'none';
  }
  // Unpartitioned tail + one discard: simplest and OS-agnostic (§3.7); needs TRIM at the drive.
  if (input.trim.deviceSupportsTrim !== false) {
    return 'discarded-tail';
  }
  if (input.device.nvmeNamespaceManagement === true) {
    return 'nvme-namespace';
  }
  // HPA is frequently unsupported behind USB bridges (§3.7).
  if (input.device.hpaSupported === true && input.device.transport !== 'usb') {
    return 'hpa';
  }
  return 'never-written-tail';
}

function methodReason(method: SpareMethod): string {
  switch (method) {
    case 'discarded-tail':
      return 'Discard the unpartitioned tail once (blkdiscard of that range) so the drive knows it is free; unpartitioned space counts as spare only if never written or TRIMmed.';
    case 'nvme-namespace':
      return 'The drive cannot TRIM but supports namespace management, so shrink the namespace (nvme ns create with a smaller size) to hand the rest to the controller.';
    case 'hpa':
      return 'The drive cannot TRIM, so hide the tail with a Host Protected Area (hdparm -N p…); some BIOSes and USB bridges reset or ignore it.';
    case 'never-written-tail':
      return 'The drive cannot TRIM and offers no namespace or HPA control, so the tail only helps if it was never written: secure-erase the drive before partitioning.';
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
