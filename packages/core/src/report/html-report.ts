import { renderBarChartSvg } from './bar-chart-svg.js';
import { escapeHtml } from './escape-html.js';
import { DESTROYS_DATA_MARKER } from './command-script.js';
import {
  renderCommandsScript,
  type FactView,
  type ReportView,
  type SectionView,
  type Tone,
} from './report-view.js';

const TONE_TEXT: Readonly<Record<Tone, string>> = {
  good: 'Good',
  attention: 'Attention',
  bad: 'Problem',
  unknown: 'Unknown',
  info: 'Facts',
};

/** Colours meet WCAG 2.1 AA contrast (≥ 4.5:1) for their text on white and on their badge background. */
const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;max-width:60rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
.meta{color:#4d4d4d}.badge{display:inline-block;padding:0 .5rem;border-radius:.25rem;font-weight:600}
.tone-good{background:#e3f4e8;color:#14532d}.tone-attention{background:#fff4d6;color:#6b3e00}
.tone-bad{background:#fde2e1;color:#8a1c1c}.tone-unknown{background:#ececec;color:#333}.tone-info{background:#e5eefa;color:#0b3d66}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #e0e0e0;vertical-align:top}
.source{color:#4d4d4d;font-size:.85em}pre{background:#f4f4f4;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere}
strong.destroys{color:#8a1c1c}
section.card{border:1px solid #ddd;border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0}
`;

function badge(tone: Tone, text: string = TONE_TEXT[tone]): string {
  return `<span class="badge tone-${tone}">${escapeHtml(text)}</span>`;
}

function factsTable(facts: readonly FactView[]): string {
  if (facts.length === 0) {
    return '';
  }
  const rows = facts
    .map(
      (fact) =>
        `<tr><th scope="row">${escapeHtml(fact.label)}</th><td>${escapeHtml(fact.value)}</td><td class="source">${escapeHtml(fact.source ?? '')}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th scope="col">Fact</th><th scope="col">Value</th><th scope="col">Source</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function sectionHtml(section: SectionView): string {
  const findings = section.findings
    .map(
      (finding) =>
        `<li>${badge(finding.tone)} ${escapeHtml(finding.message)}${finding.source === null ? '' : ` <span class="source">(${escapeHtml(finding.source)})</span>`}</li>`,
    )
    .join('');
  return [
    `<section class="card" id="section-${section.id}"><h3>${escapeHtml(section.title)} ${badge(section.tone, section.verdict)}</h3>`,
    `<p>${escapeHtml(section.summary)}</p>`,
    section.missingReason === null
      ? ''
      : `<p class="source">Not measured: ${escapeHtml(section.missingReason)}</p>`,
    findings === '' ? '' : `<ul>${findings}</ul>`,
    factsTable(section.facts),
    '</section>',
  ].join('');
}

/**
 * Renders a self-contained HTML report of a view: inline CSS and SVG charts, every text escaped, no
 * scripts and no external resources, so it can be mailed, archived or opened offline.
 */
export function renderHtmlReport(view: ReportView): string {
  const device = view.device;
  const deviceHtml =
    device === null
      ? '<p>No device information.</p>'
      : `<p><strong>${escapeHtml(device.model)}</strong>, ${escapeHtml(device.size)}, ${escapeHtml(device.transport)} ${escapeHtml(device.kind)} at <code>${escapeHtml(device.path)}</code>${device.isSystemDisk ? ` ${badge('attention', 'system disk')}` : ''}</p>${factsTable(device.facts)}`;
  const strategy =
    view.strategy === null
      ? ''
      : `<p>${badge(view.strategy.kind === 'reinstall' || view.strategy.kind === 'undetermined' ? 'attention' : 'good', `strategy: ${view.strategy.title}`)} ${escapeHtml(view.strategy.reason)}</p><ul>${view.strategy.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
  const gate =
    view.healthGate === null
      ? ''
      : `<p>${badge(view.healthGate.tone, `health gate: ${view.healthGate.status}`)} ${escapeHtml(view.healthGate.reason)}</p>`;
  const planFindings =
    view.planFindings.length === 0
      ? ''
      : `<ul>${view.planFindings.map((finding) => `<li>${badge(finding.tone)} ${escapeHtml(finding.message)}</li>`).join('')}</ul>`;
  const recommendations =
    view.recommendations.length === 0
      ? `<p>${escapeHtml(view.planMissingReason ?? '')}</p>`
      : `<ol>${view.recommendations
          .map(
            (item) =>
              `<li><strong>${escapeHtml(item.title)}</strong>: <code>${escapeHtml(item.value)}</code> <span class="source">(confidence ${escapeHtml(item.confidence)}; rule ${escapeHtml(item.ruleId)})</span><p>${escapeHtml(item.reason)}</p>${factsTable(item.evidence)}</li>`,
          )
          .join('')}</ol>`;
  const benchmarks =
    view.benchmarkRows.length === 0
      ? `<p>Not measured: ${escapeHtml(view.benchmarkMissingReason ?? '')}</p>`
      : `${view.charts.map((chart) => `<figure>${renderBarChartSvg(chart)}<figcaption>${escapeHtml(chart.title)} (${escapeHtml(chart.unit)})</figcaption></figure>`).join('')}<table><thead><tr><th scope="col">Profile</th><th scope="col">Target</th><th scope="col">Measured</th><th scope="col">Source</th></tr></thead><tbody>${view.benchmarkRows
          .map(
            (row) =>
              `<tr><td>${escapeHtml(row.profile)}</td><td>${escapeHtml(row.target)}</td><td>${escapeHtml(row.measured)}</td><td class="source">${escapeHtml(row.source)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const predictions =
    view.predictions.length === 0
      ? '<p>No plan, so no prediction.</p>'
      : `<table id="predictions"><caption>Predicted encrypted throughput next to measured plain throughput</caption><thead><tr><th scope="col">Profile</th><th scope="col">Measured plain</th><th scope="col">Predicted encrypted</th><th scope="col">Measured encrypted</th><th scope="col">Limited by</th></tr></thead><tbody>${view.predictions
          .map(
            (row) =>
              `<tr><td>${escapeHtml(row.profile)}</td><td>${escapeHtml(row.measuredPlain)}</td><td>${escapeHtml(row.predictedEncrypted)}</td><td>${escapeHtml(row.measuredEncrypted)}</td><td>${escapeHtml(row.limitedBy)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  // The same script as `assess --commands` and the wizard's export (one renderer), its markers in bold.
  const commands =
    view.commands.length === 0
      ? '<p>The plan has no commands to run.</p>'
      : `<p>Data-destroying commands, and the commands that depend on them, are commented out${view.includeDestructive ? ' unless --destructive was given (it was)' : ''}.</p><pre>${renderCommandsScript(
          view,
        )
          .trimEnd()
          .split('\n')
          .map((line) =>
            line.startsWith(`# ${DESTROYS_DATA_MARKER}`)
              ? `<strong class="destroys">${escapeHtml(line)}</strong>`
              : escapeHtml(line),
          )
          .join('\n')}</pre>`;
  const warnings =
    view.warnings.length === 0
      ? ''
      : `<h2>What could not be checked</h2><ul>${view.warnings.map((warning) => `<li><code>${escapeHtml(warning.code)}</code> ${escapeHtml(warning.message)}${warning.source === null ? '' : ` <span class="source">(${escapeHtml(warning.source)})</span>`}</li>`).join('')}</ul>`;
  const error =
    view.error === null
      ? ''
      : `<section class="card">${badge('bad', view.error.code)} <p>${escapeHtml(view.error.message)}</p>${view.error.hint === null ? '' : `<p>${escapeHtml(view.error.hint)}</p>`}</section>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(view.title)}</title><style>${STYLE}</style></head><body><main>`,
    `<h1>${escapeHtml(view.title)}</h1>`,
    `<p class="meta">Status ${escapeHtml(view.status)} · generated ${escapeHtml(view.generatedAt)} · encplan ${escapeHtml(view.toolVersion)}</p>`,
    error,
    '<h2>Plan</h2>',
    strategy,
    gate,
    planFindings,
    recommendations,
    '<h2>Drive</h2>',
    deviceHtml,
    view.stack.length === 0
      ? ''
      : `<h3>Stack (from the disk up)</h3><ul class="stack">${view.stack.map((line) => `<li style="margin-left:${String(line.depth * 1.5)}rem">${escapeHtml(line.text)}</li>`).join('')}</ul>`,
    '<h2>Health, TRIM and space</h2>',
    view.sections.map(sectionHtml).join(''),
    '<h2>Benchmarks</h2>',
    benchmarks,
    '<h2>Predicted encrypted throughput</h2>',
    predictions,
    '<h2>Commands</h2>',
    commands,
    warnings,
    '</main></body></html>',
    '',
  ].join('\n');
}
