import { fleetRowSchema, type FleetReport } from '../domain/fleet-report.js';

/** The CSV columns: exactly the JSON row's fields, in the schema's order. */
export const FLEET_CSV_COLUMNS = Object.keys(fleetRowSchema.shape) as (keyof FleetReport['rows'][number])[];

/**
 * The fleet report's rows as CSV (RFC 4180: comma separated, CRLF line ends, fields quoted when they hold a
 * comma, quote or line break). A text cell that a spreadsheet would run as a formula (leading =, +, -, @, tab
 * or CR; OWASP "CSV Injection") gets a leading apostrophe: file names and messages come from the machines.
 */
export function renderFleetCsv(report: FleetReport): string {
  const lines = [FLEET_CSV_COLUMNS.join(',')];
  for (const row of report.rows) {
    lines.push(FLEET_CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
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
