/**
 * Human formatting of the contract's unit-suffixed numbers, shared by the wizard and the HTML report.
 * The JSON keeps integer bytes and bytes/s; only views turn them into text (architecture 2.6).
 */

const MIB = 1024 * 1024;

/** "1.00 TB (931.5 GiB)": decimal as the drive's label says it, binary as the OS shows it. */
export function formatSizeBytes(bytes: number): string {
  const decimalUnits = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < decimalUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const decimal = unit === 0 ? `${String(bytes)} B` : `${value.toFixed(2)} ${decimalUnits[unit] ?? ''}`;
  if (bytes >= 1024 ** 4) {
    return `${decimal} (${(bytes / 1024 ** 4).toFixed(1)} TiB)`;
  }
  return bytes >= 1024 ** 3 ? `${decimal} (${(bytes / 1024 ** 3).toFixed(1)} GiB)` : decimal;
}

/** Rates in MiB/s, the unit fio and KDiskMark print (issue 4: "MiB, not MB"). */
export function formatRateBytesPerSecond(bytesPerSecond: number): string {
  return `${toMebibytesPerSecond(bytesPerSecond).toFixed(bytesPerSecond >= 100 * MIB ? 0 : 1)} MiB/s`;
}

/** bytes/s to MiB/s. */
export function toMebibytesPerSecond(bytesPerSecond: number): number {
  return bytesPerSecond / MIB;
}

/** "1 h 05 min", "42 s", "850 ms". */
export function formatDurationMs(ms: number): string {
  if (ms < 1000) {
    return `${String(Math.round(ms))} ms`;
  }
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) {
    return `${String(seconds)} s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) {
    return `${String(minutes)} min`;
  }
  return `${String(Math.floor(minutes / 60))} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Formats a number by the unit its field name carries (the contract's naming rule, architecture 2.8). */
export function formatByFieldName(fieldName: string, value: number): string {
  // "bytesPerSecond" and "readBytesPerSecond" carry the same unit: compare on the capitalised name.
  const name = fieldName.charAt(0).toUpperCase() + fieldName.slice(1);
  if (/BytesPerDay$/.test(name)) {
    return `${formatSizeBytes(value)} per day`;
  }
  if (/BytesPerSecond$/.test(name)) {
    return formatRateBytesPerSecond(value);
  }
  if (/Bytes$/.test(name)) {
    return formatSizeBytes(value);
  }
  if (/Ms$/.test(name)) {
    return formatDurationMs(value);
  }
  if (/Celsius$/.test(name)) {
    return `${String(value)} °C`;
  }
  // The health section's `percentageUsed` is NVMe's percentage_used (endurance used, percent).
  if (/(Percent|PercentageUsed)$/.test(name)) {
    return `${String(Math.round(value * 10) / 10)} %`;
  }
  if (/Hours$/.test(name)) {
    return `${value.toLocaleString('en-US')} h`;
  }
  if (/Years$/.test(name)) {
    return `${value.toFixed(1)} years`;
  }
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Math.round(value * 1000) / 1000);
}

/** "powerOnHours" -> "Power on hours" (unit words dropped where the value carries the unit). */
export function labelFromFieldName(fieldName: string): string {
  const trimmed = fieldName.replace(/(BytesPerSecond|BytesPerDay|Bytes|Ms|Celsius|Hours|Years)$/, '');
  const base = trimmed === '' ? fieldName : trimmed;
  const words = base.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
