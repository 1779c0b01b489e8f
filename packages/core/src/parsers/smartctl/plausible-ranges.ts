import { isJsonObject, type JsonObject } from '../json-reader.js';

/** A value a tool printed that its field cannot hold: wrong type, not finite, or outside the field's range. */
export interface ImplausibleValue {
  /** The JSON path, e.g. `nvme_smart_health_information_log.temperature`. */
  readonly field: string;
  /** What was printed, as JSON text (so 1e308, -1, "bogus" and Infinity all show as given). */
  readonly value: string;
  /** The range the field can hold, and where that range comes from. */
  readonly expected: string;
}

interface Range {
  readonly min: number | bigint;
  readonly max: number | bigint;
  /** Why: the specification's field width and unit. */
  readonly basis: string;
}

const U8 = 255;
const U56 = 2n ** 56n - 1n;
const U128 = 2n ** 128n - 1n;

// Field widths and units (the plausible range is what the field can hold, nothing narrower):
// - NVMe Base Specification 2.0c, Figure 207 "SMART / Health Information (Log Page Identifier 02h)": Critical
//   Warning byte 0 (8 bits); Composite Temperature bytes 2:1 in kelvins (16 bits, so −273..65262 °C as smartctl
//   prints it); Available Spare and Available Spare Threshold bytes 3 and 4, "normalized percentage (0% to
//   100%)"; Percentage Used byte 5 (may exceed 100, at most 255); Data Units Written, Power On Hours, Unsafe
//   Shutdowns, Media and Data Integrity Errors, Number of Error Information Log Entries: 16 bytes (128 bits) each.
// - ATA: SMART attribute entries (SFF-8035i rev 2, the layout ATA/ATAPI drives use): normalised value, worst
//   and threshold one byte each, raw value 6 bytes (up to 8 with smartctl's raw64 format). ACS-3 §9.5 Device Statistics log: page 07h
//   "Percentage Used Endurance Indicator" one byte (0..255).
// - smartctl(8) EXIT STATUS: a bit mask of bits 0..7 (0..255).
const TEMPERATURE_CELSIUS: Range = {
  min: -273,
  max: 65_535 - 273,
  basis: 'a 16-bit kelvin field (NVMe) or a byte (ATA)',
};
const PERCENT_NORMALISED: Range = {
  min: 0,
  max: 100,
  basis: 'a normalised percentage, 0 to 100 (NVMe Available Spare)',
};
const PERCENT_USED: Range = {
  min: 0,
  max: U8,
  basis: 'one byte (NVMe Percentage Used, ATA Percentage Used Endurance Indicator)',
};
const NVME_COUNTER: Range = { min: 0, max: U128, basis: 'a 128-bit NVMe counter' };
const ATA_BYTE: Range = { min: 0, max: U8, basis: 'one byte of an ATA SMART attribute' };
// The raw field is 6 bytes, but smartctl's -v ID,raw56/raw64 formats fold the reserved, value and worst bytes in
// (smartctl(8) -v; fixture sata-hdd-seagate-exos-x16-v7.1 attribute 240 prints a 52-bit raw value): 64 bits.
const ATA_RAW: Range = {
  min: 0,
  max: 2n ** 64n - 1n,
  basis: 'the raw value of an ATA SMART attribute, at most 64 bits as smartctl reads it',
};

/** Paths into smartctl's JSON (`*` = every element of an array) and the range each field can hold. */
const SMARTCTL_RANGES: readonly (readonly [string, Range])[] = [
  ['smartctl.exit_status', { min: 0, max: U8, basis: 'the 8-bit exit status bit mask of smartctl(8)' }],
  ['temperature.current', TEMPERATURE_CELSIUS],
  ['power_on_time.hours', NVME_COUNTER],
  ['spare_available.current_percent', PERCENT_NORMALISED],
  ['spare_available.threshold_percent', PERCENT_NORMALISED],
  ['endurance_used.current_percent', PERCENT_USED],
  [
    'nvme_smart_health_information_log.critical_warning',
    { min: 0, max: U8, basis: 'the 8-bit NVMe Critical Warning field' },
  ],
  ['nvme_smart_health_information_log.temperature', TEMPERATURE_CELSIUS],
  ['nvme_smart_health_information_log.available_spare', PERCENT_NORMALISED],
  ['nvme_smart_health_information_log.available_spare_threshold', PERCENT_NORMALISED],
  ['nvme_smart_health_information_log.percentage_used', PERCENT_USED],
  ['nvme_smart_health_information_log.data_units_written', NVME_COUNTER],
  ['nvme_smart_health_information_log.data_units_read', NVME_COUNTER],
  ['nvme_smart_health_information_log.power_on_hours', NVME_COUNTER],
  ['nvme_smart_health_information_log.unsafe_shutdowns', NVME_COUNTER],
  ['nvme_smart_health_information_log.media_errors', NVME_COUNTER],
  ['nvme_smart_health_information_log.num_err_log_entries', NVME_COUNTER],
  ['ata_smart_attributes.table.*.value', ATA_BYTE],
  ['ata_smart_attributes.table.*.worst', ATA_BYTE],
  ['ata_smart_attributes.table.*.thresh', ATA_BYTE],
  ['ata_smart_attributes.table.*.raw.value', ATA_RAW],
  [
    'ata_device_statistics.pages.*.table.*.value',
    {
      min: 0,
      max: U56,
      basis: 'the 56-bit value of an ATA device statistic (ACS-3 §9.5: bits 55:0 of its QWORD)',
    },
  ],
  ['scsi_grown_defect_list', { min: 0, max: 2 ** 32 - 1, basis: 'a 32-bit SCSI defect count' }],
  ['scsi_percentage_used_endurance_indicator', PERCENT_USED],
];

function inRange(value: unknown, range: Range): boolean {
  if (typeof value === 'number') {
    // Integers only: every field in the table is an integer count, percentage or temperature.
    return (
      Number.isFinite(value) &&
      Number.isInteger(value) &&
      value >= Number(range.min) &&
      value <= Number(range.max)
    );
  }
  if (typeof value === 'string' && /^-?\d{1,45}$/.test(value)) {
    // smartctl's `_s` twins and some counters are decimal strings (smartctl(8) `--json=v`).
    const exact = BigInt(value);
    return exact >= BigInt(range.min) && exact <= BigInt(range.max);
  }
  return false;
}

function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return String(value);
  }
  return JSON.stringify(value) ?? String(value);
}

/**
 * Returns a copy of a smartctl JSON document without the values its fields cannot hold, and the list of
 * those values. The readers then see such a field as absent, so no implausible number reaches a report, a
 * verdict or a plan; the caller turns the list into DATA_INCONSISTENT warnings.
 */
export function withoutImplausibleValues(document: JsonObject): {
  document: JsonObject;
  implausible: ImplausibleValue[];
} {
  const implausible: ImplausibleValue[] = [];
  const copy = structuredClone(document) as Record<string, unknown>;
  for (const [pattern, range] of SMARTCTL_RANGES) {
    visit(copy, pattern.split('.'), [], (holder, key, field) => {
      const value = holder[key];
      if (value === undefined || value === null) {
        return;
      }
      // A `_s` twin holds the exact decimal of the same field; check it with the same range.
      for (const [name, candidate] of [
        [key, value],
        [`${key}_s`, holder[`${key}_s`]],
      ] as const) {
        if (candidate !== undefined && !inRange(candidate, range)) {
          implausible.push({
            field: name === key ? field : `${field}_s`,
            value: shown(candidate),
            expected: `${String(range.min)}..${String(range.max)}, ${range.basis}`,
          });
          delete holder[key];
          delete holder[`${key}_s`];
          break;
        }
      }
    });
  }
  return { document: copy, implausible };
}

function visit(
  node: unknown,
  rest: readonly string[],
  trail: readonly string[],
  onField: (holder: Record<string, unknown>, key: string, field: string) => void,
): void {
  const [head, ...tail] = rest;
  if (head === undefined) {
    return;
  }
  if (head === '*') {
    if (Array.isArray(node)) {
      node.forEach((element, index) => {
        visit(element, tail, [...trail.slice(0, -1), `${trail.at(-1) ?? ''}[${String(index)}]`], onField);
      });
    }
    return;
  }
  if (!isJsonObject(node)) {
    return;
  }
  if (tail.length === 0) {
    onField(node, head, [...trail, head].join('.'));
    return;
  }
  visit(node[head], tail, [...trail, head], onField);
}
