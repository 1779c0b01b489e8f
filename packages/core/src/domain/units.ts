/** One MiB in bytes. cryptsetup and fio report MiB/s (reference-facts §1.1, §1.6). */
export const MIB = 1_048_576;
/** One GiB in bytes. */
export const GIB = 1_073_741_824;

/** "2334.9 MiB/s" style text for a rate in bytes/s (binary units, as cryptsetup prints them). */
export function formatRate(bytesPerSecond: number): string {
  return `${(bytesPerSecond / MIB).toFixed(1)} MiB/s`;
}

/** "238.5 GiB" / "512.0 MiB" style text for a size in bytes. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${String(bytes)} B` : `${value.toFixed(1)} ${units[unit] ?? ''}`;
}

const SECONDS_PER_YEAR = 365.25 * 24 * 3600;

/** A long duration in words: "0.4 s", "3.2 h", "81 days", "6.9 years", "2.2e+6 years". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) {
    return 'forever';
  }
  if (seconds < 60) {
    return `${seconds.toPrecision(2)} s`;
  }
  if (seconds < 3600) {
    return `${(seconds / 60).toFixed(1)} min`;
  }
  if (seconds < 86_400 * 2) {
    return `${(seconds / 3600).toFixed(1)} h`;
  }
  if (seconds < SECONDS_PER_YEAR) {
    return `${Math.round(seconds / 86_400).toString()} days`;
  }
  const years = seconds / SECONDS_PER_YEAR;
  if (years < 100) {
    return `${years.toPrecision(2)} years`;
  }
  return years < 1e6 ? `${Math.round(years).toString()} years` : `${years.toExponential(1)} years`;
}

const SIZE_UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  m: MIB,
  mib: MIB,
  g: GIB,
  gib: GIB,
  t: GIB * 1024,
  tib: GIB * 1024,
};

/** Parses "2147483648", "512MiB", "2GiB", "2G" (binary units) into integer bytes; null when not a size. */
export function parseByteSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const factor = match === null ? undefined : SIZE_UNITS[(match[2] ?? '').toLowerCase()];
  if (match === null || factor === undefined) {
    return null;
  }
  const bytes = Math.round(Number(match[1]) * factor);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : null;
}
