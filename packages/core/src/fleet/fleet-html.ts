import { countOf } from '../domain/units.js';
import { escapeHtml } from '../report/escape-html.js';
import {
  FLEET_ISSUE_LABELS,
  type FleetReport,
  type FleetRow,
  type FleetTotals,
  type Readiness,
} from '../domain/fleet-report.js';
import type { BarView, ChartRenderer } from '../report/report-charts.js';
import { issuesOf } from './fleet-report.js';
import { fileLevelWords, protectionWord, storageLayout } from './fleet-text.js';

const READINESS_LABELS: Readonly<Record<Readiness, string>> = {
  'fix-first': 'Must fix first',
  'not-assessed': 'Not assessed',
  'no-plan': 'No plan',
  ready: 'Ready to encrypt as planned',
  'already-encrypted': 'Already encrypted',
};

/** The tone of each readiness, as the disk report's badges (report/html-report.ts) colour them. */
const READINESS_TONES: Readonly<Record<Readiness, NonNullable<BarView['tone']>>> = {
  'fix-first': 'bad',
  'not-assessed': 'unknown',
  'no-plan': 'attention',
  ready: 'good',
  'already-encrypted': 'info',
};

/**
 * The disk report's palette (report/html-report.ts): light and dark themes (prefers-color-scheme), text at WCAG
 * 2.1 AA contrast (≥ 4.5:1, SC 1.4.3) in both, bars at ≥ 3:1 against the page (SC 1.4.11), and a print sheet
 * (black on white with the light theme's badges and bars whatever the system's scheme, A4, rows never split,
 * the long table's header repeated on every page). The disks table is set a little smaller and its longest
 * identifiers (key slots of several volumes, layer paths, the file a repeat names, an error code) may break
 * anywhere, so its 13 columns fit a 1280-pixel laptop window instead of scrolling the page sideways. Print opens every folded part (the issues' why, the
 * volumes, the plan's source): paper cannot be clicked. Chromium hides a closed <details> body behind its
 * ::details-content slot (content-visibility: hidden; CSS Pseudo-Elements Level 4, "::details-content"), so
 * that is what print makes visible.
 */
const LIGHT_TONES = `--good-bg:#e3f4e8;--good-fg:#14532d;--attention-bg:#fff4d6;--attention-fg:#6b3e00;--bad-bg:#fde2e1;
--bad-fg:#8a1c1c;--unknown-bg:#ececec;--unknown-fg:#333;--info-bg:#e5eefa;--info-fg:#0b3d66`;
const STYLE = `
:root{color-scheme:light dark;--fg:#1a1a1a;--muted:#4d4d4d;--bg:#fff;--line:#d6d6d6;
${LIGHT_TONES}}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--muted:#b8b8b8;--bg:#141414;--line:#3a3a3a;
--good-bg:#12361f;--good-fg:#a7e8bd;--attention-bg:#3d2c05;--attention-fg:#ffd98a;--bad-bg:#441616;
--bad-fg:#ffb4b0;--unknown-bg:#333;--unknown-fg:#e0e0e0;--info-bg:#0f2a44;--info-fg:#b5d5f5}}
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;padding:1.5rem;color:var(--fg);background:var(--bg)}
h1{font-size:1.45rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid var(--line)}
.meta{color:var(--muted)}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
td.number{text-align:right;font-variant-numeric:tabular-nums}code,.id{overflow-wrap:anywhere}code{font-size:90%}td.id{min-width:8em}
table.disks{font-size:.875rem}.disks td,.disks th{padding:.25rem .35rem}
.badge{display:inline-block;padding:0 .4rem;border-radius:.25rem;font-weight:600;font-size:.9em}
.tone-good{background:var(--good-bg);color:var(--good-fg)}.tone-attention{background:var(--attention-bg);color:var(--attention-fg)}
.tone-bad{background:var(--bad-bg);color:var(--bad-fg)}.tone-unknown{background:var(--unknown-bg);color:var(--unknown-fg)}
.tone-info{background:var(--info-bg);color:var(--info-fg)}
svg{max-width:100%;height:auto;color:var(--fg)}svg text{fill:currentColor}
svg .bar-good{fill:var(--good-fg)}svg .bar-attention{fill:var(--attention-fg)}svg .bar-bad{fill:var(--bad-fg)}
svg .bar-unknown{fill:var(--muted)}svg .bar-info{fill:var(--info-fg)}
@media print{:root{--fg:#000;--muted:#333;--bg:#fff;--line:#999;
${LIGHT_TONES}}body{font-size:8pt;line-height:1.3;padding:0}
h2{break-after:avoid;margin-top:1rem}tr,figure{break-inside:avoid}thead{display:table-header-group}
th,td{padding:.05rem .25rem}details::details-content{content-visibility:visible;display:block}
summary{list-style:none}svg{max-width:70%}}
@page{size:A4 landscape;margin:12mm}
`;

/**
 * The page down to the opening of the rows' table: counts as SVG bar charts, versions, the policy. Written
 * once every row is known; the rows follow (fleetHtmlRow each), then FLEET_HTML_END. Self-contained: no
 * scripts, no external resources.
 */
export function fleetHtmlStart(totals: FleetTotals, generatedAt: string, renderChart: ChartRenderer): string {
  const counts: Readonly<Record<Readiness, number>> = {
    'fix-first': totals.summary.fixFirst,
    'not-assessed': totals.summary.notAssessed,
    'no-plan': totals.summary.noPlan,
    ready: totals.summary.ready,
    'already-encrypted': totals.summary.alreadyEncrypted,
  };
  const readinessBars = (Object.keys(READINESS_LABELS) as Readiness[]).map((readiness) => ({
    label: READINESS_LABELS[readiness],
    count: counts[readiness],
    tone: READINESS_TONES[readiness],
  }));
  const issueBars = totals.issueCounts.map((entry) => ({
    label: entry.label,
    count: entry.count,
    tone: 'bad' as const,
  }));
  const versionRows = totals.versions
    .map(
      (version) =>
        `<tr><td>${escapeHtml(version.schema)}</td><td>${escapeHtml(version.schemaVersion)}</td><td>${escapeHtml(version.toolVersion)}</td><td class="number">${String(version.documents)}</td><td>${version.supported ? 'yes' : '<strong>no</strong>'}</td></tr>`,
    )
    .join('\n');
  const { summary } = totals;
  const platforms = `${String(summary.platforms.linux)} Linux, ${String(summary.platforms.darwin)} macOS, ${String(summary.platforms.win32)} Windows`;
  const duplicates =
    summary.duplicateDisks === 0
      ? ''
      : ` ${countOf(summary.duplicateDisks, 'disk')} ${summary.duplicateDisks === 1 ? 'was' : 'were'} listed more than once and ${summary.duplicateDisks === 1 ? 'is' : 'are'} counted once.`;
  const fileLevelOnly =
    summary.fileLevelOnly === 0
      ? ''
      : ` ${countOf(summary.fileLevelOnly, 'disk')} ${summary.fileLevelOnly === 1 ? 'is' : 'are'} encrypted only folder by folder (fscrypt, eCryptfs homes): not full-disk encryption, not counted as encrypted.`;
  const policy =
    totals.policy.methods.length === 0
      ? 'No encryption method policy was given (<code>--require-method</code>).'
      : `Policy: encryption method ${escapeHtml(totals.policy.methods.join(' or '))}.`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>encplan fleet report</title>
<style>${STYLE}</style>
</head>
<body>
<h1>encplan fleet report</h1>
<p class="meta">${countOf(summary.disks, 'disk')} (${platforms}) of ${countOf(summary.machines, 'machine')} from ${countOf(summary.documents, 'document')}, generated ${escapeHtml(generatedAt)}.${duplicates}${fileLevelOnly}</p>
<p class="meta">${policy} Whatever the assessment could not measure (TPM protectors, recovery-key escrow, a passphrase outside LUKS slot 0 in documents before assessment 1.3, the space the drive could get back) is shown as unknown (—), never as no.</p>
<h2>Readiness</h2>
<figure>${barChart('readiness', 'Disks by readiness', readinessBars, renderChart)}</figure>
<h2>What must be fixed</h2>
<figure>${barChart('issues', 'Disks per issue (a disk can have several)', issueBars, renderChart)}</figure>
<h2>Versions</h2>
<table><thead><tr><th>schema</th><th>version</th><th>encplan</th><th>documents</th><th>supported</th></tr></thead><tbody>
${versionRows}
</tbody></table>
<h2>Disks</h2>
<table class="disks"><thead><tr><th>machine</th><th>disk</th><th>readiness</th><th>issues</th><th>encryption</th><th>protection</th><th>conversion</th><th>key slots</th><th>passphrase outside slot 0</th><th>TPM</th><th>escrow</th><th>layers</th><th>plan</th></tr></thead><tbody>
`;
}

/** The end of the page after the last row. */
export const FLEET_HTML_END = `</tbody></table>
</body>
</html>
`;

const yesNo = (value: boolean | null, yes = 'yes', no = 'no') => (value === null ? '—' : value ? yes : no);

/** One row of the disks table. */
export function fleetHtmlRow(row: FleetRow): string {
  const issues = issuesOf(row).map((id) => FLEET_ISSUE_LABELS[id]);
  const problem =
    row.errorMessage === null
      ? ''
      : `<div class="id">${escapeHtml(row.errorCode ?? '')}: ${escapeHtml(row.errorMessage)}</div>`;
  const details =
    row.issueDetails === '' ? '' : `<details><summary>why</summary>${escapeHtml(row.issueDetails)}</details>`;
  const plan =
    row.planSummary === null
      ? '—'
      : `<details><summary>${escapeHtml(row.planSummary)}</summary>from <code>${escapeHtml(row.source)}</code> (<code>jq .result.plan.commands</code>)</details>`;
  const status = [
    row.documentStatus === 'valid' ? null : row.documentStatus,
    row.duplicateOf === null ? null : `repeats ${row.duplicateOf}, not counted`,
  ].filter((part) => part !== null);
  const fileLevel = fileLevelWords(row);
  const encryption = `${
    row.existingEncryption === null
      ? fileLevel === null
        ? '—'
        : ''
      : `${escapeHtml(row.encryptionMethod ?? 'method unknown')}<details><summary>volumes</summary>${escapeHtml(row.existingEncryption)}</details>`
  }${fileLevel === null ? '' : `<div class="id">${escapeHtml(fileLevel)}</div>`}`;
  const conversion =
    row.conversionInProgress === null
      ? '—'
      : `${row.conversionInProgress ? escapeHtml(row.conversion ?? 'in progress') : 'complete'}${row.percentEncrypted === null ? '' : ` (${String(row.percentEncrypted)} %)`}`;
  const protection = row.protectionOn === null ? '—' : protectionWord(row);
  const layout = storageLayout(row);
  return `<tr><td>${escapeHtml(row.machine)}${row.platform === null ? '' : ` <small>${escapeHtml(row.platform)}</small>`}</td><td>${escapeHtml(row.disk ?? '—')}</td><td><span class="badge tone-${READINESS_TONES[row.readiness]}">${escapeHtml(READINESS_LABELS[row.readiness])}</span>${status.length === 0 ? '' : ` <span class="id">(${escapeHtml(status.join('; '))})</span>`}</td><td>${escapeHtml(issues.join(', '))}${details}${problem}</td><td>${encryption}</td><td>${protection}</td><td>${conversion}</td><td class="id">${escapeHtml(row.keySlots ?? '—')}</td><td>${yesNo(row.passphraseOutsideSlot0)}</td><td>${yesNo(row.tpmProtector)}</td><td>${yesNo(row.recoveryKeyEscrowed)}</td><td class="id">${layout === null ? (row.spansDisks === false ? 'this disk only' : '—') : escapeHtml(layout)}</td><td>${plan}</td></tr>\n`;
}

/** The whole page for a report held in memory. */
export function renderFleetHtml(
  report: FleetReport,
  generatedAt: string,
  renderChart: ChartRenderer,
): string {
  return `${fleetHtmlStart(report, generatedAt, renderChart)}${report.rows.map(fleetHtmlRow).join('')}${FLEET_HTML_END}`;
}

/** A horizontal bar chart of disk counts, the counts written out (readable without colour, and by screen readers). */
function barChart(
  id: string,
  title: string,
  bars: readonly { label: string; count: number; tone: NonNullable<BarView['tone']> }[],
  renderChart: ChartRenderer,
): string {
  return renderChart({
    id,
    title,
    unit: 'disks',
    max: null,
    series: ['disks'],
    groups: bars.map((bar) => ({
      label: bar.label,
      bars: [{ series: 'disks', value: bar.count, tone: bar.tone }],
    })),
  });
}
