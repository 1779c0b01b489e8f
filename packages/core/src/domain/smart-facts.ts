import type { Counter } from './counter.js';
import type { SmartUnavailable } from './health.js';

/** A finding about the disk carried by bits 3-7 of smartctl's exit status. */
export type SmartctlExitFinding =
  | 'disk-failing'
  | 'prefail-below-threshold'
  | 'past-below-threshold'
  | 'error-log-has-errors'
  | 'self-test-log-has-errors';

/** A problem asking the disk, carried by bits 0-2 of smartctl's exit status. */
export type SmartctlExitProblem = 'command-line-invalid' | 'device-open-failed' | 'smart-command-failed';

/** smartctl's exit status, decoded bit by bit. */
export interface SmartctlExitStatus {
  readonly value: number;
  /** False when bit 0 or bit 1 is set: smartctl could not talk to the device at all. */
  readonly dataUsable: boolean;
  readonly problems: readonly SmartctlExitProblem[];
  readonly findings: readonly SmartctlExitFinding[];
}

/** A value read from a tool, with the field it came from (for FactSource). */
export interface Sourced<T> {
  readonly value: T;
  readonly field: string;
}

/** The NVMe SMART / Health Information log (NVMe Base Spec log page 02h), from smartctl or nvme-cli. */
export interface NvmeHealthLog {
  readonly criticalWarning: Sourced<number> | null;
  readonly temperatureCelsius: Sourced<number> | null;
  readonly availableSparePercent: Sourced<number> | null;
  readonly availableSpareThresholdPercent: Sourced<number> | null;
  readonly percentageUsed: Sourced<number> | null;
  /** Units of 1000 × 512 bytes (NVMe Base Spec; smartctl(8) RETURN VALUES; smartmontools src/json.cpp, nvmeprint.cpp, ataprint.cpp). */
  readonly dataUnitsWritten: Sourced<Counter> | null;
  readonly powerOnHours: Sourced<Counter> | null;
  /** Minutes the controller had I/O outstanding (NVMe Base Spec 2.0, SMART / Health log bytes 112-127). */
  readonly controllerBusyMinutes: Sourced<Counter> | null;
  readonly unsafeShutdowns: Sourced<Counter> | null;
  readonly mediaErrors: Sourced<Counter> | null;
  readonly errorLogEntries: Sourced<Counter> | null;
}

/** One row of smartctl's ATA SMART attribute table. */
export interface AtaAttribute {
  readonly id: number;
  readonly name: string;
  /** Normalised current value (1-253, higher is better). */
  readonly value: number | null;
  readonly worst: number | null;
  readonly threshold: number | null;
  /** "now", "past" or "" (smartctl's `when_failed`). */
  readonly whenFailed: string;
  readonly prefailure: boolean;
  readonly raw: Counter | null;
  readonly rawString: string | null;
  /**
   * The counter the raw value holds as smartctl means it (drivedb raw format: "2111 (12437 0)" is 2111, Seagate's
   * 188 packs three 16-bit counters); null without a raw value. See domain/ata-attribute-formats.ts.
   */
  readonly count?: number | null;
  /** How `count` was read from the raw value, e.g. "raw16(raw16): low bits of the raw value". */
  readonly countReading?: string | null;
}

/** SCSI/SAS health facts (smartctl scsiprint). */
export interface ScsiHealth {
  readonly grownDefects: Sourced<number> | null;
  readonly uncorrectedErrors: readonly Sourced<number>[];
  readonly percentageUsed: Sourced<number> | null;
  /** Bytes written by the host, from the write error counter log's "gigabytes processed" (10^9 bytes, 3 decimals). */
  readonly bytesWritten: Sourced<bigint> | null;
  /** Logical Block Provisioning (LBPME = UNMAP supported), from `scsi_lb_provisioning`. */
  readonly unmapSupported: boolean | null;
  readonly readsZerosAfterUnmap: boolean | null;
}

/** Everything the health analysis needs, from whichever tool answered (smartctl, nvme-cli, hdparm). */
export interface SmartFacts {
  readonly tool: 'smartctl' | 'nvme-cli' | 'hdparm';
  readonly toolVersion: string | null;
  readonly protocol: 'nvme' | 'ata' | 'scsi' | 'unknown';
  readonly deviceType: string | null;
  readonly model: string | null;
  /** RPM; 0 for solid state; null when unknown. */
  readonly rotationRateRpm: number | null;
  readonly exitStatus: SmartctlExitStatus | null;
  /** Set when no SMART data could be read, with the reason and the tool's own words. */
  readonly unavailable: Readonly<SmartUnavailable> | null;
  readonly messages: readonly { readonly text: string; readonly severity: string }[];
  readonly selfAssessmentPassed: Sourced<boolean> | null;
  readonly nvme: NvmeHealthLog | null;
  readonly ataAttributes: readonly AtaAttribute[];
  /** ATA Device Statistics page 7 "Percentage Used Endurance Indicator". */
  readonly ataPercentageUsed: Sourced<number> | null;
  /** smartctl 7.5's unified `endurance_used.current_percent`. */
  readonly enduranceUsedPercent: Sourced<number> | null;
  /** smartctl 7.5's unified `spare_available`. */
  readonly spareAvailable: {
    readonly currentPercent: Sourced<number>;
    readonly thresholdPercent: number | null;
  } | null;
  readonly scsi: ScsiHealth | null;
  readonly powerOnHours: Sourced<number> | null;
  readonly temperatureCelsius: Sourced<number> | null;
  readonly logicalBlockSizeBytes: number | null;
  readonly userCapacityBytes: number | null;
  /** smartctl's `model_family` (the drive database entry that matched), which fixes raw formats and units. */
  readonly modelFamily?: string | null;
  /** smartctl's `in_smartctl_database`: attribute names (and so their units) come from its drive database. */
  readonly inDriveDatabase: boolean | null;
  /** Fields whose printed value the field cannot hold (left out above); any makes a good verdict impossible. */
  readonly implausibleFields?: readonly string[];
}
