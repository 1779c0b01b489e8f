import { z } from 'zod';
import type { SmartctlReport } from '../parsers/smartctl/smartctl-json.js';
import { factSourceSchema, sourceOf } from '../domain/source.js';

/**
 * What one saved `smartctl --json` output says about the drive itself, beside its health: solid state or
 * spinning, and whether it can TRIM. `encplan health` prints it; `encplan assess` has the fuller `media` and
 * `trim` sections, which also know what the kernel does.
 */
export const driveSummarySchema = z.object({
  media: z.enum(['ssd', 'hdd', 'unknown']),
  /** Why: "NVMe", "rotation rate 0 (Solid State Device)", "rotation rate 7200 rpm", or why it is unknown. */
  mediaReason: z.string(),
  trim: z.object({
    /** ATA DSM TRIM, NVMe Dataset Management (deallocate), SCSI UNMAP; null when the output does not say. */
    supported: z.boolean().nullable(),
    deterministicReadAfterTrim: z.boolean().nullable(),
    readsZeroesAfterTrim: z.boolean().nullable(),
    mechanism: z.enum(['ata-dsm-trim', 'nvme-deallocate', 'scsi-unmap', 'unknown']),
    source: factSourceSchema.nullable(),
  }),
});
/** Media kind and TRIM capability of a drive, from one smartctl output. */
export type DriveSummary = z.infer<typeof driveSummarySchema>;

/**
 * Media kind and TRIM capability from smartctl's JSON. smartctl prints `rotation_rate` 0 for "Solid State
 * Device" (ATA IDENTIFY word 217 = 1, ACS-4 §7.12.7.86); NVMe is always solid state. TRIM comes from `trim`
 * (ATA IDENTIFY words 169 and 69, smartctl 7.3+) or NVMe ONCS bit 2 (Dataset Management).
 */
export function summariseDrive(report: SmartctlReport): DriveSummary {
  const { facts, trim } = report;
  let media: DriveSummary['media'] = 'unknown';
  let mediaReason = 'smartctl did not report a rotation rate.';
  if (facts.protocol === 'nvme') {
    media = 'ssd';
    mediaReason = 'NVMe';
  } else if (facts.rotationRateRpm === 0) {
    media = 'ssd';
    mediaReason = 'rotation rate 0 (Solid State Device)';
  } else if (facts.rotationRateRpm !== null && facts.rotationRateRpm > 0) {
    media = 'hdd';
    mediaReason = `rotation rate ${String(facts.rotationRateRpm)} rpm`;
  }
  return {
    media,
    mediaReason,
    trim: {
      supported: trim?.supported ?? null,
      deterministicReadAfterTrim: trim?.deterministic ?? null,
      readsZeroesAfterTrim: trim?.zeroed ?? null,
      mechanism: trim?.mechanism ?? 'unknown',
      source: trim === null ? null : sourceOf(trim.origin, trim.field),
    },
  };
}
