import type { RecommendationView, ReportView } from '@encplan/core';
import { renderChart } from '../chart-renderer.js';
import { h, svgFigure } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { badge, factTable, stepFrame } from './step-frame.js';

function recommendation(item: RecommendationView, index: number): HTMLElement {
  return h(
    'li',
    { class: `card tone-border-${item.tone}` },
    h(
      'h2',
      { id: `recommendation-${String(index)}` },
      item.title,
      h('span', { class: 'confidence' }, ` · confidence ${item.confidence}`),
    ),
    h('p', {}, h('code', {}, item.value)),
    h('p', {}, item.reason),
    h('p', { class: 'source' }, `Rule ${item.ruleId}`),
    item.evidence.length === 0
      ? null
      : h(
          'details',
          {},
          h('summary', {}, 'Evidence'),
          factTable(`Evidence for ${item.title}`, item.evidence),
        ),
  );
}

/** The answer first: verdict, what to fix first (the same list as the reports), the plan's decisions. */
function answer(view: ReportView): HTMLElement | null {
  if (view.answer === null) {
    return null;
  }
  return h(
    'section',
    { class: `card answer tone-border-${view.answer.tone}`, 'aria-labelledby': 'answer-title' },
    h('h2', { id: 'answer-title' }, badge(view.answer.tone, view.answer.verdict), ' ', view.answer.headline),
    h('p', {}, view.answer.reason),
    view.fixFirst.length === 0
      ? h('p', {}, 'Nothing to fix first.')
      : h(
          'div',
          {},
          h('h3', {}, 'Fix first'),
          h(
            'ol',
            { class: 'fix-first' },
            view.fixFirst.map((item) => h('li', {}, badge(item.tone), ' ', item.message)),
          ),
        ),
    h('h3', {}, 'The plan'),
    h(
      'dl',
      { class: 'decisions' },
      view.decisions.flatMap((decision) => [h('dt', {}, decision.label), h('dd', {}, decision.value)]),
    ),
  );
}

function infoFindings(view: ReportView): HTMLElement | null {
  const notes = view.planFindings.filter((finding) => finding.tone === 'info');
  return notes.length === 0
    ? null
    : h(
        'ul',
        { class: 'findings' },
        notes.map((finding) => h('li', {}, badge(finding.tone), ' ', finding.message)),
      );
}

/** The fields of `Row` that hold text: what a column of a measurement table shows. */
type TextField<Row> = { [Field in keyof Row]: Row[Field] extends string ? Field : never }[keyof Row];

/** A table of measurements: a caption, then a row per item with a cell per column (a source is set in grey). */
function measurementTable<Row>(
  attributes: Readonly<Record<string, string>>,
  caption: string,
  columns: readonly (readonly [header: string, field: TextField<Row>])[],
  rows: readonly Row[],
): HTMLElement {
  return h(
    'table',
    { class: 'facts', ...attributes },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map(([header]) => h('th', { scope: 'col' }, header)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          {},
          columns.map(([, field]) =>
            h('td', field === 'source' ? { class: 'source' } : {}, row[field] as string),
          ),
        ),
      ),
    ),
  );
}

/** Step 4: recommendations with reasons, plain vs encrypted per profile, predicted vs measured. */
export function renderPlanStep(state: WizardState, actions: WizardActions): HTMLElement {
  const view = state.view;
  const body =
    view === null
      ? [h('p', {}, 'No assessment yet.')]
      : [
          answer(view),
          h('h2', {}, 'Why: each recommendation'),
          infoFindings(view),
          view.recommendations.length === 0
            ? h('p', {}, view.planMissingReason ?? '')
            : h('ol', { class: 'recommendations' }, view.recommendations.map(recommendation)),
          h('h2', {}, 'Speed: plain vs encrypted, cipher and key derivation'),
          view.benchmarkRows.length === 0
            ? h('p', { class: 'source' }, `Not measured: ${view.benchmarkMissingReason ?? ''}`)
            : h(
                'div',
                {},
                view.charts.map((chart) => svgFigure(renderChart(chart), `${chart.title} (${chart.unit})`)),
                measurementTable(
                  {},
                  'Measured with fio',
                  [
                    ['Profile', 'profile'],
                    ['Target', 'target'],
                    ['Measured', 'measured'],
                    ['Source', 'source'],
                  ],
                  view.benchmarkRows,
                ),
              ),
          view.predictions.length === 0
            ? null
            : measurementTable(
                { id: 'predictions' },
                'Predicted encrypted throughput next to measured plain throughput',
                [
                  ['Profile', 'profile'],
                  ['Measured plain', 'measuredPlain'],
                  ['Predicted encrypted', 'predictedEncrypted'],
                  ['Measured encrypted', 'measuredEncrypted'],
                  ['Limited by', 'limitedBy'],
                ],
                view.predictions,
              ),
          view.warnings.length === 0
            ? null
            : h(
                'section',
                { 'aria-labelledby': 'warnings-title' },
                h('h2', { id: 'warnings-title' }, 'What could not be checked'),
                h(
                  'ul',
                  {},
                  view.warnings.map((warning) =>
                    h('li', {}, badge('unknown', warning.code), ' ', warning.message),
                  ),
                ),
              ),
        ];
  return stepFrame(
    'Your plan',
    'What encplan recommends for this drive, and why. Every recommendation names the rule and the facts behind it.',
    body,
    {
      back: () => {
        actions.goTo(3);
      },
      next: () => {
        actions.goTo(5);
      },
    },
  );
}
