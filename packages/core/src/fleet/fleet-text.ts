import {
  FLEET_ISSUE_LABELS,
  type FleetReport,
  type FleetRow,
  type FleetTotals,
  type Readiness,
} from '../domain/fleet-report.js';
import { issuesOf } from './fleet-report.js';

/** The groups of the text report, in the order printed, with their titles and counts. */
export const FLEET_TEXT_SECTIONS: readonly {
  readonly readiness: Readiness;
  readonly title: string;
  readonly count: (totals: FleetTotals) => number;
}[] = [
  { readiness: 'fix-first', title: 'Must fix first', count: (totals) => totals.summary.fixFirst },
  {
    readiness: 'not-assessed',
    title: 'Not assessed (document unusable or the assessment failed)',
    count: (totals) => totals.summary.notAssessed,
  },
  { readiness: 'no-plan', title: 'Assessed, but no plan', count: (totals) => totals.summary.noPlan },
  { readiness: 'ready', title: 'Ready to encrypt as planned', count: (totals) => totals.summary.ready },
  {
    readiness: 'already-encrypted',
    title: 'Already encrypted (as strong as the plan)',
    count: (totals) => totals.summary.alreadyEncrypted,
  },
];

/** The text report's opening lines: counts, issues, versions. Each group follows (FLEET_TEXT_SECTIONS). */
export function fleetTextHead(totals: FleetTotals): string[] {
  const { summary } = totals;
  const lines = [
    `${String(summary.documents)} documents, ${String(summary.machines)} machines, ${String(summary.disks)} disks: ${String(summary.ready)} ready, ${String(summary.fixFirst)} must fix first, ${String(summary.alreadyEncrypted)} already encrypted, ${String(summary.noPlan)} without a plan, ${String(summary.notAssessed)} not assessed.`,
  ];
  const { linux, darwin, win32 } = summary.platforms;
  if (darwin + win32 > 0) {
    lines.push(`Platforms: ${String(linux)} Linux, ${String(darwin)} macOS, ${String(win32)} Windows disks.`);
  }
  if (summary.duplicateDisks > 0) {
    lines.push(
      `${String(summary.duplicateDisks)} disks are listed more than once for the same machine; each is counted once (the repeats say which row they repeat).`,
    );
  }
  if (totals.policy.methods.length > 0) {
    lines.push(`Policy: encryption method ${totals.policy.methods.join(' or ')}.`);
  }
  const issues = totals.issueCounts.filter((entry) => entry.count > 0);
  if (issues.length > 0) {
    lines.push('', 'Issues:');
    for (const entry of issues) {
      lines.push(`  ${String(entry.count).padStart(4)}  ${entry.label} (${entry.issue})`);
    }
  }
  const unsupported = totals.versions.filter((version) => !version.supported);
  if (totals.versions.length > 1 || unsupported.length > 0) {
    lines.push('', 'Versions (not merged silently):');
    for (const version of totals.versions) {
      lines.push(
        `  ${String(version.documents).padStart(4)}  ${version.schema} ${version.schemaVersion} from encplan ${version.toolVersion}${version.supported ? '' : '  ← not a version this encplan knows'}`,
      );
    }
  }
  return lines;
}

/** One disk's lines in its group: machine, disk and issues, then the error, the reasons and the plan. */
export function fleetTextRow(row: FleetRow): string[] {
  const issues = issuesOf(row);
  const issueText = issues.length === 0 ? '' : `  ${issues.map((id) => FLEET_ISSUE_LABELS[id]).join(', ')}`;
  const version =
    row.documentStatus === 'valid'
      ? ''
      : `  [${row.documentStatus}${row.toolVersion === null ? '' : ` ${row.toolVersion}`}]`;
  const repeat = row.duplicateOf === null ? '' : `  (repeats ${row.duplicateOf}; not counted)`;
  const lines = [`  ${row.machine}  ${row.disk ?? '-'}${issueText}${version}${repeat}`];
  if (row.errorMessage !== null) {
    lines.push(`      ${row.errorCode ?? 'ERROR'}: ${row.errorMessage}`);
  }
  if (row.issueDetails !== '') {
    lines.push(...row.issueDetails.split(' | ').map((detail) => `      - ${detail}`));
  }
  if (row.existingEncryption !== null) {
    const state = [
      row.encryptionMethod,
      row.protectionOn === null ? null : `protection ${row.protectionOn ? 'on' : 'off'}`,
      row.conversionInProgress === true ? 'conversion in progress' : null,
      row.keySlots === null ? null : `key slots ${row.keySlots}`,
    ].filter((part) => part !== null);
    lines.push(
      `      encrypted: ${row.existingEncryption}${state.length === 0 ? '' : ` (${state.join(', ')})`}`,
    );
  }
  if (row.planSummary !== null) {
    lines.push(`      plan: ${row.planSummary}  (${row.source})`);
  }
  return lines;
}

/** The whole text report for a report held in memory. */
export function renderFleetText(report: FleetReport): string {
  const lines = fleetTextHead(report);
  for (const section of FLEET_TEXT_SECTIONS) {
    const rows = report.rows.filter((row) => row.readiness === section.readiness);
    if (rows.length > 0) {
      lines.push('', `${section.title} (${String(section.count(report))}):`, ...rows.flatMap(fleetTextRow));
    }
  }
  return lines.join('\n');
}
