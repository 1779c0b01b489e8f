import { fleetRowSchema, type FleetReport, type FleetRow } from '../domain/fleet-report.js';

let columns: readonly (keyof FleetRow)[] | undefined;

/**
 * The CSV columns: exactly the JSON row's fields, in the schema's order. Read from the schema on first use, not
 * when the core is imported: the row's schema is 117 zod instances that only a fleet report needs (issue 28).
 */
export function fleetCsvColumns(): readonly (keyof FleetRow)[] {
  return (columns ??= Object.keys(fleetRowSchema.shape) as (keyof FleetRow)[]);
}

/** The header line, with its CRLF. */
export function fleetCsvHeader(): string {
  return `${fleetCsvColumns().join(',')}\r\n`;
}

/**
 * One row as a CSV line with its CRLF (RFC 4180: comma separated, fields quoted when they hold a comma, quote
 * or line break). A text cell that a spreadsheet would run as a formula (leading =, +, -, @, tab or CR; OWASP
 * "CSV Injection") gets a leading apostrophe: file names and messages come from the machines.
 */
export function fleetCsvLine(row: FleetRow): string {
  return `${fleetCsvColumns()
    .map((column) => csvCell(row[column]))
    .join(',')}\r\n`;
}

/** The fleet report's rows as CSV: the header, then one line per row. */
export function renderFleetCsv(report: FleetReport): string {
  return `${fleetCsvHeader()}${report.rows.map(fleetCsvLine).join('')}`;
}

function csvCell(value: string | number | boolean | null): string {
  if (value === null) {
    return '';
  }
  if (typeof value !== 'string') {
    return String(value);
  }
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
