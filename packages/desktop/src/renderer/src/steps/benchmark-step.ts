import {
  benchmarkFootprintFromJson,
  formatBytes,
  formatDuration,
  formatRate,
  toMebibytesPerSecond,
  type JobSnapshot,
} from '@encplan/core';
import { renderChart } from '../chart-renderer.js';
import { h, svgFigure } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { stepFrame } from './step-frame.js';
import { missingToolsNotice } from './error-state.js';

/** Live samples are labelled "profile · target"; grouped by profile, one bar colour per target, as in step 4. */
function liveChart(job: JobSnapshot | null): HTMLElement | null {
  const samples = job?.samples ?? [];
  if (samples.length === 0) {
    return null;
  }
  const groups = new Map<string, Map<string, number>>();
  const series: string[] = [];
  for (const sample of samples) {
    const [profile = sample.label, target = 'measured'] = sample.label.split(' · ');
    if (!series.includes(target)) {
      series.push(target);
    }
    groups.set(
      profile,
      (groups.get(profile) ?? new Map<string, number>()).set(
        target,
        toMebibytesPerSecond(sample.bytesPerSecond),
      ),
    );
  }
  const svg = renderChart({
    id: 'live',
    title: 'Measured so far',
    unit: 'MiB/s',
    max: null,
    series,
    groups: [...groups.entries()].map(([label, values]) => ({
      label,
      bars: series
        .filter((name) => values.has(name))
        .map((name) => ({ series: name, value: values.get(name) ?? null })),
    })),
  });
  const last = samples.at(-1);
  return svgFigure(
    svg,
    `Measured so far, in MiB/s and MB/s.${last === undefined ? '' : ` Latest: ${last.label}, ${formatRate(last.bytesPerSecond)}.`}`,
  );
}

const STATE_TEXT: Readonly<Record<JobSnapshot['state'], string>> = {
  running: 'Running',
  done: 'Finished',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/**
 * Where the chosen run writes, said before it starts: the mounted filesystem of this drive that takes the
 * scratch files, how much they take at most, and that they are removed again (or that nothing is written).
 */
function whereItWrites(state: WizardState): HTMLElement {
  const ioChosen = state.selectedBackends.some((id) => id !== 'ciphers');
  if (state.selectedBackends.length === 0) {
    return h('p', { id: 'benchmark-footprint', class: 'footprint' }, 'Choose at least one measurement.');
  }
  if (!ioChosen) {
    return h(
      'p',
      { id: 'benchmark-footprint', class: 'footprint' },
      h('strong', {}, 'Nothing is written: '),
      'cipher and key-derivation speed are measured in memory.',
    );
  }
  const footprint = benchmarkFootprintFromJson(state.envelope, state.benchmarkMode, state.selectedBackends);
  if (footprint === null) {
    return h(
      'p',
      { id: 'benchmark-footprint', class: 'footprint' },
      'Where the benchmark writes is shown once step 2 has read this drive.',
    );
  }
  if (footprint.directory === null) {
    return h(
      'p',
      { id: 'benchmark-footprint', class: 'footprint alert tone-attention' },
      h('strong', {}, 'No I/O measurement on this drive: '),
      'none of its filesystems is mounted, so there is nowhere to put scratch files. encplan never writes to the raw device from the wizard; only cipher speed will be measured. Mount a filesystem of this drive to measure I/O.',
    );
  }
  return h(
    'p',
    { id: 'benchmark-footprint', class: 'footprint' },
    h('strong', {}, 'Where it writes: '),
    `a new private folder in ${footprint.directory} (a mounted filesystem of this drive), holding scratch files of up to ${formatBytes(footprint.scratchBytes)}; ${formatBytes(footprint.freeNeededBytes)} must be free there. Every file, loop device and mapping it makes is removed afterwards, also when you cancel. Your files and the raw device are not touched.`,
  );
}

/**
 * The time left, extrapolated from the time so far and the fraction done; said only once a twentieth is done,
 * because the first steps (preparing the scratch files) say little about the rate.
 */
function remaining(fraction: number, startedAtMs: number | null): string {
  if (startedAtMs === null || fraction < 0.05 || fraction >= 1) {
    return ' · estimating the time left…';
  }
  const elapsedSeconds = (Date.now() - startedAtMs) / 1000;
  return ` · about ${formatDuration((elapsedSeconds * (1 - fraction)) / fraction)} left`;
}

/** Step 3: quick or full, the backends this machine supports, where it writes, live progress and chart, and Cancel. */
export function renderBenchmarkStep(state: WizardState, actions: WizardActions): HTMLElement {
  // The facts-only job of step 2 is not a benchmark: show only benchmark jobs here.
  const job = state.jobKind === 'benchmark' ? state.job : null;
  const running = state.job?.state === 'running';
  const backends = state.capabilities?.backends ?? [];
  const modes = h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, 'How thorough?'),
    (
      [
        [
          'quick',
          'Quick',
          'About half a minute: cipher speed and the main read and write profiles, once each.',
        ],
        ['full', 'Full', 'Every profile, repeated for a median and spread; can take much longer.'],
      ] as const
    ).map(([mode, label, hint]) =>
      h(
        'div',
        { class: 'choice' },
        h('input', {
          type: 'radio',
          name: 'mode',
          id: `mode-${mode}`,
          value: mode,
          checked: state.benchmarkMode === mode,
          disabled: running,
          'aria-describedby': `mode-${mode}-hint`,
          onchange: () => {
            actions.setBenchmarkMode(mode);
          },
        }),
        h('label', { for: `mode-${mode}` }, label),
        h('span', { class: 'hint', id: `mode-${mode}-hint` }, hint),
      ),
    ),
  );
  const backendChoices = h(
    'fieldset',
    { class: 'choices' },
    h('legend', {}, 'What to compare'),
    backends.length === 0
      ? h('p', {}, 'No benchmark backend is available on this machine.')
      : backends.map((backend, index) =>
          h(
            'div',
            { class: 'choice' },
            h('input', {
              type: 'checkbox',
              id: `backend-${String(index)}`,
              checked: state.selectedBackends.includes(backend.id),
              disabled: running || !backend.available,
              'aria-describedby': backend.reason === null ? null : `backend-${String(index)}-reason`,
              onchange: (event: Event) => {
                actions.toggleBackend(backend.id, (event.target as HTMLInputElement).checked);
              },
            }),
            h('label', { for: `backend-${String(index)}` }, backend.label),
            backend.reason === null
              ? null
              : h(
                  'span',
                  { class: 'hint', id: `backend-${String(index)}-reason` },
                  backend.available ? backend.reason : `Not available here. ${backend.reason}`,
                ),
          ),
        ),
  );
  const fraction = job?.progress.fraction ?? 0;
  const progress =
    job === null
      ? null
      : h(
          'div',
          { class: 'progress' },
          h(
            'label',
            { for: 'benchmark-progress' },
            running
              ? `${STATE_TEXT.running}: ${job.progress.phase}${remaining(fraction, state.jobStartedAtMs)}`
              : STATE_TEXT[job.state],
          ),
          h(
            'progress',
            { id: 'benchmark-progress', max: '100', value: String(Math.round(fraction * 100)) },
            `${String(Math.round(fraction * 100))} %`,
          ),
          h('span', { class: 'percent' }, `${String(Math.round(fraction * 100))} %`),
        );
  const controls = h(
    'div',
    { class: 'controls' },
    running
      ? h(
          'button',
          {
            type: 'button',
            id: 'cancel',
            class: 'danger',
            onclick: () => {
              actions.cancelJob();
            },
          },
          'Cancel',
        )
      : h(
          'button',
          {
            type: 'button',
            id: 'start-benchmark',
            class: 'primary',
            disabled: state.selectedBackends.length === 0,
            onclick: () => {
              actions.startBenchmark();
            },
          },
          'Start benchmark',
        ),
  );
  return stepFrame(
    'Benchmark: plain vs encrypted',
    'encplan measures cipher speed in memory and, where this machine can, reads and writes test files plain and through each encryption method. Only what this machine can run is offered; the rest says what it needs.',
    [
      modes,
      backendChoices,
      whereItWrites(state),
      controls,
      progress,
      job?.state === 'done' && state.view !== null ? missingToolsNotice(state.view.warnings) : null,
      liveChart(job),
    ],
    {
      back: () => {
        actions.goTo(2);
      },
      next: () => {
        actions.goTo(4);
      },
      nextLabel: job?.state === 'done' ? 'See the plan' : 'Skip to the plan',
      nextDisabled: running,
    },
  );
}
