import { FLAG_DEFINITIONS, type RecommendationView, type ReportView } from '@encplan/core';
import { renderChart } from '../chart-renderer.js';
import { h, svgFigure } from '../element-builder.js';
import type { PlanChoices, WizardActions, WizardState } from '../wizard-state.js';
import { badge, factTable, stepFrame } from './step-frame.js';
import { inWords, warningInWords } from './words.js';

/** A recommendation, folded to its title and value: the reason and evidence open on demand ("Why"). */
function recommendation(item: RecommendationView, index: number): HTMLElement {
  return h(
    'li',
    { class: `card tone-border-${item.tone}` },
    h(
      'details',
      {},
      h(
        'summary',
        { id: `recommendation-${String(index)}` },
        h('strong', {}, item.title),
        ': ',
        inWords(item.value),
        h('span', { class: 'confidence' }, ` · confidence ${item.confidence}`),
      ),
      h('p', {}, inWords(item.reason)),
      item.evidence.length === 0 ? null : factTable(`Evidence for ${item.title}`, item.evidence),
    ),
  );
}

/** The strategy first, in words: what will happen to the drive and why; its checks and steps on demand. */
function strategy(view: ReportView['strategy']): HTMLElement | null {
  if (view === null) {
    return null;
  }
  return h(
    'section',
    { class: 'card strategy', 'aria-labelledby': 'strategy-title' },
    h('h2', { id: 'strategy-title' }, view.title),
    h('p', {}, inWords(view.reason)),
    view.lines.length === 0
      ? null
      : h(
          'details',
          {},
          h('summary', {}, 'Checks, cost and steps'),
          h(
            'ul',
            { class: 'strategy-lines' },
            view.lines.map((line) => h('li', {}, inWords(line))),
          ),
        ),
  );
}

/** What people call each threat model and workload (the option values are the CLI's). */
const THREAT_WORDS: Readonly<Record<string, string>> = {
  'lost-device': 'A lost or stolen drive',
  targeted: 'Someone who may come back for it',
  deniability: 'A hidden volume that must stay deniable',
};
const WORKLOAD_WORDS: Readonly<Record<string, string>> = {
  desktop: 'Desktop or laptop',
  server: 'Server',
  'write-heavy': 'Heavy writing (databases, builds)',
};

function select(
  id: string,
  label: string,
  value: string,
  options: readonly (readonly [value: string, text: string])[],
  onChange: (value: string) => void,
): HTMLElement {
  return h(
    'div',
    { class: 'option' },
    h('label', { for: id }, label),
    h(
      'select',
      {
        id,
        onchange: (event: Event) => {
          onChange((event.target as HTMLSelectElement).value);
        },
      },
      options.map(([optionValue, text]) =>
        h('option', { value: optionValue, selected: optionValue === value }, text),
      ),
    ),
  );
}

function numberField(
  id: string,
  label: string,
  value: string,
  range: { readonly min: number; readonly max: number; readonly step: string },
  hint: string,
  onInput: (value: string) => void,
): HTMLElement {
  return h(
    'div',
    { class: 'option' },
    h('label', { for: id }, label),
    h('input', {
      id,
      type: 'number',
      inputmode: 'decimal',
      min: String(range.min),
      max: String(range.max),
      step: range.step,
      value,
      placeholder: hint,
      'aria-describedby': `${id}-hint`,
      oninput: (event: Event) => {
        onInput((event.target as HTMLInputElement).value);
      },
    }),
    h('span', { class: 'hint', id: `${id}-hint` }, hint),
  );
}

const MIB = 1024 * 1024;

/**
 * The plan's options (the CLI's `plan` options, with the ranges of their one definition in core): changing one
 * re-plans at once from the same assessment, nothing is measured again.
 */
function planControls(state: WizardState, actions: WizardActions): HTMLElement {
  const choices = state.planChoices;
  const set = (change: Partial<PlanChoices>): void => {
    actions.setPlanChoices(change);
  };
  const memory = FLAG_DEFINITIONS.unlockMemory.schema;
  const length = FLAG_DEFINITIONS.passwordLength.schema;
  return h(
    'section',
    { class: 'card plan-options', 'aria-labelledby': 'plan-options-title' },
    h('h2', { id: 'plan-options-title' }, 'Plan for'),
    h(
      'div',
      { class: 'options-grid' },
      select(
        'option-target',
        'Encryption',
        choices.targetTool ?? '',
        state.targetChoices.map((choice) => [choice.id, choice.label] as const),
        (value) => {
          set({ targetTool: value });
        },
      ),
      ...(
        [
          ['option-threat', 'Protect against', 'threatModel', THREAT_WORDS],
          ['option-workload', 'Use', 'workload', WORKLOAD_WORDS],
        ] as const
      ).map(([id, label, key, words]) =>
        select(
          id,
          label,
          choices[key],
          FLAG_DEFINITIONS[key].schema.options.map((value) => [value, words[value] ?? value] as const),
          (value) => {
            set({ [key]: value });
          },
        ),
      ),
      numberField(
        'option-memory',
        'Memory of the machine that unlocks it (MiB)',
        choices.unlockMemoryMiB,
        { min: (memory.minValue ?? 0) / MIB, max: Math.floor((memory.maxValue ?? 0) / MIB), step: 'any' },
        'Empty: this machine’s memory',
        (value) => {
          set({ unlockMemoryMiB: value });
        },
      ),
      numberField(
        'option-password',
        'Password length (characters)',
        choices.passwordLength,
        { min: length.minValue ?? 1, max: length.maxValue ?? 1, step: '1' },
        'Empty: unknown, planned as shorter than 20',
        (value) => {
          set({ passwordLength: value });
        },
      ),
      h(
        'div',
        { class: 'option check' },
        h('input', {
          type: 'checkbox',
          id: 'option-speed',
          checked: choices.speedOverSecurity,
          onchange: (event: Event) => {
            set({ speedOverSecurity: (event.target as HTMLInputElement).checked });
          },
        }),
        h('label', { for: 'option-speed' }, 'Prefer speed where the cipher is the bottleneck'),
      ),
    ),
    state.planError === null
      ? null
      : h('p', { class: 'alert tone-attention', role: 'alert', id: 'plan-error' }, state.planError),
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
    h('p', {}, inWords(view.answer.reason)),
    view.fixFirst.length === 0
      ? h('p', {}, 'Nothing to fix first.')
      : h(
          'div',
          {},
          h('h3', {}, 'Fix first'),
          h(
            'ol',
            { class: 'fix-first' },
            view.fixFirst.map((item) => h('li', {}, badge(item.tone), ' ', inWords(item.message))),
          ),
        ),
    h('h3', {}, 'The plan'),
    h(
      'dl',
      { class: 'decisions' },
      view.decisions.flatMap((decision) => [
        h('dt', {}, decision.label),
        h('dd', {}, inWords(decision.value)),
      ]),
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
        notes.map((finding) => h('li', {}, badge(finding.tone), ' ', inWords(finding.message))),
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
            h('td', field === 'source' ? { class: 'source' } : {}, inWords(row[field] as string)),
          ),
        ),
      ),
    ),
  );
}

/** A table folded under a summary: there on demand, not screens of rows on the way to the next step. */
function folded(summary: string, table: HTMLElement): HTMLElement {
  return h('details', { class: 'folded-table' }, h('summary', {}, summary), table);
}

/** Step 4: recommendations with reasons, plain vs encrypted per profile, predicted vs measured. */
export function renderPlanStep(state: WizardState, actions: WizardActions): HTMLElement {
  const view = state.view;
  const body =
    view === null
      ? [h('p', {}, 'No assessment yet.')]
      : [
          strategy(view.strategy),
          answer(view),
          planControls(state, actions),
          h('h2', {}, 'Why: each recommendation'),
          infoFindings(view),
          view.recommendations.length === 0
            ? h('p', {}, inWords(view.planMissingReason ?? ''))
            : h('ol', { class: 'recommendations' }, view.recommendations.map(recommendation)),
          h('h2', {}, 'Speed: plain vs encrypted, cipher and key derivation'),
          view.benchmarkRows.length === 0
            ? h('p', { class: 'source' }, `Not measured: ${inWords(view.benchmarkMissingReason ?? '')}`)
            : h(
                'div',
                {},
                view.charts.map((chart) => svgFigure(renderChart(chart), `${chart.title} (${chart.unit})`)),
                folded(
                  'Every measurement (fio)',
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
              ),
          view.predictions.length === 0
            ? null
            : folded(
                'Predicted encrypted speed next to measured plain speed',
                measurementTable(
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
                    h(
                      'li',
                      {},
                      badge('unknown', warningInWords(warning.code)),
                      ' ',
                      inWords(warning.message),
                    ),
                  ),
                ),
              ),
        ];
  return stepFrame(
    'Your plan',
    'What encplan recommends for this drive, and why. Change what the plan is for below: it is re-planned at once from the same measurements.',
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
