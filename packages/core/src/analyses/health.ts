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
import { HOST_WRITE_ATTRIBUTE_IDS, hostWriteUnitOf } from '../domain/ata-attribute-formats.js';
import type { ImplausibleValue } from '../parsers/smartctl/plausible-ranges.js';

/** Who set each threshold; every finding cites one (the original documents). */
const THRESHOLD_SOURCES = {
  scrutinyNvme: 'AnalogJ/scrutiny webapp/backend/pkg/thresholds/nvme_attributes.go',
  scrutinyAta:
    'AnalogJ/scrutiny webapp/backend/pkg/thresholds/ata_attributes.go (Backblaze-derived failure-rate buckets)',
  crystalDiskInfo: 'CrystalDiskInfo AtaSmart.cpp CheckDiskStatus',
  gsmartcontrol: 'GSmartControl src/applib/storage_property_descr_*.cpp',
  // Backblaze names SMART 5, 187, 188, 197 and 198 as its failure predictors: "What SMART Stats Tell Us About
  // Hard Drives" (2016-10-06, https://www.backblaze.com/blog/what-smart-stats-indicate-hard-drive-failures/) and
  // "Hard Drive SMART Stats" (2014-11-12, https://www.backblaze.com/blog/hard-drive-smart-stats/).
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
  dataWrittenUnit: null,
  wearSignals: [],
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
  const mediaLevel = mediaErrors === null ? null : levelOf(NVME_MEDIA_ERRORS_RULE, mediaErrors.value.value);
  if (mediaErrors !== null && mediaLevel !== null) {
    add(
      draft,
      NVME_MEDIA_ERRORS_RULE.rule,
      mediaLevel.severity,
      'media_errors',
      mediaErrors.value.value,
      mediaLevel.threshold,
      NVME_MEDIA_ERRORS_RULE.source,
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

/**
 * A counter rule of the one severity scale (docs/health-severity.md): counts at or above `failingAt` fail, at or
 * above `warningAt` warn, at or above `infoAt` only inform. The same rule judges the same failure whichever
 * protocol reports it (ATA attribute, NVMe log field, SCSI log page).
 */
export interface CounterRule {
  readonly rule: string;
  readonly failingAt: number | null;
  readonly warningAt: number | null;
  readonly infoAt: number | null;
  readonly source: string;
}

/**
 * Data the drive could not read back or write (ATA 187, 197, 198; NVMe media_errors; SCSI total uncorrected
 * errors): failing from the first. Backblaze's five predictive attributes include 187, 197 and 198; in Scrutiny's
 * Backblaze-derived buckets one 187 or one 197 already means an annual failure rate above 30 %. NVMe media_errors
 * counts "unrecovered data integrity errors" (NVMe Base Spec log page 02h bytes 160-175) and SCSI "total
 * uncorrected errors" counts the same for reads, writes and verifies (SPC-5 error counter log pages 02h/03h/05h).
 */
const UNCORRECTABLE = {
  failingAt: 1,
  warningAt: null,
  infoAt: null,
  source: `${THRESHOLD_SOURCES.backblaze}; ${THRESHOLD_SOURCES.scrutinyAta}`,
} as const;

/**
 * Defective blocks remapped to spare (ATA 5, SCSI grown defect list): a warning from the first, failing from 16.
 * Scrutiny's Backblaze buckets for attribute 5: raw 1-3 → 2.7 % annual failures, 4-15 → 7.5 %, 16-69 → 23.6 %
 * (above its 10 % "failed" line). The SCSI grown defect list (SBC READ DEFECT DATA, smartctl
 * `scsi_grown_defect_list`) is the same remapping on SAS/SCSI drives.
 */
const REMAPPED = {
  failingAt: 16,
  warningAt: 1,
  infoAt: null,
  source: `${THRESHOLD_SOURCES.scrutinyAta}; ${THRESHOLD_SOURCES.backblaze}`,
} as const;

/** Thresholds on ATA raw counts (read as smartctl means them, see ata-attribute-formats.ts), each with its source. */
const ATA_RAW_RULES: readonly (CounterRule & { readonly id: number; readonly meaning: string })[] = [
  { id: 5, rule: 'reallocated-sectors', ...REMAPPED, meaning: 'sectors were reallocated to spare area' },
  {
    id: 187,
    rule: 'reported-uncorrectable',
    ...UNCORRECTABLE,
    meaning: 'errors could not be corrected by ECC',
  },
  // 184: the drive found data corrupted between its host interface and the media (parity of its buffer path).
  // Not one of Backblaze's five; GSmartControl flags any raw > 0: a warning.
  {
    id: 184,
    rule: 'end-to-end-errors',
    failingAt: null,
    warningAt: 1,
    infoAt: null,
    source: THRESHOLD_SOURCES.gsmartcontrol,
    meaning: 'end-to-end data path errors (data corrupted inside the drive)',
  },
  // 188: Backblaze's fifth predictor. Scrutiny's Backblaze buckets: under 100 the annual failure rate is 2.5 %,
  // the same as a drive with none; from 100 it is 10 %, Scrutiny's "failed" line. So a few timeouts only inform,
  // 100 and more fail.
  {
    id: 188,
    rule: 'command-timeouts',
    failingAt: 100,
    warningAt: null,
    infoAt: 1,
    source: `${THRESHOLD_SOURCES.backblaze}; ${THRESHOLD_SOURCES.scrutinyAta}`,
    meaning: 'commands timed out',
  },
  // GSmartControl flags raw > 0 of 196; it counts remapping events, not remapped sectors.
  {
    id: 196,
    rule: 'reallocation-events',
    failingAt: null,
    warningAt: 1,
    infoAt: null,
    source: THRESHOLD_SOURCES.gsmartcontrol,
    meaning: 'reallocation events happened',
  },
  {
    id: 197,
    rule: 'pending-sectors',
    ...UNCORRECTABLE,
    meaning: 'sectors are waiting to be reallocated (unreadable)',
  },
  { id: 198, rule: 'offline-uncorrectable', ...UNCORRECTABLE, meaning: 'sectors failed the offline scan' },
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

/** The NVMe and SCSI counters on the same scale. */
export const NVME_MEDIA_ERRORS_RULE: CounterRule = {
  rule: 'nvme-media-errors',
  ...UNCORRECTABLE,
  source: `NVMe Base Spec media_errors, scale of ATA 187: ${THRESHOLD_SOURCES.backblaze}`,
};
export const SCSI_UNCORRECTED_RULE: CounterRule = {
  rule: 'scsi-uncorrected-errors',
  ...UNCORRECTABLE,
  source: `SPC-5 error counter log, scale of ATA 187: ${THRESHOLD_SOURCES.backblaze}`,
};
export const SCSI_GROWN_DEFECTS_RULE: CounterRule = {
  rule: 'scsi-grown-defects',
  ...REMAPPED,
  source: `SBC grown defect list, scale of ATA 5: ${THRESHOLD_SOURCES.scrutinyAta}`,
};
/** Every ATA counter rule, for docs/health-severity.md and its test. */
export const ATA_COUNTER_RULES = ATA_RAW_RULES;

/** The highest level a count reaches under a rule; info levels cite no threshold. */
function levelOf(
  rule: CounterRule,
  count: number,
): { severity: FindingSeverity; threshold: string | null } | null {
  if (rule.failingAt !== null && count >= rule.failingAt) {
    return { severity: 'failing', threshold: `>= ${rule.failingAt}` };
  }
  if (rule.warningAt !== null && count >= rule.warningAt) {
    return { severity: 'warning', threshold: `>= ${rule.warningAt}` };
  }
  if (rule.infoAt !== null && count >= rule.infoAt) {
    return { severity: 'info', threshold: null };
  }
  return null;
}

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
    const count = attribute.count ?? rawNumber(attribute);
    if (rule === undefined || count === null) {
      continue;
    }
    const level = levelOf(rule, count);
    if (level !== null) {
      const reading =
        attribute.countReading === null ||
        attribute.countReading === undefined ||
        attribute.countReading === 'raw value'
          ? ''
          : ` (${attribute.countReading})`;
      add(
        draft,
        `ata-${rule.rule}`,
        level.severity,
        attributeLabel(attribute),
        count,
        level.threshold === null ? null : `raw ${level.threshold}`,
        rule.source,
        `${count} ${rule.meaning}${reading}.`,
        origin,
        `${field}.raw`,
      );
    }
  }
}

function analyseScsi(facts: SmartFacts, draft: Draft): void {
  const scsi = facts.scsi;
  if (scsi === null) {
    return;
  }
  const defects = scsi.grownDefects;
  const defectLevel = defects === null ? null : levelOf(SCSI_GROWN_DEFECTS_RULE, defects.value);
  if (defects !== null && defectLevel !== null) {
    add(
      draft,
      SCSI_GROWN_DEFECTS_RULE.rule,
      defectLevel.severity,
      'scsi_grown_defect_list',
      defects.value,
      defectLevel.threshold,
      SCSI_GROWN_DEFECTS_RULE.source,
      `${defects.value} blocks were added to the grown defect list (remapped to spare, as ATA attribute 5).`,
      facts.tool,
      defects.field,
    );
  }
  for (const errors of scsi.uncorrectedErrors) {
    const level = levelOf(SCSI_UNCORRECTED_RULE, errors.value);
    if (level !== null) {
      add(
        draft,
        SCSI_UNCORRECTED_RULE.rule,
        level.severity,
        errors.field.replace('scsi_error_counter_log.', ''),
        errors.value,
        level.threshold,
        SCSI_UNCORRECTED_RULE.source,
        `${errors.value} ${errors.field.split('.')[1] ?? ''} errors could not be corrected.`,
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

/** One wear signal: percent of rated endurance used, as one counter tells it. */
interface WearSignal {
  readonly signal: string;
  readonly percentUsed: number;
  readonly field: string;
}

/**
 * Wear signals that differ by more than this many percentage points disagree. Vendors derive them from different
 * counters (average erase count, spare blocks used, a host-write budget) and print whole percents, so a few points
 * apart is normal; ten points is one wear tier (80 → 90 %), past which the tier would depend on which counter is read.
 */
export const WEAR_SIGNAL_TOLERANCE_POINTS = 10;

/**
 * Raw life-left counters in percent, by drivedb family: Phison's 231 SSD_Life_Left raw is the remaining life in
 * percent ("Phison Driven SSDs" entry of smartmontools drivedb.h, "see MKP_521_Phison_SMART_attribute.pdf"), while
 * its normalised value may stay at 100 (fixture sata-ssd-kingston-kc400-1tb-wear-signals-disagree-v7.3: value 100,
 * raw 74, average erase count 808).
 */
const RAW_LIFE_LEFT: readonly { readonly family: string; readonly id: number; readonly name: RegExp }[] = [
  { family: 'Phison Driven SSDs', id: 231, name: /^SSD_Life_Left$/ },
];

/**
 * The most endurance any drive is rated for: 100 drive writes per day for 5 years (Intel Optane SSD DC P5800X
 * product brief), 182 500 full-drive writes. A percentage used that would need a higher rating for the writes
 * the drive reports disagrees with them.
 */
const MAX_RATED_DRIVE_WRITES = 100 * 365 * 5;

/** Every wear signal the drive gives, best-defined first (the NVMe/ATA/SCSI standard fields, then vendors'). */
function wearSignals(facts: SmartFacts): WearSignal[] {
  const signals: WearSignal[] = [];
  const direct: (Sourced<number> | null)[] = [
    facts.nvme?.percentageUsed ?? null,
    facts.enduranceUsedPercent,
    facts.ataPercentageUsed,
    facts.scsi?.percentageUsed ?? null,
  ];
  const seen = new Set<string>();
  for (const candidate of direct) {
    if (candidate !== null && !seen.has(candidate.field)) {
      seen.add(candidate.field);
      signals.push({
        signal: candidate.field.split('.').pop() ?? candidate.field,
        percentUsed: candidate.value,
        field: candidate.field,
      });
    }
  }
  // smartctl 7.5 copies percentage_used into endurance_used: one signal, not two that agree.
  const unique = signals.filter(
    (signal, index) =>
      signal.field !== 'endurance_used.current_percent' ||
      !signals.some((other, at) => at !== index && other.percentUsed === signal.percentUsed),
  );
  if (isSolidState(facts) !== true) {
    return unique;
  }
  for (const id of WEAR_ATTRIBUTE_IDS) {
    const attribute = facts.ataAttributes.find(
      (candidate) => candidate.id === id && WEAR_NAME.test(candidate.name),
    );
    if (attribute !== undefined && attribute.value !== null && attribute.value <= 100) {
      unique.push({
        signal: `${attributeLabel(attribute)} (normalised)`,
        percentUsed: 100 - attribute.value,
        field: `ata_smart_attributes.table[id=${attribute.id}].value`,
      });
    }
  }
  for (const rule of RAW_LIFE_LEFT) {
    const attribute = facts.ataAttributes.find(
      (candidate) => candidate.id === rule.id && rule.name.test(candidate.name),
    );
    const count = attribute?.count ?? null;
    if (facts.modelFamily === rule.family && attribute !== undefined && count !== null && count <= 100) {
      unique.push({
        signal: `${attributeLabel(attribute)} (raw, life left)`,
        percentUsed: 100 - count,
        field: `ata_smart_attributes.table[id=${attribute.id}].raw`,
      });
    }
  }
  return unique;
}

/** The worst signal decides; the finding says which disagree, never which counter is wrong. */
function judgeWearSignals(
  facts: SmartFacts,
  draft: Draft,
  signals: readonly WearSignal[],
  written: DataWritten | null,
): { used: { value: number; field: string; attribute: string } | null; agree: boolean } {
  if (signals.length === 0) {
    return { used: null, agree: true };
  }
  const worst = signals.reduce((a, b) => (b.percentUsed > a.percentUsed ? b : a));
  const best = signals.reduce((a, b) => (b.percentUsed < a.percentUsed ? b : a));
  let agree = true;
  if (worst.percentUsed - best.percentUsed > WEAR_SIGNAL_TOLERANCE_POINTS) {
    agree = false;
    add(
      draft,
      'wear-signals-disagree',
      'info',
      signals.map((signal) => signal.signal).join(' / '),
      worst.percentUsed,
      `spread <= ${WEAR_SIGNAL_TOLERANCE_POINTS} percentage points`,
      'encplan wear-signal tolerance, docs/health-severity.md',
      `The drive's wear counters disagree: ${signals.map((signal) => `${signal.signal} says ${signal.percentUsed} % used`).join(', ')}. The file cannot tell which is right, so the worse (${worst.percentUsed} %) is used and no remaining life is estimated.`,
      facts.tool,
      worst.field,
    );
  }
  const capacity = facts.userCapacityBytes;
  if (written !== null && capacity !== null && capacity > 0) {
    const driveWrites = Number(written.bytes) / capacity;
    // Percentages are whole numbers: the true value is below p + 1.
    const impliedRating = (driveWrites * 100) / (worst.percentUsed + 1);
    if (impliedRating > MAX_RATED_DRIVE_WRITES) {
      agree = false;
      add(
        draft,
        'wear-signals-disagree',
        'info',
        `${worst.signal} / ${written.unit.attribute}`,
        worst.percentUsed,
        `full-drive writes × 100 / (used + 1) <= ${MAX_RATED_DRIVE_WRITES}`,
        'Intel Optane SSD DC P5800X product brief (100 drive writes per day for 5 years, the highest rating sold)',
        `${worst.signal} says ${worst.percentUsed} % used, but the ${formatBytes(Number(written.bytes))} written are ${Math.round(driveWrites)} full-drive writes, which no drive is rated to take at that wear. The counters disagree; no remaining life is estimated.`,
        facts.tool,
        written.field,
      );
    }
  }
  return {
    used: {
      value: worst.percentUsed,
      field: worst.field,
      attribute: worst.signal,
    },
    agree,
  };
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

/** Bytes written by the host, exact, with the counter, its raw figure and unit. */
interface DataWritten {
  readonly bytes: bigint;
  readonly field: string;
  readonly unit: NonNullable<Health['dataWrittenUnit']>;
}

function dataWritten(facts: SmartFacts): DataWritten | null {
  const units = facts.nvme?.dataUnitsWritten ?? null;
  if (units !== null) {
    return {
      bytes: units.value.exact * NVME_DATA_UNIT_BYTES,
      field: units.field,
      unit: {
        attribute: 'data_units_written',
        raw: units.value.exact.toString(),
        unit: 'units of 512 000 bytes',
        source: 'NVM Express Base Specification 2.0, SMART / Health Information log, Data Units Written',
      },
    };
  }
  const scsiWritten = facts.scsi?.bytesWritten ?? null;
  if (scsiWritten !== null) {
    return {
      bytes: scsiWritten.value,
      field: scsiWritten.field,
      unit: {
        attribute: 'write.gigabytes_processed',
        raw: (Number(scsiWritten.value) / 1e9).toFixed(3),
        unit: '10^9 bytes',
        source: 'smartctl scsiprint.cpp (gigabytes processed, "%.3f" of 10^9 bytes)',
      },
    };
  }
  const blockBytes = BigInt(facts.logicalBlockSizeBytes ?? 512);
  const family = facts.modelFamily ?? null;
  const known = facts.ataAttributes.flatMap((attribute) => {
    const unit = HOST_WRITE_ATTRIBUTE_IDS.some((id) => id === attribute.id)
      ? hostWriteUnitOf(attribute.id, attribute.name, family, facts.inDriveDatabase)
      : null;
    return unit === null || attribute.raw === null ? [] : [{ attribute, unit, raw: attribute.raw.exact }];
  });
  for (const id of HOST_WRITE_ATTRIBUTE_IDS) {
    const candidate = known.find((entry) => entry.attribute.id === id);
    if (candidate === undefined) {
      continue;
    }
    let { unit } = candidate;
    // A "logical blocks" counter that equals a 32 MiB counter of the same drive counts 32 MiB units: the drive
    // database left it at the DEFAULT name (e.g. Intel DC drives sold under another family name).
    const twin = known.find(
      (other) =>
        other !== candidate &&
        other.unit.bytesPerUnit === 33_554_432n &&
        other.raw === candidate.raw &&
        candidate.raw > 0n,
    );
    if (unit.bytesPerUnit === 'logical-block' && twin !== undefined) {
      unit = {
        ...twin.unit,
        source: `equal to ${attributeLabel(twin.attribute)} on the same drive (${twin.unit.source})`,
      };
    }
    const bytesPerUnit = unit.bytesPerUnit === 'logical-block' ? blockBytes : unit.bytesPerUnit;
    const label =
      unit.bytesPerUnit === 'logical-block' ? `logical blocks of ${blockBytes.toString()} bytes` : unit.label;
    return {
      bytes: candidate.raw * bytesPerUnit,
      field: `ata_smart_attributes.table[id=${id}].raw.value`,
      unit: {
        attribute: attributeLabel(candidate.attribute),
        raw: candidate.raw.toString(),
        unit: label,
        source: unit.source,
      },
    };
  }
  return null;
}

function analyseUsage(
  facts: SmartFacts,
  draft: Draft,
  hours: number | null,
  written: DataWritten | null,
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
      `The host has written ${formatBytes(Number(written.bytes))} (${written.unit.attribute}: ${written.unit.raw} ${written.unit.unit}).`,
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
  const written = dataWritten(facts);
  const signals = wearSignals(facts);
  const wear = judgeWearSignals(facts, draft, signals, written);
  const used = wear.used;
  analyseWear(facts, draft, used);
  analyseTemperature(facts, draft);
  const hours = powerOnHours(facts);
  analyseUsage(facts, draft, hours, written);
  const unsafe = facts.nvme?.unsafeShutdowns?.value.value ?? unsafeFromAta(facts);
  const spare =
    facts.nvme?.availableSparePercent?.value ?? facts.spareAvailable?.currentPercent.value ?? null;
  const spareThreshold =
    facts.nvme?.availableSpareThresholdPercent?.value ?? facts.spareAvailable?.thresholdPercent ?? null;
  const age = driveAge(facts, draft, hours, written);
  const remainingYears = wear.agree ? remainingLifeYears(used?.value ?? null, age?.hours ?? null) : null;
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
    dataWrittenUnit: written?.unit ?? null,
    wearSignals: signals.map((signal) => ({ ...signal })),
    writeBytesPerDay: written === null || days === null ? null : Math.round(Number(written.bytes) / days),
    estimatedRemainingLifeYears: remainingYears,
    remainingLifeBasis: remainingYears === null ? null : (age?.basis ?? null),
    findings: draft.findings,
  };
}

/**
 * Below this percentage used no remaining life is extrapolated: percentage_used and the vendor life attributes are
 * whole percents (NVMe Base Spec 2.0 log page 02h byte 5), so at p % the true wear lies anywhere in [p, p + 1) and
 * the extrapolation hours·(100 − p)/p is off by up to 1/p: at 5 % that is 20 %, at 1 % a factor of two.
 */
export const MIN_PERCENT_FOR_LIFE_ESTIMATE = 5;

/** [derived] Wear so far took `hours`; the rest, (100 − p) %, at the same rate takes hours·(100 − p)/p. */
function remainingLifeYears(usedPercent: number | null, hours: number | null): number | null {
  if (
    usedPercent === null ||
    hours === null ||
    usedPercent < MIN_PERCENT_FOR_LIFE_ESTIMATE ||
    usedPercent >= 100
  ) {
    return null;
  }
  return Math.round(((hours * (100 - usedPercent)) / usedPercent / HOURS_PER_YEAR) * 10) / 10;
}

/**
 * The drive's age for life estimates, after cross-checking the counters that bound it: the NVMe controller busy
 * time (minutes with I/O outstanding, NVMe Base Spec 2.0 log page 02h) cannot exceed the power-on time, and the
 * host cannot have written faster on average than the interface carries. When they contradict each other a
 * `counters-inconsistent` finding names both, without claiming which is wrong (the file cannot prove it), and no
 * remaining life is estimated.
 */
function driveAge(
  facts: SmartFacts,
  draft: Draft,
  hours: number | null,
  written: DataWritten | null,
): { hours: number; basis: NonNullable<Health['remainingLifeBasis']> } | null {
  const busyMinutes = facts.nvme?.controllerBusyMinutes ?? null;
  const busyHours = busyMinutes === null ? null : busyMinutes.value.value / 60;
  const hoursField = facts.powerOnHours?.field ?? facts.nvme?.powerOnHours?.field ?? null;
  if (hours !== null && busyHours !== null && busyMinutes !== null && busyHours > hours + 1) {
    add(
      draft,
      'counters-inconsistent',
      'warning',
      'controller_busy_time / power_on_hours',
      busyMinutes.value.value,
      '<= power_on_hours × 60',
      THRESHOLD_SOURCES.nvmeSpec,
      `The controller reports ${Math.round(busyHours)} hours busy but ${hours} hours powered on; busy time cannot exceed powered-on time, so these counters disagree and the file cannot tell which one is right. No remaining life is estimated.`,
      facts.tool,
      busyMinutes.field,
    );
    return null;
  }
  if (hours !== null && written !== null) {
    const averageBytesPerSecond = Number(written.bytes) / Math.max(hours, 1) / 3600;
    if (averageBytesPerSecond > MAX_PLAUSIBLE_WRITE_BYTES_PER_SECOND) {
      add(
        draft,
        'counters-inconsistent',
        'warning',
        `power_on_hours / ${written.unit.attribute}`,
        hours,
        'writes <= 15.75 GB/s on average',
        'PCI Express Base Specification 5.0 (32 GT/s, 128b/130b) × 4 lanes',
        `${(Number(written.bytes) / 1e12).toFixed(2)} TB written in ${hours} powered-on hours would be ${(averageBytesPerSecond / 1e9).toFixed(1)} GB/s on average, faster than any drive interface: the write counter and the power-on hours disagree and the file cannot tell which one is right. No remaining life is estimated.`,
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
