import type { Counter } from '../domain/counter.js';
import { ENDURANCE_NEARLY_EXHAUSTED } from '../domain/health.js';
import type {
  FindingSeverity,
  Health,
  HealthFinding,
  HealthVerdict,
  SmartUnavailableReason,
} from '../domain/health.js';
import type { AtaAttribute, SmartFacts, Sourced } from '../domain/smart-facts.js';
import { sourceOf } from '../domain/source.js';
import type { Warning } from '../domain/warning.js';
import { formatBytes } from '../domain/units.js';
import type { ImplausibleValue } from '../parsers/smartctl/plausible-ranges.js';

/** Who set each threshold; every finding cites one (the original documents). */
const THRESHOLD_SOURCES = {
  scrutinyNvme: 'AnalogJ/scrutiny webapp/backend/pkg/thresholds/nvme_attributes.go',
  scrutinyAta:
    'AnalogJ/scrutiny webapp/backend/pkg/thresholds/ata_attributes.go (Backblaze-derived failure-rate buckets)',
  crystalDiskInfo: 'CrystalDiskInfo AtaSmart.cpp CheckDiskStatus',
  gsmartcontrol: 'GSmartControl src/applib/storage_property_descr_*.cpp',
  backblaze: 'Backblaze, "What SMART Stats Tell Us About Hard Drives" (2016)',
  smartctlExit: 'smartctl(8), EXIT STATUS',
  nvmeSpec: 'NVM Express Base Specification 2.0, SMART / Health Information log page 02h',
  jedecEndurance:
    'JEDEC JESD218B (SSD endurance: rated TBW is where the retention requirement is still met) and JESD219A',
  encplanWear: 'encplan wear tiers, docs/health-and-discard.md',
} as const;

/** One NVMe data unit is 1000 × 512 bytes (NVMe Base Spec; smartctl(8) RETURN VALUES; smartmontools src/json.cpp, nvmeprint.cpp, ataprint.cpp). */
const NVME_DATA_UNIT_BYTES = 512_000n;
/** Hours per year (365.25 days), for remaining-life estimates. */
const HOURS_PER_YEAR = 8766;
/** Wear tiers (percent of rated endurance used): see analyseWear. */
const WEAR_HALF_PERCENT = 50;
const WEAR_LOW_PERCENT = 80;
/** Less than this many years left at the observed wear rate is a warning (one refresh cycle of a client PC). */
const REMAINING_LIFE_WARNING_YEARS = 1;
/**
 * No drive writes faster on average than its interface carries: PCIe 5.0 x4 moves at most ~15.75 GB/s
 * (32 GT/s × 4 lanes × 128/130 encoding). An average write rate over the power-on time above this means the
 * power-on hours are wrong (reset, wrapped, or in another unit).
 */
const MAX_PLAUSIBLE_WRITE_BYTES_PER_SECOND = 15.75e9;

/** NVMe critical_warning bits (NVMe Base Spec, SMART / Health log byte 0). */
const CRITICAL_WARNING_BITS: readonly (readonly [number, string])[] = [
  [0, 'available spare below threshold'],
  [1, 'temperature outside its threshold'],
  [2, 'NVM subsystem reliability degraded'],
  [3, 'media placed in read-only mode'],
  [4, 'volatile memory backup device failed'],
  [5, 'persistent memory region read-only'],
];

/**
 * ATA wear attributes whose normalised value is the remaining life in percent, by vendor (CrystalDiskInfo's
 * per-vendor choice, CrystalDiskInfo AtaSmart.cpp): 231 SandForce/Kingston/Phison SSD_Life_Left, 233 Intel/OCZ/SK
 * hynix Media_Wearout_Indicator, 202 Micron/Crucial Percent_Lifetime_Remain, 177 Samsung Wear_Leveling_Count,
 * 173 Kioxia/Micron. Ids are reused for other meanings (Samsung PM883's 202 is Exception_Mode_Status), so the
 * name must also look like a wear counter.
 */
const WEAR_ATTRIBUTE_IDS = [231, 233, 202, 177, 173] as const;
const WEAR_NAME = /Life|Wear|Perc_Rated|Erase_C|Block-Erase|Write\/Erase|Unknown_Attribute/i;

/** The measured fields of a health section where SMART could not be read. */
const NO_MEASUREMENTS = {
  selfAssessmentPassed: null,
  percentageUsed: null,
  availableSparePercent: null,
  availableSpareThresholdPercent: null,
  powerOnHours: null,
  temperatureCelsius: null,
  unsafeShutdowns: null,
  dataWrittenBytes: null,
  dataWrittenBytesExact: null,
  writeBytesPerDay: null,
  estimatedRemainingLifeYears: null,
  remainingLifeBasis: null,
  findings: [],
} as const satisfies Partial<Health>;

interface Draft {
  readonly findings: HealthFinding[];
}

function add(
  draft: Draft,
  id: string,
  severity: FindingSeverity,
  attribute: string,
  value: HealthFinding['value'],
  threshold: string | null,
  thresholdSource: string | null,
  message: string,
  origin: string,
  field: string | null,
): void {
  draft.findings.push({
    id,
    severity,
    attribute,
    value,
    threshold,
    thresholdSource,
    message,
    source: sourceOf(origin, field),
  });
}

function attributeLabel(attribute: AtaAttribute): string {
  return `${attribute.id} ${attribute.name}`;
}

function rawNumber(attribute: AtaAttribute): number | null {
  return attribute.raw === null ? null : attribute.raw.value;
}

function analyseNvme(facts: SmartFacts, draft: Draft): void {
  const log = facts.nvme;
  if (log === null) {
    return;
  }
  const origin = facts.tool;
  const warning = log.criticalWarning;
  if (warning !== null && warning.value !== 0) {
    const bits = CRITICAL_WARNING_BITS.filter(([bit]) => (warning.value & (1 << bit)) !== 0).map(
      ([, name]) => name,
    );
    add(
      draft,
      'nvme-critical-warning',
      'failing',
      'critical_warning',
      warning.value,
      '!= 0',
      THRESHOLD_SOURCES.scrutinyNvme,
      `The drive raises a critical warning: ${bits.join(', ') || 'reserved bits set'}.`,
      origin,
      warning.field,
    );
  }
  const spare = log.availableSparePercent;
  const spareThreshold = log.availableSpareThresholdPercent;
  if (spare !== null && spareThreshold !== null) {
    if (spare.value < spareThreshold.value) {
      add(
        draft,
        'nvme-available-spare-below-threshold',
        'failing',
        'available_spare',
        spare.value,
        `< available_spare_threshold (${spareThreshold.value})`,
        THRESHOLD_SOURCES.scrutinyNvme,
        `Available spare ${spare.value} % is below the drive's threshold of ${spareThreshold.value} %.`,
        origin,
        spare.field,
      );
    } else if (spare.value === spareThreshold.value) {
      add(
        draft,
        'nvme-available-spare-at-threshold',
        'warning',
        'available_spare',
        spare.value,
        `== available_spare_threshold (${spareThreshold.value})`,
        THRESHOLD_SOURCES.crystalDiskInfo,
        `Available spare ${spare.value} % has reached the drive's threshold.`,
        origin,
        spare.field,
      );
    }
  }
  const mediaErrors = log.mediaErrors;
  if (mediaErrors !== null && mediaErrors.value.exact > 0n) {
    add(
      draft,
      'nvme-media-errors',
      'failing',
      'media_errors',
      mediaErrors.value.value,
      '> 0',
      THRESHOLD_SOURCES.scrutinyNvme,
      `The drive reports ${mediaErrors.value.exact.toString()} unrecovered media/data integrity errors.`,
      origin,
      mediaErrors.field,
    );
  }
  // Counters that only inform: any count above zero is worth a line, none is a fault.
  const informational = [
    {
      counter: log.errorLogEntries,
      id: 'nvme-error-log-entries',
      attribute: 'num_err_log_entries',
      says: "entries in the controller's error log (often harmless, e.g. unsupported commands)",
    },
    {
      counter: log.unsafeShutdowns,
      id: 'unsafe-shutdowns',
      attribute: 'unsafe_shutdowns',
      says: 'unsafe shutdowns (power lost without a flush)',
    },
  ];
  for (const { counter, id, attribute, says } of informational) {
    if (counter !== null && counter.value.exact > 0n) {
      add(
        draft,
        id,
        'info',
        attribute,
        counter.value.value,
        null,
        null,
        `${counter.value.exact.toString()} ${says}.`,
        origin,
        counter.field,
      );
    }
  }
}

/** Thresholds on ATA raw counts, each with its source. */
const ATA_RAW_RULES: readonly {
  readonly id: number;
  readonly rule: string;
  /** Raw counts at or above `failingAt` fail; at or above `warningAt` warn; `infoAt` only informs. */
  readonly failingAt: number | null;
  readonly warningAt: number | null;
  readonly infoAt: number | null;
  readonly source: string;
  readonly meaning: string;
}[] = [
  // Scrutiny: attr 5 raw 16–70 has a 23.6 % annual failure rate, above its 10 % "failed" line; smaller
  // non-zero counts get CrystalDiskInfo's Caution (default threshold 1).
  {
    id: 5,
    rule: 'reallocated-sectors',
    failingAt: 16,
    warningAt: 1,
    infoAt: null,
    source: `${THRESHOLD_SOURCES.scrutinyAta}; ${THRESHOLD_SOURCES.crystalDiskInfo}`,
    meaning: 'sectors were reallocated to spare area',
  },
  // Scrutiny: attr 187 raw 1 → 33.9 % annual failure rate (≥ 10 %: failed).
  {
    id: 187,
    rule: 'reported-uncorrectable',
    failingAt: 1,
    warningAt: null,
    infoAt: null,
    source: THRESHOLD_SOURCES.scrutinyAta,
    meaning: 'errors could not be corrected by ECC',
  },
  // GSmartControl flags raw > 0 of 196; Scrutiny lists it as critical without a cited bucket.
  {
    id: 196,
    rule: 'reallocation-events',
    failingAt: null,
    warningAt: 1,
    infoAt: null,
    source: THRESHOLD_SOURCES.gsmartcontrol,
    meaning: 'reallocation events happened',
  },
  // Scrutiny: attr 197 raw 1–2 → 34 % annual failure rate (≥ 10 %: failed).
  {
    id: 197,
    rule: 'pending-sectors',
    failingAt: 1,
    warningAt: null,
    infoAt: null,
    source: THRESHOLD_SOURCES.scrutinyAta,
    meaning: 'sectors are waiting to be reallocated (unreadable)',
  },
  // CrystalDiskInfo: raw of 0xC6 ≥ 1 → Caution; Backblaze watches 198.
  {
    id: 198,
    rule: 'offline-uncorrectable',
    failingAt: null,
    warningAt: 1,
    infoAt: null,
    source: `${THRESHOLD_SOURCES.crystalDiskInfo}; ${THRESHOLD_SOURCES.backblaze}`,
    meaning: 'sectors failed the offline scan',
  },
  // Not among Backblaze's five failure predictors: interface CRC errors point at the cable or connector.
  {
    id: 199,
    rule: 'interface-crc-errors',
    failingAt: null,
    warningAt: null,
    infoAt: 1,
    source: THRESHOLD_SOURCES.backblaze,
    meaning: 'transfers failed their CRC (usually the cable or connector)',
  },
];

function analyseAta(facts: SmartFacts, draft: Draft): void {
  const origin = facts.tool;
  for (const attribute of facts.ataAttributes) {
    const field = `ata_smart_attributes.table[id=${attribute.id}]`;
    if (attribute.whenFailed === 'now') {
      add(
        draft,
        'ata-attribute-failing-now',
        'failing',
        attributeLabel(attribute),
        attribute.value,
        `normalised value <= threshold (${attribute.threshold ?? '?'})`,
        `${THRESHOLD_SOURCES.gsmartcontrol}; drive vendor threshold`,
        `${attribute.name} is at or below the vendor's failure threshold now.`,
        origin,
        field,
      );
    } else if (attribute.whenFailed === 'past') {
      add(
        draft,
        'ata-attribute-failed-in-past',
        'warning',
        attributeLabel(attribute),
        attribute.worst,
        `worst <= threshold (${attribute.threshold ?? '?'})`,
        THRESHOLD_SOURCES.smartctlExit,
        `${attribute.name} was at or below the vendor's failure threshold in the past.`,
        origin,
        field,
      );
    }
    const rule = ATA_RAW_RULES.find((candidate) => candidate.id === attribute.id);
    const raw = rawNumber(attribute);
    if (rule === undefined || raw === null) {
      continue;
    }
    // The highest level the raw value reaches; info findings cite no threshold.
    const level =
      rule.failingAt !== null && raw >= rule.failingAt
        ? { severity: 'failing' as const, threshold: `raw >= ${rule.failingAt}` }
        : rule.warningAt !== null && raw >= rule.warningAt
          ? { severity: 'warning' as const, threshold: `raw >= ${rule.warningAt}` }
          : rule.infoAt !== null && raw >= rule.infoAt
            ? { severity: 'info' as const, threshold: null }
            : null;
    if (level !== null) {
      add(
        draft,
        `ata-${rule.rule}`,
        level.severity,
        attributeLabel(attribute),
        raw,
        level.threshold,
        rule.source,
        `${raw} ${rule.meaning}.`,
        origin,
        `${field}.raw.value`,
      );
    }
  }
}

function analyseScsi(facts: SmartFacts, draft: Draft): void {
  const scsi = facts.scsi;
  if (scsi === null) {
    return;
  }
  // Grown defects are SCSI's reallocated sectors; Backblaze investigates any raw > 0 of the ATA equivalent.
  if (scsi.grownDefects !== null && scsi.grownDefects.value > 0) {
    add(
      draft,
      'scsi-grown-defects',
      'warning',
      'scsi_grown_defect_list',
      scsi.grownDefects.value,
      '> 0',
      THRESHOLD_SOURCES.backblaze,
      `${scsi.grownDefects.value} blocks were added to the grown defect list.`,
      facts.tool,
      scsi.grownDefects.field,
    );
  }
  for (const errors of scsi.uncorrectedErrors) {
    if (errors.value > 0) {
      add(
        draft,
        'scsi-uncorrected-errors',
        'warning',
        errors.field.replace('scsi_error_counter_log.', ''),
        errors.value,
        '> 0',
        THRESHOLD_SOURCES.backblaze,
        `${errors.value} errors could not be corrected.`,
        facts.tool,
        errors.field,
      );
    }
  }
}

function analyseExitStatus(facts: SmartFacts, draft: Draft): void {
  const status = facts.exitStatus;
  if (status === null) {
    return;
  }
  const field = 'smartctl.exit_status';
  const source = THRESHOLD_SOURCES.smartctlExit;
  for (const finding of status.findings) {
    switch (finding) {
      case 'disk-failing':
        add(
          draft,
          'smartctl-disk-failing',
          'failing',
          'exit status bit 3',
          status.value,
          'bit 3 set',
          source,
          "The drive's own SMART health check says the disk is failing.",
          'smartctl',
          field,
        );
        break;
      case 'prefail-below-threshold':
        add(
          draft,
          'smartctl-prefail-below-threshold',
          'failing',
          'exit status bit 4',
          status.value,
          'bit 4 set',
          source,
          'A pre-failure attribute is at or below its threshold now.',
          'smartctl',
          field,
        );
        break;
      case 'past-below-threshold':
        add(
          draft,
          'smartctl-past-below-threshold',
          'warning',
          'exit status bit 5',
          status.value,
          'bit 5 set',
          source,
          'An attribute was at or below its threshold in the past.',
          'smartctl',
          field,
        );
        break;
      case 'error-log-has-errors':
        add(
          draft,
          'smartctl-error-log-has-errors',
          'info',
          'exit status bit 6',
          status.value,
          null,
          source,
          'The device error log has entries (see `smartctl -l error`); old entries are common.',
          'smartctl',
          field,
        );
        break;
      case 'self-test-log-has-errors':
        add(
          draft,
          'smartctl-self-test-log-has-errors',
          'failing',
          'exit status bit 7',
          status.value,
          'bit 7 set',
          source,
          'A recent self-test found errors (outdated failures are ignored by smartctl).',
          'smartctl',
          field,
        );
        break;
    }
  }
  if (status.dataUsable && status.problems.includes('smart-command-failed')) {
    add(
      draft,
      'smartctl-command-failed',
      'info',
      'exit status bit 2',
      status.value,
      null,
      source,
      `Some SMART command failed, so part of the data may be missing${facts.messages.length > 0 ? `: ${facts.messages.map((m) => m.text).join(' ')}` : '.'}`,
      'smartctl',
      field,
    );
  }
  if (facts.selfAssessmentPassed?.value === false && !status.findings.includes('disk-failing')) {
    add(
      draft,
      'smart-self-assessment-failed',
      'failing',
      'smart_status.passed',
      false,
      '== false',
      source,
      "The drive's own SMART health check did not pass.",
      facts.tool,
      facts.selfAssessmentPassed.field,
    );
  }
}

function isSolidState(facts: SmartFacts): boolean | null {
  if (facts.protocol === 'nvme') {
    return true;
  }
  if (facts.rotationRateRpm === null) {
    return null;
  }
  return facts.rotationRateRpm === 0;
}

function wearAttribute(facts: SmartFacts): AtaAttribute | null {
  for (const id of WEAR_ATTRIBUTE_IDS) {
    const attribute = facts.ataAttributes.find(
      (candidate) => candidate.id === id && WEAR_NAME.test(candidate.name),
    );
    const value = attribute?.value ?? null;
    if (attribute !== undefined && value !== null && value <= 100) {
      return attribute;
    }
  }
  return null;
}

/** Endurance used in percent and where it came from, best source first. */
function percentageUsed(facts: SmartFacts): { value: number; field: string; attribute: string } | null {
  const direct: (Sourced<number> | null)[] = [
    facts.nvme?.percentageUsed ?? null,
    facts.enduranceUsedPercent,
    facts.ataPercentageUsed,
    facts.scsi?.percentageUsed ?? null,
  ];
  for (const candidate of direct) {
    if (candidate !== null) {
      return {
        value: candidate.value,
        field: candidate.field,
        attribute: candidate.field.split('.').pop() ?? candidate.field,
      };
    }
  }
  if (isSolidState(facts) === true) {
    const wear = wearAttribute(facts);
    if (wear !== null && wear.value !== null) {
      return {
        value: 100 - wear.value,
        field: `ata_smart_attributes.table[id=${wear.id}].value`,
        attribute: attributeLabel(wear),
      };
    }
  }
  return null;
}

function analyseWear(
  facts: SmartFacts,
  draft: Draft,
  used: { value: number; field: string; attribute: string } | null,
): void {
  if (used === null) {
    return;
  }
  const origin = facts.tool;
  if (used.value > 100) {
    add(
      draft,
      'endurance-exceeded',
      'failing',
      used.attribute,
      used.value,
      '> 100 %',
      THRESHOLD_SOURCES.scrutinyNvme,
      `The drive has used ${used.value} % of its rated endurance.`,
      origin,
      used.field,
    );
  } else if (used.value >= 100) {
    // CrystalDiskInfo: remaining life 0 → Bad.
    add(
      draft,
      'endurance-exhausted',
      'failing',
      used.attribute,
      used.value,
      'remaining life 0 %',
      THRESHOLD_SOURCES.crystalDiskInfo,
      'The drive has used all of its rated endurance.',
      origin,
      used.field,
    );
  } else if (used.value >= 90) {
    // GSmartControl: percentage_used ≥ 90 → warning; CrystalDiskInfo: remaining life ≤ 10 → Caution.
    add(
      draft,
      ENDURANCE_NEARLY_EXHAUSTED,
      'warning',
      used.attribute,
      used.value,
      '>= 90 %',
      `${THRESHOLD_SOURCES.gsmartcontrol}; ${THRESHOLD_SOURCES.crystalDiskInfo}`,
      `The drive has used ${used.value} % of its rated endurance.`,
      origin,
      used.field,
    );
  } else if (used.value >= WEAR_LOW_PERCENT) {
    // The last fifth of the rated endurance: JESD218 rates endurance as the writes after which the drive still
    // keeps data for its retention period (client: 1 year at 30 °C), so a drive near its rating has little margin
    // left for a whole-drive rewrite (in-place encryption) and years of service. Tier documented in
    // docs/health-and-discard.md.
    add(
      draft,
      'endurance-low',
      'warning',
      used.attribute,
      used.value,
      `>= ${WEAR_LOW_PERCENT} %`,
      `${THRESHOLD_SOURCES.encplanWear}; ${THRESHOLD_SOURCES.jedecEndurance}`,
      `The drive has used ${used.value} % of its rated endurance; ${100 - used.value} % is left. Plan its replacement and keep a backup before a whole-drive rewrite.`,
      origin,
      used.field,
    );
  } else if (used.value >= WEAR_HALF_PERCENT) {
    // GSmartControl: SSD "life left" < 50 → notice.
    add(
      draft,
      'endurance-half-used',
      'info',
      used.attribute,
      used.value,
      `>= ${WEAR_HALF_PERCENT} %`,
      THRESHOLD_SOURCES.gsmartcontrol,
      `The drive has used ${used.value} % of its rated endurance.`,
      origin,
      used.field,
    );
  } else {
    add(
      draft,
      'endurance-used',
      'info',
      used.attribute,
      used.value,
      null,
      null,
      `The drive has used ${used.value} % of its rated endurance.`,
      origin,
      used.field,
    );
  }
  const spare = facts.spareAvailable;
  if (
    spare !== null &&
    spare.thresholdPercent !== null &&
    facts.nvme === null &&
    spare.currentPercent.value < spare.thresholdPercent
  ) {
    add(
      draft,
      'available-spare-below-threshold',
      'failing',
      'spare_available.current_percent',
      spare.currentPercent.value,
      `< threshold_percent (${spare.thresholdPercent})`,
      THRESHOLD_SOURCES.scrutinyNvme,
      `Available spare ${spare.currentPercent.value} % is below the drive's threshold.`,
      origin,
      spare.currentPercent.field,
    );
  }
}

function analyseTemperature(facts: SmartFacts, draft: Draft): void {
  const temperature = facts.temperatureCelsius ?? facts.nvme?.temperatureCelsius ?? null;
  // GSmartControl: NVMe temperature above 50 °C is worth a notice.
  if (temperature !== null && temperature.value > 50) {
    add(
      draft,
      'temperature-high',
      'info',
      'temperature',
      temperature.value,
      '> 50 °C',
      THRESHOLD_SOURCES.gsmartcontrol,
      `The drive is at ${temperature.value} °C.`,
      facts.tool,
      temperature.field,
    );
  }
}

/** Bytes written by the host, exact, with the field it came from. */
function dataWritten(facts: SmartFacts): { bytes: bigint; field: string } | null {
  const units = facts.nvme?.dataUnitsWritten ?? null;
  if (units !== null) {
    return { bytes: units.value.exact * NVME_DATA_UNIT_BYTES, field: units.field };
  }
  const scsiWritten = facts.scsi?.bytesWritten ?? null;
  if (scsiWritten !== null) {
    return { bytes: scsiWritten.value, field: scsiWritten.field };
  }
  // ATA 241 (or Micron's 246) in the unit its name states (smartctl drivedb names, e.g. Total_LBAs_Written,
  // Lifetime_Writes_GiB, Host_Writes_32MiB); an unnamed unit is not guessed.
  const blockBytes = BigInt(facts.logicalBlockSizeBytes ?? 512);
  for (const attribute of facts.ataAttributes) {
    if ((attribute.id !== 241 && attribute.id !== 246) || attribute.raw === null) {
      continue;
    }
    const field = `ata_smart_attributes.table[id=${attribute.id}].raw.value`;
    const raw = attribute.raw.exact;
    // Unknown drives get smartctl's default name "Total_LBAs_Written" for 241 whatever the real unit is
    // (fixture sata-ssd-wd-red-sa500: 173833 "LBAs" on a 4 TB NAS SSD after 8244 h), so only trust drivedb names.
    if (/LBAs_Written/i.test(attribute.name) && facts.inDriveDatabase !== false) {
      return { bytes: raw * blockBytes, field };
    }
    if (/Writes_GiB/i.test(attribute.name)) {
      return { bytes: raw * 1_073_741_824n, field };
    }
    if (/Writes_32MiB/i.test(attribute.name)) {
      return { bytes: raw * 33_554_432n, field };
    }
  }
  return null;
}

function analyseUsage(
  facts: SmartFacts,
  draft: Draft,
  hours: number | null,
  written: { bytes: bigint; field: string } | null,
): void {
  if (hours !== null) {
    add(
      draft,
      'power-on-hours',
      'info',
      'power_on_hours',
      hours,
      null,
      null,
      `Powered on for ${hours} hours (${(hours / HOURS_PER_YEAR).toFixed(1)} years).`,
      facts.tool,
      facts.powerOnHours?.field ?? facts.nvme?.powerOnHours?.field ?? null,
    );
  }
  if (written !== null) {
    add(
      draft,
      'data-written',
      'info',
      written.field.split('.').slice(-3).join('.'),
      written.bytes.toString(),
      null,
      null,
      `The host has written ${formatBytes(Number(written.bytes))}.`,
      facts.tool,
      written.field,
    );
  }
}

function powerOnHours(facts: SmartFacts): number | null {
  const hours = facts.powerOnHours?.value ?? facts.nvme?.powerOnHours?.value.value ?? null;
  return hours !== null && Number.isSafeInteger(hours) && hours >= 0 ? hours : null;
}

function verdictOf(findings: readonly HealthFinding[], implausibleFields: readonly string[]): HealthVerdict {
  if (findings.some((finding) => finding.severity === 'failing')) {
    return 'failing';
  }
  if (findings.some((finding) => finding.severity === 'warning')) {
    return 'warning';
  }
  // A drive that printed values its fields cannot hold is not known to be healthy: what was left out might
  // have been the failing figure (e.g. a temperature or an error count that overflowed).
  return implausibleFields.length > 0 ? 'unknown' : 'healthy';
}

function exactOrNull(counter: Counter | bigint | null): string | null {
  if (counter === null) {
    return null;
  }
  return typeof counter === 'bigint' ? counter.toString() : counter.exact.toString();
}

/**
 * Judges a drive from its SMART facts: one verdict for NVMe, ATA and SCSI, where every finding cites the
 * attribute, value, threshold and the source of the threshold. Unavailable SMART gives verdict `unknown`.
 */
export function assessHealth(facts: SmartFacts): Health {
  const solidState = isSolidState(facts);
  const base = {
    source: facts.tool,
    toolVersion: facts.toolVersion,
    protocol: facts.protocol,
    smartctlDeviceType: facts.tool === 'smartctl' ? facts.deviceType : null,
    model: facts.model,
    rotational: solidState === null ? null : !solidState,
    exitStatus:
      facts.exitStatus === null
        ? null
        : {
            value: facts.exitStatus.value,
            problems: [...facts.exitStatus.problems],
            findings: [...facts.exitStatus.findings],
          },
  };
  if (facts.unavailable !== null) {
    return {
      ...base,
      verdict: 'unknown',
      unavailable: facts.unavailable,
      ...NO_MEASUREMENTS,
    };
  }
  const draft: Draft = { findings: [] };
  analyseExitStatus(facts, draft);
  analyseNvme(facts, draft);
  analyseAta(facts, draft);
  analyseScsi(facts, draft);
  const used = percentageUsed(facts);
  analyseWear(facts, draft, used);
  analyseTemperature(facts, draft);
  const hours = powerOnHours(facts);
  const written = dataWritten(facts);
  analyseUsage(facts, draft, hours, written);
  const unsafe = facts.nvme?.unsafeShutdowns?.value.value ?? unsafeFromAta(facts);
  const spare =
    facts.nvme?.availableSparePercent?.value ?? facts.spareAvailable?.currentPercent.value ?? null;
  const spareThreshold =
    facts.nvme?.availableSpareThresholdPercent?.value ?? facts.spareAvailable?.thresholdPercent ?? null;
  const age = driveAge(facts, draft, hours, written);
  const remainingYears = remainingLifeYears(used?.value ?? null, age?.hours ?? null);
  if (remainingYears !== null && remainingYears < REMAINING_LIFE_WARNING_YEARS && used !== null) {
    add(
      draft,
      'endurance-runs-out-soon',
      'warning',
      used.attribute,
      remainingYears,
      `< ${REMAINING_LIFE_WARNING_YEARS} year`,
      THRESHOLD_SOURCES.encplanWear,
      `At the wear rate seen so far (${used.value} % in ${Math.round(age?.hours ?? 0)} hours), the rated endurance is used up in about ${remainingYears} years.`,
      facts.tool,
      used.field,
    );
  }
  const days = hours === null || hours === 0 ? null : hours / 24;
  return {
    ...base,
    verdict: verdictOf(draft.findings, facts.implausibleFields ?? []),
    unavailable: null,
    selfAssessmentPassed: facts.selfAssessmentPassed?.value ?? null,
    percentageUsed: used?.value ?? null,
    availableSparePercent: spare,
    availableSpareThresholdPercent: spareThreshold,
    powerOnHours: hours,
    temperatureCelsius: facts.temperatureCelsius?.value ?? facts.nvme?.temperatureCelsius?.value ?? null,
    unsafeShutdowns: unsafe,
    dataWrittenBytes: written === null ? null : Number(written.bytes),
    dataWrittenBytesExact: exactOrNull(written?.bytes ?? null),
    writeBytesPerDay: written === null || days === null ? null : Math.round(Number(written.bytes) / days),
    estimatedRemainingLifeYears: remainingYears,
    remainingLifeBasis: remainingYears === null ? null : (age?.basis ?? null),
    findings: draft.findings,
  };
}

/** [derived] Wear so far took `hours`; the rest, (100 − p) %, at the same rate takes hours·(100 − p)/p. */
function remainingLifeYears(usedPercent: number | null, hours: number | null): number | null {
  if (usedPercent === null || hours === null || usedPercent <= 0 || usedPercent >= 100) {
    return null;
  }
  return Math.round(((hours * (100 - usedPercent)) / usedPercent / HOURS_PER_YEAR) * 10) / 10;
}

/**
 * The drive's age for life estimates, after cross-checking the counters that bound it. Power-on hours are used
 * unless another counter proves them wrong: the NVMe controller busy time (minutes with I/O outstanding, NVMe
 * Base Spec 2.0 log page 02h) can never exceed the power-on time, and the host can never have written faster on
 * average than the interface carries. A contradiction is a `counters-inconsistent` warning that says which
 * counter the estimate trusts; when none can be trusted there is no estimate.
 */
function driveAge(
  facts: SmartFacts,
  draft: Draft,
  hours: number | null,
  written: { bytes: bigint; field: string } | null,
): { hours: number; basis: NonNullable<Health['remainingLifeBasis']> } | null {
  const busyMinutes = facts.nvme?.controllerBusyMinutes ?? null;
  const busyHours = busyMinutes === null ? null : busyMinutes.value.value / 60;
  const hoursField = facts.powerOnHours?.field ?? facts.nvme?.powerOnHours?.field ?? null;
  if (hours !== null && busyHours !== null && busyMinutes !== null && busyHours > hours + 1) {
    add(
      draft,
      'counters-inconsistent',
      'warning',
      'controller_busy_time',
      busyMinutes.value.value,
      '<= power_on_hours × 60',
      THRESHOLD_SOURCES.nvmeSpec,
      `The controller reports ${Math.round(busyHours)} hours busy but only ${hours} hours powered on, which cannot both be true; the power-on hours are wrong. The life estimate uses the busy time, a lower bound of the drive's age.`,
      facts.tool,
      busyMinutes.field,
    );
    return { hours: busyHours, basis: 'controller-busy-time' };
  }
  if (hours !== null && written !== null) {
    const averageBytesPerSecond = Number(written.bytes) / Math.max(hours, 1) / 3600;
    if (averageBytesPerSecond > MAX_PLAUSIBLE_WRITE_BYTES_PER_SECOND) {
      add(
        draft,
        'counters-inconsistent',
        'warning',
        'power_on_hours',
        hours,
        'writes <= 15.75 GB/s on average',
        'PCI Express Base Specification 5.0 (32 GT/s, 128b/130b) × 4 lanes',
        `${(Number(written.bytes) / 1e12).toFixed(2)} TB written in ${hours} powered-on hours would be ${(averageBytesPerSecond / 1e9).toFixed(1)} GB/s on average, faster than any drive interface; the power-on hours are wrong, so no remaining life is estimated.`,
        facts.tool,
        hoursField,
      );
      return null;
    }
  }
  return hours === null ? null : { hours, basis: 'power-on-hours' };
}

function unsafeFromAta(facts: SmartFacts): number | null {
  // 174 Unexpect_Power_Loss_Ct (Micron/Crucial/SanDisk) and 192 Unsafe_Shutdown_Count (Phison) by name.
  const attribute = facts.ataAttributes.find((candidate) =>
    /Power_Loss|Unsafe_Shutdown/i.test(candidate.name),
  );
  return attribute?.raw?.value ?? null;
}

/** The health section when no tool could be asked at all (no smartctl, nvme-cli or hdparm). */
export function unavailableHealth(reason: SmartUnavailableReason, detail: string): Health {
  return {
    source: 'none',
    toolVersion: null,
    protocol: 'unknown',
    smartctlDeviceType: null,
    model: null,
    rotational: null,
    verdict: 'unknown',
    unavailable: { reason, detail },
    exitStatus: null,
    ...NO_MEASUREMENTS,
  };
}

/** One DATA_INCONSISTENT warning per value a field cannot hold (the value was left out of the report). */
export function implausibleValueWarnings(values: readonly ImplausibleValue[], source: string): Warning[] {
  return values.map((value) => ({
    code: 'DATA_INCONSISTENT',
    message: `${source} printed ${value.field} = ${value.value}, which that field cannot hold (expected ${value.expected}); the value was ignored and the drive is not judged healthy on this data.`,
    source,
  }));
}

/** The DATA_INCONSISTENT warning for `smartctl.exit_status` disagreeing with the process exit code. */
export function exitStatusMismatchWarning(mismatch: {
  readonly json: number;
  readonly process: number;
}): Warning {
  return {
    code: 'DATA_INCONSISTENT',
    message: `smartctl.exit_status is ${mismatch.json} but the process exited with ${mismatch.process}; the JSON value was used.`,
    source: 'smartctl',
  };
}

/** The SMART_UNAVAILABLE warning for a reason (a loop device, a RAID volume, a bridge, no permission). */
export function smartUnavailableWarning(
  reason: SmartUnavailableReason,
  detail: string,
  source: string | null,
): Warning {
  return { code: 'SMART_UNAVAILABLE', message: `SMART data unavailable (${reason}): ${detail}`, source };
}
