import {
  FLEET_ISSUE_LABELS,
  fitText,
  fleetIssueSchema,
  type FleetReport,
  type FleetRow,
} from '@encplan/core';

const SECTIONS: readonly { readiness: FleetRow['readiness']; title: string }[] = [
  { readiness: 'fix-first', title: 'Must fix first' },
  { readiness: 'not-assessed', title: 'Not assessed (document unusable or the assessment failed)' },
  { readiness: 'no-plan', title: 'Assessed, but no plan' },
  { readiness: 'ready', title: 'Ready to encrypt as planned' },
  { readiness: 'already-encrypted', title: 'Already encrypted (as strong as the plan)' },
];

/**
 * The fleet report for people: counts first, then each group with one line per disk and its plan below it,
 * fitted to `width` columns (a terminal's; null in a pipe leaves lines whole).
 */
export function renderFleetReport(report: FleetReport, width: number | null = null): string {
  const { summary } = report;
  const lines = [
    `${String(summary.documents)} documents, ${String(summary.machines)} machines: ${String(summary.ready)} ready, ${String(summary.fixFirst)} must fix first, ${String(summary.alreadyEncrypted)} already encrypted, ${String(summary.noPlan)} without a plan, ${String(summary.notAssessed)} not assessed.`,
  ];
  const issues = report.issueCounts.filter((entry) => entry.count > 0);
  if (issues.length > 0) {
    lines.push('', 'Issues:');
    for (const entry of issues) {
      lines.push(`  ${String(entry.count).padStart(4)}  ${entry.label} (${entry.issue})`);
    }
  }
  const unsupported = report.versions.filter((version) => !version.supported);
  if (report.versions.length > 1 || unsupported.length > 0) {
    lines.push('', 'Versions (not merged silently):');
    for (const version of report.versions) {
      lines.push(
        `  ${String(version.documents).padStart(4)}  ${version.schema} ${version.schemaVersion} from encplan ${version.toolVersion}${version.supported ? '' : '  ← not a version this encplan knows'}`,
      );
    }
  }
  for (const section of SECTIONS) {
    const rows = report.rows.filter((row) => row.readiness === section.readiness);
    if (rows.length === 0) {
      continue;
    }
    lines.push('', `${section.title} (${String(rows.length)}):`);
    for (const row of rows) {
      lines.push(...rowLines(row));
    }
  }
  return fitText(lines.join('\n'), width);
}

function rowLines(row: FleetRow): string[] {
  const issues =
    row.issues === ''
      ? ''
      : `  ${row.issues
          .split(';')
          .map((id) => FLEET_ISSUE_LABELS[fleetIssueSchema.parse(id)])
          .join(', ')}`;
  const version =
    row.documentStatus === 'valid'
      ? ''
      : `  [${row.documentStatus}${row.toolVersion === null ? '' : ` ${row.toolVersion}`}]`;
  const lines = [`  ${row.machine}  ${row.disk ?? '-'}${issues}${version}`];
  if (row.errorMessage !== null) {
    lines.push(`      ${row.errorCode ?? 'ERROR'}: ${row.errorMessage}`);
  }
  if (row.issueDetails !== '') {
    lines.push(...row.issueDetails.split(' | ').map((detail) => `      - ${detail}`));
  }
  if (row.planSummary !== null) {
    lines.push(`      plan: ${row.planSummary}  (${row.source})`);
  }
  return lines;
}
