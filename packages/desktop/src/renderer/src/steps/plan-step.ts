import { renderBarChartSvg, type RecommendationView } from '@encplan/core';
import { h, svgFigure } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { badge, factTable, stepFrame } from './step-frame.js';

function recommendation(item: RecommendationView, index: number): HTMLElement {
  return h(
    'li',
    { class: `card tone-border-${item.tone}` },
    h('h2', { id: `recommendation-${String(index)}` }, item.title, item.confidence === null ? null : h('span', { class: 'confidence' }, ` · confidence ${item.confidence}`)),
    item.value === '' ? null : h('p', {}, h('code', {}, item.value)),
    h('p', {}, item.reason),
    h('p', { class: 'source' }, `Rule ${item.ruleId}`),
    item.evidence.length === 0 ? null : h('details', {}, h('summary', {}, 'Evidence'), factTable(`Evidence for ${item.title}`, item.evidence)),
  );
}

/** Step 4: recommendations with reasons, plain vs encrypted per profile, predicted vs measured. */
export function renderPlanStep(state: WizardState, actions: WizardActions): HTMLElement {
  const view = state.view;
  const body =
    view === null
      ? [h('p', {}, 'No assessment yet.')]
      : [
          view.recommendations.length === 0 ? h('p', {}, view.planMissingReason ?? '') : h('ol', { class: 'recommendations' }, view.recommendations.map(recommendation)),
          h('h2', {}, 'Speed: plain vs encrypted'),
          view.benchmarkRows.length === 0
            ? h('p', { class: 'source' }, `Not measured: ${view.benchmarkMissingReason ?? ''}`)
            : h(
                'div',
                {},
                view.charts.map((chart) => svgFigure(renderBarChartSvg(chart), `${chart.title} (${chart.unit})`)),
                h(
                  'table',
                  { class: 'facts' },
                  h('caption', {}, 'Predicted vs measured'),
                  h('thead', {}, h('tr', {}, ['Profile', 'Target', 'Measured', 'Predicted', 'Source'].map((name) => h('th', { scope: 'col' }, name)))),
                  h('tbody', {}, view.benchmarkRows.map((row) => h('tr', {}, h('td', {}, row.profile), h('td', {}, row.target), h('td', {}, row.measured), h('td', {}, row.predicted ?? '—'), h('td', { class: 'source' }, row.source ?? '—')))),
                ),
              ),
          view.warnings.length === 0
            ? null
            : h('section', { 'aria-labelledby': 'warnings-title' }, h('h2', { id: 'warnings-title' }, 'What could not be checked'), h('ul', {}, view.warnings.map((warning) => h('li', {}, badge('unknown', warning.code), ' ', warning.message)))),
        ];
  return stepFrame('Your plan', 'What encplan recommends for this drive, and why. Every recommendation names the rule and the facts behind it.', body, {
    back: () => {
      actions.goTo(3);
    },
    next: () => {
      actions.goTo(5);
    },
  });
}
