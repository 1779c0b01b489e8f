/** Human formatting of numbers. JSON never goes through here: it keeps integer bytes (docs/json-contract.md). */

/** A fixed-width table with a header row; columns are padded to their widest cell. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '  ',
): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    `${indent}${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
