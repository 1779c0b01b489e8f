import { escapeHtml } from '../report/escape-html.js';
import {
  FLEET_ISSUE_LABELS,
  fleetIssueSchema,
  type FleetReport,
  type FleetRow,
  type Readiness,
} from '../domain/fleet-report.js';

const READINESS_LABELS: Readonly<Record<Readiness, string>> = {
  'fix-first': 'Must fix first',
  'not-assessed': 'Not assessed',
  'no-plan': 'No plan',
  ready: 'Ready to encrypt as planned',
  'already-encrypted': 'Already encrypted',
};

const READINESS_COLOURS: Readonly<Record<Readiness, string>> = {
  'fix-first': '#b3261e',
  'not-assessed': '#6d6d6d',
  'no-plan': '#8a6d00',
  ready: '#1e7b34',
  'already-encrypted': '#1f5fa8',
};

/** A self-contained HTML page (no scripts, no external resources): counts as SVG bar charts, then every row. */
export function renderFleetHtml(report: FleetReport, generatedAt: string): string {
  const readinessBars = (Object.keys(READINESS_LABELS) as Readiness[]).map((readiness) => ({
    label: READINESS_LABELS[readiness],
    count: report.rows.filter((row) => row.readiness === readiness).length,
    colour: READINESS_COLOURS[readiness],
  }));
  const issueBars = report.issueCounts.map((entry) => ({
    label: entry.label,
    count: entry.count,
    colour: '#b3261e',
  }));
  const versionRows = report.versions
    .map(
      (version) =>
        `<tr><td>${escapeHtml(version.schema)}</td><td>${escapeHtml(version.schemaVersion)}</td><td>${escapeHtml(version.toolVersion)}</td><td>${String(version.documents)}</td><td>${version.supported ? 'yes' : '<strong>no</strong>'}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>encplan fleet report</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.fix-first{color:#b3261e}.ready{color:#1e7b34}.not-assessed{color:#6d6d6d}code{font-size:90%}
</style>
</head>
<body>
<h1>encplan fleet report</h1>
<p>${String(report.summary.documents)} documents from ${String(report.summary.machines)} machines, generated ${escapeHtml(generatedAt)}.</p>
<h2>Readiness</h2>
${barChart('Machines and disks by readiness', readinessBars)}
<h2>What must be fixed</h2>
${barChart('Disks per issue (a disk can have several)', issueBars)}
<h2>Versions</h2>
<table><thead><tr><th>schema</th><th>version</th><th>encplan</th><th>documents</th><th>supported</th></tr></thead><tbody>
${versionRows}
</tbody></table>
<h2>Machines</h2>
<table><thead><tr><th>machine</th><th>disk</th><th>readiness</th><th>issues</th><th>plan</th></tr></thead><tbody>
${report.rows.map(rowHtml).join('\n')}
</tbody></table>
</body>
</html>
`;
}

function rowHtml(row: FleetRow): string {
  const issues =
    row.issues === ''
      ? []
      : row.issues.split(';').map((id) => FLEET_ISSUE_LABELS[fleetIssueSchema.parse(id)]);
  const problem =
    row.errorMessage === null
      ? ''
      : `<div>${escapeHtml(row.errorCode ?? '')}: ${escapeHtml(row.errorMessage)}</div>`;
  const details =
    row.issueDetails === '' ? '' : `<details><summary>why</summary>${escapeHtml(row.issueDetails)}</details>`;
  const plan =
    row.planSummary === null
      ? '—'
      : `<details><summary>${escapeHtml(row.planSummary)}</summary>from <code>${escapeHtml(row.source)}</code> (<code>jq .result.plan.commands</code>)</details>`;
  return `<tr><td>${escapeHtml(row.machine)}</td><td>${escapeHtml(row.disk ?? '—')}</td><td class="${row.readiness}">${escapeHtml(READINESS_LABELS[row.readiness])}${row.documentStatus === 'valid' ? '' : ` (${escapeHtml(row.documentStatus)})`}</td><td>${escapeHtml(issues.join(', '))}${details}${problem}</td><td>${plan}</td></tr>`;
}

/** A horizontal SVG bar chart with its numbers written out (readable without colour, and by screen readers). */
function barChart(title: string, bars: readonly { label: string; count: number; colour: string }[]): string {
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const rowHeight = 26;
  const labelWidth = 300;
  const barWidth = 360;
  const items = bars
    .map((bar, index) => {
      const y = index * rowHeight;
      const width = Math.round((bar.count / max) * barWidth);
      return `<g><text x="0" y="${String(y + 17)}">${escapeHtml(bar.label)}</text><rect x="${String(labelWidth)}" y="${String(y + 4)}" width="${String(width)}" height="18" fill="${bar.colour}"></rect><text x="${String(labelWidth + width + 6)}" y="${String(y + 17)}">${String(bar.count)}</text></g>`;
    })
    .join('');
  return `<svg role="img" aria-label="${escapeHtml(title)}" width="${String(labelWidth + barWidth + 60)}" height="${String(bars.length * rowHeight + 4)}" font-size="14"><title>${escapeHtml(title)}</title>${items}</svg>`;
}
