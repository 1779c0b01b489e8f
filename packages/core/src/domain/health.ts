import { z } from 'zod';
import { factSourceSchema } from './source.js';

/** The drive's overall health: the worst finding decides; `unknown` when SMART could not be read. */
export const healthVerdictSchema = z.enum(['healthy', 'warning', 'failing', 'unknown']);
/** A drive's health verdict: healthy, warning, failing, or unknown when SMART could not be read. */
export type HealthVerdict = z.infer<typeof healthVerdictSchema>;

/** How much one finding weighs. `info` never changes the verdict. */
const findingSeveritySchema = z.enum(['info', 'warning', 'failing']);
export type FindingSeverity = z.infer<typeof findingSeveritySchema>;

/** One observation about the drive, with the attribute, its value, the threshold and who set it. */
const healthFindingSchema = z.object({
  /** Stable kebab-case id, e.g. "nvme-available-spare-below-threshold". */
  id: z.string(),
  severity: findingSeveritySchema,
  /** The attribute as the tool names it, e.g. "5 Reallocated_Sector_Ct" or "percentage_used". */
  attribute: z.string(),
  value: z.union([z.number(), z.string(), z.boolean()]).nullable(),
  /** The rule, e.g. "raw >= 1" or "< available_spare_threshold (10)"; null for plain facts. */
  threshold: z.string().nullable(),
  /** Who set the threshold (the original document), e.g. "Scrutiny nvme_attributes.go (Scrutiny webapp/backend/pkg/thresholds/nvme_attributes.go, ata_attributes.go)". */
  thresholdSource: z.string().nullable(),
  message: z.string(),
  source: factSourceSchema,
});
/** A validated {@link healthFindingSchema} value. */
export type HealthFinding = z.infer<typeof healthFindingSchema>;

/**
 * The health finding for endurance used ≥ 90 % and < 100 % (GSmartControl warns at percentage_used ≥ 90,
 * CrystalDiskInfo cautions at ≤ 10 % life left): judged in analyses/health.ts, acted on by the plan's health gate.
 */
export const ENDURANCE_NEARLY_EXHAUSTED = 'endurance-nearly-exhausted';

/** Why SMART data could not be read. */
const smartUnavailableReasonSchema = z.enum([
  'tool-missing',
  'device-type-unknown',
  'unsupported-bridge',
  'open-failed',
  'permission-denied',
  'device-in-standby',
  'raid-volume',
  'smart-not-supported',
  'no-smart-data',
]);
export type SmartUnavailableReason = z.infer<typeof smartUnavailableReasonSchema>;

/** Why SMART data could not be read, with the detail (the tool's message, the device type it tried). */
const smartUnavailableSchema = z.object({ reason: smartUnavailableReasonSchema, detail: z.string() });
export type SmartUnavailable = z.infer<typeof smartUnavailableSchema>;

/** The drive's health and wear section of an assessment (one model for NVMe, ATA and SCSI). */
export const healthSchema = z.object({
  source: z.enum(['smartctl', 'nvme-cli', 'hdparm', 'none']),
  toolVersion: z.string().nullable(),
  protocol: z.enum(['nvme', 'ata', 'scsi', 'unknown']),
  /** smartctl's `device.type`, e.g. "nvme", "sat", "sat+megaraid,0", "scsi". */
  smartctlDeviceType: z.string().nullable(),
  model: z.string().nullable(),
  /** False for SSDs (rotation rate 0 / "Solid State Device"), null when unknown. */
  rotational: z.boolean().nullable(),
  verdict: healthVerdictSchema,
  unavailable: smartUnavailableSchema.nullable(),
  /** smartctl's exit status decoded bit by bit (smartctl(8) EXIT STATUS). */
  exitStatus: z
    .object({ value: z.number().int(), problems: z.array(z.string()), findings: z.array(z.string()) })
    .nullable(),
  /** The drive's own overall self-assessment (SMART RETURN STATUS / NVMe critical warning). */
  selfAssessmentPassed: z.boolean().nullable(),
  /** Endurance used in percent (NVMe percentage_used, ATA device statistics, vendor wear attributes). */
  percentageUsed: z.number().nullable(),
  availableSparePercent: z.number().nullable(),
  availableSpareThresholdPercent: z.number().nullable(),
  powerOnHours: z.number().int().nullable(),
  temperatureCelsius: z.number().nullable(),
  unsafeShutdowns: z.number().int().nullable(),
  /** Bytes the host wrote; the nearest double when above 2^53 (see dataWrittenBytesExact). */
  dataWrittenBytes: z.number().nullable(),
  /** The same count as an exact decimal string, because 64-bit counters exceed JSON's safe integers. */
  dataWrittenBytesExact: z.string().nullable(),
  /**
   * The counter `dataWrittenBytes` comes from and its unit as the drive means it (health 1.2): e.g. 241 raw
   * "129493" in "32 MiB units" from smartmontools' drive database. Absent in documents before 1.2.
   */
  dataWrittenUnit: z
    .object({
      attribute: z.string(),
      raw: z.string(),
      unit: z.string(),
      source: z.string(),
    })
    .nullable()
    .optional(),
  /**
   * Every wear signal the drive gave, as percent of rated endurance used (health 1.2), e.g. NVMe percentage_used,
   * 100 − a vendor life attribute's normalised value, a life-left raw count. When they differ by more than
   * WEAR_SIGNAL_TOLERANCE_POINTS a `wear-signals-disagree` finding names them and `percentageUsed` is the worst.
   */
  wearSignals: z
    .array(z.object({ signal: z.string(), percentUsed: z.number(), field: z.string() }))
    .optional(),
  /** Average host writes per power-on day. */
  writeBytesPerDay: z.number().nullable(),
  /**
   * Years until 100 % endurance used at the wear rate observed so far (derived: hours·(100−p)/p); null unless the
   * wear signals and the age counters agree and at least MIN_PERCENT_FOR_LIFE_ESTIMATE % is used (health 1.2).
   */
  estimatedRemainingLifeYears: z.number().nullable(),
  /**
   * Which counter the life estimate takes the drive's age from. Since health 1.2 always power-on hours: when the
   * NVMe controller busy time contradicts them no estimate is made ('controller-busy-time' is kept for 1.1 readers).
   */
  remainingLifeBasis: z.enum(['power-on-hours', 'controller-busy-time']).nullable(),
  findings: z.array(healthFindingSchema),
});
/** A validated {@link healthSchema} value. */
export type Health = z.infer<typeof healthSchema>;

/** The `--fail-on` thresholds of `encplan health`, `assess` and `plan`. */
export type HealthThreshold = 'warning' | 'failing';

/**
 * True when `verdict` is at or past `threshold`. An unknown verdict meets a threshold only when the caller asks
 * for it (`--fail-on-unknown`): unknown is never read as healthy by a gate that was told to be strict.
 */
export function verdictMeetsThreshold(
  verdict: HealthVerdict,
  threshold: HealthThreshold | null,
  options: { readonly unknownFails?: boolean } = {},
): boolean {
  if (verdict === 'unknown') {
    return options.unknownFails === true;
  }
  const rank = { healthy: 0, warning: 1, failing: 2 } as const;
  return threshold !== null && rank[verdict] >= rank[threshold];
}
