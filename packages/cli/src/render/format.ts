/** Human formatting of numbers. JSON never goes through here: it keeps integer bytes (docs/json-contract.md). */

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** 1073741824 → "1.00 GiB"; binary units, as lsblk and cryptsetup print them. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) {
    return '—';
  }
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${bytes < 0 ? '-' : ''}${value.toFixed(digits)} ${BINARY_UNITS[unit] ?? 'B'}`;
}

/** A fixed-width table with a header row; columns are padded to their widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], indent = '  '): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    `${indent}${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** Yes/no for booleans in reports. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
