import { escapeHtml } from './escape-html.js';
import { DESTROYS_DATA_MARKER } from './command-script.js';
import { formatTimestamp } from './labels.js';
import {
  renderCommandsScript,
  type ChartView,
  type FactView,
  type ReportView,
  type SectionView,
  type Tone,
} from './report-view.js';
import type { ChartRenderer } from './report-charts.js';

const TONE_TEXT: Readonly<Record<Tone, string>> = {
  good: 'Good',
  attention: 'Attention',
  bad: 'Problem',
  unknown: 'Unknown',
  info: 'Facts',
};

/**
 * Light and dark themes (prefers-color-scheme) and a print stylesheet. Text colours meet WCAG 2.1 AA contrast
 * (≥ 4.5:1, SC 1.4.3) on their backgrounds in both themes; chart bars keep ≥ 3:1 against the page (SC 1.4.11).
 */
const STYLE = `
:root{color-scheme:light dark;--fg:#1a1a1a;--muted:#4d4d4d;--bg:#fff;--card:#fff;--line:#d6d6d6;--code:#f4f4f4;
--good-bg:#e3f4e8;--good-fg:#14532d;--attention-bg:#fff4d6;--attention-fg:#6b3e00;--bad-bg:#fde2e1;--bad-fg:#8a1c1c;
--unknown-bg:#ececec;--unknown-fg:#333;--info-bg:#e5eefa;--info-fg:#0b3d66;--link:#0b5fa5}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--muted:#b8b8b8;--bg:#141414;--card:#1d1d1d;--line:#3a3a3a;
--code:#242424;--good-bg:#12361f;--good-fg:#a7e8bd;--attention-bg:#3d2c05;--attention-fg:#ffd98a;--bad-bg:#441616;
--bad-fg:#ffb4b0;--unknown-bg:#333;--unknown-fg:#e0e0e0;--info-bg:#0f2a44;--info-fg:#b5d5f5;--link:#8cc4ff}
svg .series-0{fill:#6cb4f0}svg .series-1{fill:#f0a050}svg .series-2{fill:#c0a0f0}svg .series-3{fill:#4fd1b0}
svg .series-4{fill:#f08080}svg .series-5{fill:#bbb}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:62rem;margin:0 auto;padding:1.5rem}
a{color:var(--link)}h1{font-size:1.45rem;margin:0 0 .25rem}
h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid var(--line)}h3{font-size:1.05rem}
.meta,.source{color:var(--muted)}.source{font-size:.85em}
.badge{display:inline-block;padding:0 .5rem;border-radius:.25rem;font-weight:600;font-size:.9em}
.tone-good{background:var(--good-bg);color:var(--good-fg)}.tone-attention{background:var(--attention-bg);color:var(--attention-fg)}
.tone-bad{background:var(--bad-bg);color:var(--bad-fg)}.tone-unknown{background:var(--unknown-bg);color:var(--unknown-fg)}
.tone-info{background:var(--info-bg);color:var(--info-fg)}
.answer{border:2px solid var(--line);border-left-width:.5rem;border-radius:.5rem;padding:1rem 1.25rem;margin:1rem 0;background:var(--card)}
.answer.border-good{border-color:var(--good-fg)}.answer.border-attention{border-color:var(--attention-fg)}
.answer h2{margin-top:0;border:0}.answer.border-bad{border-color:var(--bad-fg)}.answer.border-unknown{border-color:var(--muted)}
.headline{font-size:1.25rem;font-weight:700;margin:.25rem 0}
.fix-first li{margin:.35rem 0}
dl.decisions{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}
dl.decisions dt{font-weight:600}dl.decisions dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
td.number{text-align:right;font-variant-numeric:tabular-nums}
pre{background:var(--code);padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere}
code{overflow-wrap:anywhere}strong.destroys{color:var(--bad-fg)}
section.card{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:.75rem 0;background:var(--card)}
section.card.tone-border-good{border-left:.35rem solid var(--good-fg)}section.card.tone-border-attention{border-left:.35rem solid var(--attention-fg)}
section.card.tone-border-bad{border-left:.35rem solid var(--bad-fg)}section.card.tone-border-unknown{border-left:.35rem solid var(--muted)}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto;color:var(--fg)}figcaption{font-weight:600;margin-bottom:.25rem}
nav.toc ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
@media print{:root{--fg:#000;--muted:#333;--bg:#fff;--card:#fff}body{font-size:9pt;line-height:1.35;max-width:none;padding:0}
nav.toc{display:none}h2{break-after:avoid;margin-top:1rem}section.card,figure,tr,.answer{break-inside:avoid}
th,td{padding:.05rem .3rem}table.evidence{font-size:.85em}figure svg{max-width:75%}
section.card{padding:.25rem .5rem;margin:.4rem 0}p{margin:.3rem 0}
pre{font-size:7.5pt;background:none;border:1px solid #999}a{color:#000}
svg .series-0{fill:#0b5fa5}svg .series-1{fill:#b35900}svg .series-2{fill:#6a3d9a}svg .series-3{fill:#00735c}}
@page{size:A4;margin:15mm}
`;

function badge(tone: Tone, text: string = TONE_TEXT[tone]): string {
  return `<span class="badge tone-${tone}">${escapeHtml(text)}</span>`;
}

function factsTable(facts: readonly FactView[], caption: string | null = null): string {
  const kind = caption === null ? '' : ' class="evidence"';
  if (facts.length === 0) {
    return '';
  }
  const rows = facts
    .map(
      (fact) =>
        `<tr><th scope="row">${escapeHtml(fact.label)}</th><td>${escapeHtml(fact.value)}</td><td class="source">${escapeHtml(fact.source ?? '')}</td></tr>`,
    )
    .join('');
  return `<table${kind}>${caption === null ? '' : `<caption class="source">${escapeHtml(caption)}</caption>`}<thead><tr><th scope="col">Fact</th><th scope="col">Value</th><th scope="col">Source</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function sectionHtml(section: SectionView): string {
  const findings = section.findings
    .map(
      (finding) =>
        `<li>${badge(finding.tone)} ${escapeHtml(finding.message)}${finding.source === null ? '' : ` <span class="source">(${escapeHtml(finding.source)})</span>`}</li>`,
    )
    .join('');
  return [
    `<section class="card tone-border-${section.tone}" id="section-${section.id}"><h3>${escapeHtml(section.title)} ${badge(section.tone, section.verdict)}</h3>`,
    `<p>${escapeHtml(section.summary)}</p>`,
    section.missingReason === null
      ? ''
      : `<p class="source">Not measured: ${escapeHtml(section.missingReason)}</p>`,
    findings === '' ? '' : `<ul>${findings}</ul>`,
    factsTable(section.facts),
    '</section>',
  ].join('');
}

function chartFigure(chart: ChartView, renderChart: ChartRenderer): string {
  return `<figure id="chart-${escapeHtml(chart.id)}"><figcaption>${escapeHtml(chart.title)} (${escapeHtml(chart.unit)})</figcaption>${renderChart(chart)}</figure>`;
}

/** The answer first: the verdict, what to fix first, and the plan's headline decisions. */
/** The plan's first decision: format fresh, encrypt in place, reinstall or nothing to do, with its reason and steps. */
function strategyHtml(view: ReportView): string {
  const { strategy } = view;
  if (strategy === null) {
    return '';
  }
  const tone =
    strategy.kind === 'replace-first'
      ? 'bad'
      : strategy.kind === 'reinstall' || strategy.kind === 'undetermined'
        ? 'attention'
        : 'good';
  return `<h3>Strategy</h3><p>${badge(tone, strategy.title)} ${escapeHtml(strategy.reason)}</p><ul class="strategy">${strategy.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
}

function answerHtml(view: ReportView): string {
  if (view.answer === null) {
    return `<section class="answer border-unknown" id="answer" aria-labelledby="answer-heading"><h2 id="answer-heading">The answer</h2><p>${escapeHtml(view.planMissingReason ?? 'No plan.')}</p></section>`;
  }
  const { answer } = view;
  const fixFirst =
    view.fixFirst.length === 0
      ? '<p>Nothing to fix first.</p>'
      : `<h3>Fix first</h3><ol class="fix-first">${view.fixFirst.map((item) => `<li>${badge(item.tone)} ${escapeHtml(item.message)}</li>`).join('')}</ol>`;
  const decisions = `<h3>The plan</h3><dl class="decisions">${view.decisions.map((item) => `<dt>${escapeHtml(item.label)}</dt><dd>${escapeHtml(item.value)}</dd>`).join('')}</dl>`;
  return `<section class="answer border-${answer.tone}" id="answer" aria-labelledby="answer-heading"><h2 id="answer-heading">The answer ${badge(answer.tone, answer.verdict)}</h2><p class="headline">${escapeHtml(answer.headline)}</p><p>${escapeHtml(answer.reason)}</p>${strategyHtml(view)}${fixFirst}${decisions}<p class="source">The commands are under <a href="#commands">Commands</a>; the evidence follows.</p></section>`;
}

/**
 * Renders a self-contained HTML report of a view: the answer first, then the evidence; inline CSS and SVG
 * charts, every text escaped, no scripts and no external resources, so it can be mailed, archived, printed
 * or opened offline.
 */
export function renderHtmlReport(view: ReportView, renderChart: ChartRenderer): string {
  return htmlPage(view.title, [
    `<h1>${escapeHtml(view.title)}</h1>`,
    `<p class="meta">Status ${escapeHtml(view.status)} · generated ${escapeHtml(formatTimestamp(view.generatedAt))} · encplan ${escapeHtml(view.toolVersion)}</p>`,
    reportBody(view, renderChart),
  ]);
}

/** The self-contained page around a report's parts: inline style, no scripts, no external resources. */
export function htmlPage(title: string, parts: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>`,
    ...parts,
    '</main></body></html>',
    '',
  ].join('\n');
}

/** One disk's report under its title: contents, the answer, then the evidence. */
export function reportBody(view: ReportView, renderChart: ChartRenderer): string {
  const device = view.device;
  const deviceHtml =
    device === null
      ? '<p>No device information.</p>'
      : `<p><strong>${escapeHtml(device.model)}</strong>, ${escapeHtml(device.size)}, ${escapeHtml(device.transport)} ${escapeHtml(device.kind)} at <code>${escapeHtml(device.path)}</code>${device.isSystemDisk ? ` ${badge('attention', 'system disk')}` : ''}</p>${factsTable(device.facts)}`;
  const planFindings = view.planFindings.filter((finding) => finding.tone === 'info');
  const recommendations =
    view.recommendations.length === 0
      ? `<p>${escapeHtml(view.planMissingReason ?? '')}</p>`
      : `${planFindings.length === 0 ? '' : `<ul>${planFindings.map((finding) => `<li>${badge(finding.tone)} ${escapeHtml(finding.message)}</li>`).join('')}</ul>`}<ol>${view.recommendations
          .map(
            (item) =>
              `<li><strong>${escapeHtml(item.title)}</strong>: <code>${escapeHtml(item.value)}</code> <span class="source">(confidence ${escapeHtml(item.confidence)}; rule ${escapeHtml(item.ruleId)})</span><p>${escapeHtml(item.reason)}</p>${factsTable(item.evidence, 'Evidence')}</li>`,
          )
          .join('')}</ol>`;
  const measuredCharts = view.charts.filter((chart) => chart.id !== 'throughput');
  const benchmarks =
    view.benchmarkRows.length === 0
      ? `<p>Not measured: ${escapeHtml(view.benchmarkMissingReason ?? '')}</p>`
      : `${view.charts
          .filter((chart) => chart.id === 'throughput')
          .map((chart) => chartFigure(chart, renderChart))
          .join(
            '',
          )}<table><thead><tr><th scope="col">Profile</th><th scope="col">Target</th><th scope="col">Measured</th><th scope="col">Source</th></tr></thead><tbody>${view.benchmarkRows
          .map(
            (row) =>
              `<tr><td>${escapeHtml(row.profile)}</td><td>${escapeHtml(row.target)}</td><td class="number">${escapeHtml(row.measured)}</td><td class="source">${escapeHtml(row.source)}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const predictions =
    view.predictions.length === 0
      ? '<p>No plan, so no prediction.</p>'
      : `<table id="predictions"><caption>Predicted encrypted throughput next to measured plain throughput${view.cipherEvidence === null ? '' : ` (cipher speed evidence: ${escapeHtml(view.cipherEvidence)})`}</caption><thead><tr><th scope="col">Profile</th><th scope="col">Measured plain</th><th scope="col">Predicted encrypted</th><th scope="col">Measured encrypted</th><th scope="col">Limited by</th></tr></thead><tbody>${view.predictions
          .map(
            (row) =>
              `<tr><td>${escapeHtml(row.profile)}</td><td class="number">${escapeHtml(row.measuredPlain)}</td><td class="number">${escapeHtml(row.predictedEncrypted)}</td><td class="number">${escapeHtml(row.measuredEncrypted)}</td><td>${escapeHtml(row.limitedBy)}</td></tr>`,
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
      : `<h2 id="warnings">What could not be checked</h2><ul>${view.warnings.map((warning) => `<li>${escapeHtml(warning.message)}${warning.source === null ? '' : ` <span class="source">(${escapeHtml(warning.source)}; ${escapeHtml(warning.code)})</span>`}</li>`).join('')}</ul>`;
  const error =
    view.error === null
      ? ''
      : `<section class="card tone-border-bad">${badge('bad', view.error.code)} <p>${escapeHtml(view.error.message)}</p>${view.error.hint === null ? '' : `<p>${escapeHtml(view.error.hint)}</p>`}</section>`;
  const toc = [
    ['answer', 'The answer'],
    ['charts', 'Charts'],
    ['plan', 'Plan in detail'],
    ['drive', 'Drive'],
    ['checks', 'Health, TRIM and space'],
    ['benchmarks', 'Benchmarks'],
    ['commands', 'Commands'],
  ]
    .map(([id, text]) => `<li><a href="#${id ?? ''}">${escapeHtml(text ?? '')}</a></li>`)
    .join('');
  return [
    `<nav class="toc" aria-label="Contents"><ul>${toc}</ul></nav>`,
    error,
    answerHtml(view),
    '<h2 id="charts">Charts</h2>',
    measuredCharts.length === 0
      ? `<p>No measurements to chart: ${escapeHtml(view.benchmarkMissingReason ?? 'nothing was measured.')}</p>`
      : measuredCharts.map((chart) => chartFigure(chart, renderChart)).join(''),
    '<h2 id="plan">Plan in detail</h2>',
    recommendations,
    '<h3>Predicted encrypted throughput</h3>',
    predictions,
    '<h2 id="drive">Drive</h2>',
    deviceHtml,
    view.stack.length === 0
      ? ''
      : `<h3>Stack (from the disk up)</h3><ul class="stack">${view.stack.map((line) => `<li style="margin-left:${String(line.depth * 1.5)}rem">${escapeHtml(line.text)}</li>`).join('')}</ul>`,
    '<h2 id="checks">Health, TRIM and space</h2>',
    view.sections.map(sectionHtml).join(''),
    '<h2 id="benchmarks">Benchmarks</h2>',
    benchmarks,
    '<h2 id="commands">Commands</h2>',
    commands,
    warnings,
  ].join('\n');
}
