/** One MiB in bytes. cryptsetup and fio report MiB/s (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c, KDiskMark src/helper.cpp, src/benchmark.cpp). */
export const MIB = 1_048_576;
/** One GiB in bytes. */
export const GIB = 1_073_741_824;

/**
 * The one unit formatter of encplan (issue 9): every view (CLI text, HTML report, desktop wizard) and every
 * rule's reason prints sizes and rates through these functions, so a size reads the same everywhere.
 * Sizes use IEC binary units (KiB, MiB, GiB, TiB, PiB = 1024^n bytes, IEC 80000-13), as lsblk, cryptsetup
 * and fio print them; rates use MiB/s, the unit cryptsetup benchmark and fio report.
 */
const IEC_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** "238.5 GiB", "4.0 KiB", "512 B": one decimal above bytes; never "1024.0 KiB" (that is "1.0 MiB"). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) {
    return 'unknown';
  }
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < IEC_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) {
    return `${sign}${String(Math.round(value))} B`;
  }
  // 1023.96 KiB rounds to "1024.0": show it as the next unit instead.
  if (Number(value.toFixed(1)) >= 1024 && unit < IEC_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${sign}${value.toFixed(1)} ${IEC_UNITS[unit] ?? 'PiB'}`;
}

/** "931.5 GiB (1000204886016 bytes)": the rounded size and the exact integer a script can read back. */
export function formatBytesExact(bytes: number): string {
  return Number.isSafeInteger(bytes) && Math.abs(bytes) >= 1024
    ? `${formatBytes(bytes)} (${String(bytes)} bytes)`
    : formatBytes(bytes);
}

/** "2334.9 MiB/s" for a rate in bytes/s (cryptsetup benchmark and fio print MiB/s); "512.0 KiB/s" below 1 MiB/s. */
export function formatRate(bytesPerSecond: number): string {
  if (!Number.isFinite(bytesPerSecond)) {
    return 'unknown';
  }
  return Math.abs(bytesPerSecond) < MIB
    ? `${formatBytes(bytesPerSecond)}/s`
    : `${(bytesPerSecond / MIB).toFixed(1)} MiB/s`;
}

/** bytes/s to MiB/s (chart values). */
export function toMebibytesPerSecond(bytesPerSecond: number): number {
  return bytesPerSecond / MIB;
}

/** "78.3 %" (one decimal; a percentage field's value is already in percent). */
export function formatPercent(percent: number, signed = false): string {
  if (!Number.isFinite(percent)) {
    return 'unknown';
  }
  const text = percent.toFixed(1);
  return `${signed && percent > 0 ? '+' : ''}${text === '-0.0' ? '0.0' : text} %`;
}

/** A short duration from milliseconds: "850 ms", "2.0 s", then {@link formatDuration}'s minutes, hours, days. */
export function formatDurationMs(ms: number): string {
  if (!Number.isFinite(ms)) {
    return 'forever';
  }
  if (ms < 1000) {
    return `${String(Math.round(ms))} ms`;
  }
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(ms / 1000);
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

/** "1 disk", "3 disks": a count with its noun in the right number (`plural` for irregular nouns). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${String(count)} ${count === 1 ? singular : plural}`;
}
