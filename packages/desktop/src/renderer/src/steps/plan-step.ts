import { renderBarChartSvg, type RecommendationView, type ReportView } from '@encplan/core';
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
      ? h('p', {}, 'Nothing to fix before encrypting.')
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
                view.charts.map((chart) =>
                  svgFigure(renderBarChartSvg(chart), `${chart.title} (${chart.unit})`),
                ),
                h(
                  'table',
                  { class: 'facts' },
                  h('caption', {}, 'Measured with fio'),
                  h(
                    'thead',
                    {},
                    h(
                      'tr',
                      {},
                      ['Profile', 'Target', 'Measured', 'Source'].map((name) =>
                        h('th', { scope: 'col' }, name),
                      ),
                    ),
                  ),
                  h(
                    'tbody',
                    {},
                    view.benchmarkRows.map((row) =>
                      h(
                        'tr',
                        {},
                        h('td', {}, row.profile),
                        h('td', {}, row.target),
                        h('td', {}, row.measured),
                        h('td', { class: 'source' }, row.source),
                      ),
                    ),
                  ),
                ),
              ),
          view.predictions.length === 0
            ? null
            : h(
                'table',
                { class: 'facts', id: 'predictions' },
                h('caption', {}, 'Predicted encrypted throughput next to measured plain throughput'),
                h(
                  'thead',
                  {},
                  h(
                    'tr',
                    {},
                    [
                      'Profile',
                      'Measured plain',
                      'Predicted encrypted',
                      'Measured encrypted',
                      'Limited by',
                    ].map((name) => h('th', { scope: 'col' }, name)),
                  ),
                ),
                h(
                  'tbody',
                  {},
                  view.predictions.map((row) =>
                    h(
                      'tr',
                      {},
                      h('td', {}, row.profile),
                      h('td', {}, row.measuredPlain),
                      h('td', {}, row.predictedEncrypted),
                      h('td', {}, row.measuredEncrypted),
                      h('td', {}, row.limitedBy),
                    ),
                  ),
                ),
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
