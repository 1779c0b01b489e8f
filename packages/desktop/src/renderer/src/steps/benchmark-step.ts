import {
  assessmentDocument,
  cacheAbsorbed,
  formatBytes,
  formatDuration,
  formatRate,
  toMebibytesPerSecond,
  type AssessSample,
  type JobSnapshot,
} from '@encplan/core';
import { renderChart } from '../chart-renderer.js';
import { h, svgFigure } from '../element-builder.js';
import type { WizardActions, WizardState } from '../wizard-state.js';
import { stepFrame } from './step-frame.js';
import { missingToolsNotice } from './error-state.js';

/** Why a starred figure is no encryption speed (the plan and the reports leave it out for the same reason). */
const ABSORBED_NOTE =
  'Faster than the plain drive: the page cache served these, not the cipher, so they are no encryption speed. The plan leaves them out.';

/**
 * Whether a live sample is a figure the page cache served: an encrypted I/O result faster than the plain run of
 * the same test beyond both runs' spread (core's cacheAbsorbed, the rule the finished grid, the plan and the
 * reports use). Unknown until the plain run of that test has arrived: then it is drawn.
 */
function absorbedSample(sample: AssessSample, samples: readonly AssessSample[]): boolean {
  const test = sample.test;
  if (test === undefined || test.backend === 'plain') {
    return false;
  }
  const plain = samples.find(
    (other) =>
      other.test?.backend === 'plain' &&
      other.test.profile === test.profile &&
      other.test.direction === test.direction,
  );
  return (
    plain !== undefined &&
    cacheAbsorbed(
      { ...plain, medianBytesPerSecond: plain.bytesPerSecond },
      { ...sample, medianBytesPerSecond: sample.bytesPerSecond },
    )
  );
}

/**
 * Live samples are labelled "profile · target"; grouped by profile, one bar colour per target, as in step 4.
 * A figure the page cache served is not drawn as encryption speed: it is named below the chart with the reason.
 */
function liveChart(job: JobSnapshot | null): HTMLElement | null {
  const samples = job?.samples ?? [];
  if (samples.length === 0) {
    return null;
  }
  const groups = new Map<string, Map<string, number>>();
  const series: string[] = [];
  const leftOut: AssessSample[] = [];
  for (const sample of samples) {
    if (absorbedSample(sample, samples)) {
      leftOut.push(sample);
      continue;
    }
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
  const figure = svgFigure(
    svg,
    `Measured so far, in MiB/s and MB/s.${last === undefined ? '' : ` Latest: ${last.label}, ${formatRate(last.bytesPerSecond)}${leftOut.includes(last) ? ' (not drawn: the page cache served it)' : ''}.`}`,
  );
  if (leftOut.length > 0) {
    figure.append(
      h(
        'p',
        { id: 'live-left-out', class: 'source' },
        `Not drawn: ${leftOut.map((sample) => `${sample.label} (${formatRate(sample.bytesPerSecond)})`).join(', ')}. ${ABSORBED_NOTE}`,
      ),
    );
  }
  return figure;
}

/** One I/O test of the results grid. */
type GridTest = NonNullable<AssessSample['test']>;

/** A running or finished I/O test in words: "SEQ1M Q8T1 read, encrypted (fscrypt)". */
function testInWords(test: GridTest): string {
  return `${test.profile} ${test.direction}, ${test.backend === 'plain' ? 'plain' : `encrypted (${test.variant})`}`;
}

/** A variant as a column heading: "Plain", "fscrypt", "luks2 sector 4096" (the report's variant names). */
function columnName(test: GridTest): string {
  return test.backend === 'plain' ? 'Plain' : test.variant;
}

/** A result of the grid; `absorbed`: the page cache served it, so it is no encryption speed. */
type GridResult = GridTest & { readonly bytesPerSecond: number; readonly absorbed?: boolean };

/**
 * The results of a finished assessment's I/O benchmark (authoritative: refused figures are not in it). An
 * encrypted result faster than plain beyond both runs' spread is marked absorbed (core's cacheAbsorbed, the
 * rule the plan and the reports use to keep such figures out of ratios, charts and the answer).
 */
function finishedResults(envelope: unknown): GridResult[] | null {
  const parsed = assessmentDocument.envelope.safeParse(envelope);
  const io = parsed.success ? (parsed.data.result?.ioBenchmark ?? null) : null;
  if (io === null) {
    return null;
  }
  const plainOf = (label: string, direction: string) =>
    io.plain.profiles.find((entry) => entry.profile.label === label && entry.profile.direction === direction)
      ?.summary;
  return [io.plain, ...io.encrypted].flatMap((target) =>
    target.profiles.map((measurement) => ({
      profile: measurement.profile.label,
      direction: measurement.profile.direction,
      backend: target.backend,
      variant: target.variant,
      bytesPerSecond: measurement.summary.medianBytesPerSecond,
      absorbed:
        target !== io.plain &&
        cacheAbsorbed(plainOf(measurement.profile.label, measurement.profile.direction), measurement.summary),
    })),
  );
}

/** MB/s (10^6 bytes per second), the unit CrystalDiskMark and KDiskMark show, so the figures compare. */
function megabytesPerSecond(bytesPerSecond: number): string {
  const mb = bytesPerSecond / 1e6;
  return mb >= 100 ? mb.toFixed(0) : mb.toFixed(mb >= 10 ? 1 : 2);
}

/**
 * The CrystalDiskMark-style results grid: a row per profile, a read and a write column for plain storage and
 * each encrypted variant; filled as each result arrives (the running test's cell says so), kept when done.
 */
function resultsGrid(job: JobSnapshot | null, envelope: unknown): HTMLElement | null {
  const finished = job?.state === 'done' ? finishedResults(envelope) : null;
  const results: GridResult[] =
    finished ??
    (job?.samples ?? []).flatMap((sample) =>
      sample.test === undefined ? [] : [{ ...sample.test, bytesPerSecond: sample.bytesPerSecond }],
    );
  const running = job?.state === 'running' ? (job.progress.test ?? null) : null;
  const tests: GridTest[] = [...results, ...(running === null ? [] : [running])];
  if (tests.length === 0) {
    return null;
  }
  const profiles = [...new Set(tests.map((test) => test.profile))];
  const columns = [...new Map(tests.map((test) => [test.variant, test] as const)).values()].sort(
    (a, b) => Number(b.backend === 'plain') - Number(a.backend === 'plain'),
  );
  const cell = (profile: string, variant: string, direction: GridTest['direction']): HTMLElement => {
    const found = results.find(
      (result) => result.profile === profile && result.variant === variant && result.direction === direction,
    );
    if (found?.absorbed === true) {
      return h(
        'td',
        { class: 'result absorbed', title: `${formatRate(found.bytesPerSecond)}: ${ABSORBED_NOTE}` },
        `${megabytesPerSecond(found.bytesPerSecond)}*`,
      );
    }
    if (found !== undefined) {
      return h(
        'td',
        { class: 'result', title: formatRate(found.bytesPerSecond) },
        megabytesPerSecond(found.bytesPerSecond),
      );
    }
    const now =
      running !== null &&
      running.profile === profile &&
      running.variant === variant &&
      running.direction === direction;
    return now
      ? h('td', { class: 'result running' }, h('span', { class: 'visually-hidden' }, 'measuring now'), '…')
      : h(
          'td',
          { class: 'result pending' },
          h('span', { class: 'visually-hidden' }, 'not measured yet'),
          '–',
        );
  };
  const anyAbsorbed = results.some((result) => result.absorbed === true);
  return h(
    'table',
    { id: 'benchmark-grid', class: 'results-grid' },
    h('caption', {}, 'Results in MB/s (as CrystalDiskMark shows them), median of the runs'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('td', {}),
        columns.map((column) =>
          h(
            'th',
            { scope: 'colgroup', colspan: '2', class: column.backend === 'plain' ? 'plain' : 'encrypted' },
            columnName(column),
          ),
        ),
      ),
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Test'),
        columns.flatMap(() => [h('th', { scope: 'col' }, 'Read'), h('th', { scope: 'col' }, 'Write')]),
      ),
    ),
    h(
      'tbody',
      {},
      profiles.map((profile) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, profile),
          columns.flatMap((column) => [
            cell(profile, column.variant, 'read'),
            cell(profile, column.variant, 'write'),
          ]),
        ),
      ),
    ),
    anyAbsorbed
      ? h(
          'tfoot',
          {},
          h(
            'tr',
            {},
            h('td', { colspan: String(1 + columns.length * 2), class: 'source' }, `* ${ABSORBED_NOTE}`),
          ),
        )
      : [],
  );
}

/**
 * Where the chosen run writes, said before it starts: the folder the run itself will choose (the backend asks
 * the same function as `encplan assess --benchmark`), how much the scratch files take at most, and that they
 * are removed again (or that nothing is written).
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
  const footprint = state.footprint;
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
  const amount = `scratch files of up to ${formatBytes(footprint.scratchBytes)}; ${formatBytes(footprint.freeNeededBytes)} must be free there`;
  if (footprint.replay) {
    return h(
      'p',
      { id: 'benchmark-footprint', class: 'footprint' },
      h('strong', {}, 'Nothing is written on this machine: '),
      `this replays a saved assessment. Its run wrote in a new private folder in ${footprint.directory}, with ${amount}, and removed them afterwards.`,
    );
  }
  return h(
    'p',
    { id: 'benchmark-footprint', class: 'footprint' },
    h('strong', {}, 'Where it writes: '),
    `a new private folder in ${footprint.directory} (a mounted filesystem of this drive), holding ${amount}. Every file, loop device and mapping it makes is removed afterwards, also when you cancel. Your files and the raw device are not touched.`,
  );
}

/** The progress line: what runs now (the I/O test in words), and the time left with its stated spread. */
function progressText(state: WizardState, job: JobSnapshot): string {
  if (job.state === 'done') {
    const count = job.samples.filter((sample) => sample.test !== undefined).length;
    return count === 0 ? 'Finished.' : `Finished: ${String(count)} results.`;
  }
  if (job.state !== 'running') {
    return job.state === 'cancelled' ? 'Cancelled.' : 'Failed.';
  }
  const now = job.progress.test === undefined ? job.progress.phase : testInWords(job.progress.test);
  const shown = state.shownProgress;
  const left =
    shown?.etaMs === null || shown?.etaMs === undefined || shown.spreadMs === null
      ? 'estimating the time left…'
      : `about ${formatDuration(shown.etaMs / 1000)} left (± ${formatDuration(shown.spreadMs / 1000)})`;
  return `Running: ${now} · ${left}`;
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
  const fraction = job?.state === 'done' ? 1 : (state.shownProgress?.fraction ?? 0);
  const percent = `${String(Math.round(fraction * 100))} %`;
  const progress =
    job === null
      ? null
      : h(
          'div',
          { class: 'progress' },
          h('label', { for: 'benchmark-progress' }, progressText(state, job)),
          h(
            'progress',
            { id: 'benchmark-progress', max: '100', value: String(Math.round(fraction * 100)) },
            percent,
          ),
          h('span', { class: 'percent' }, percent),
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
          job === null ? 'Start benchmark' : 'Run again',
        ),
  );
  return stepFrame(
    'Benchmark: plain vs encrypted',
    'encplan measures cipher speed in memory and, where this machine can, reads and writes test files plain and through each encryption method. Only what this machine can run is offered; the rest says what it needs.',
    // Before a run, the choices lead; once one runs or ran, the button, progress and results grid do (as in
    // CrystalDiskMark), and the choices follow for the next run.
    job === null
      ? [modes, backendChoices, whereItWrites(state), controls]
      : [
          controls,
          progress,
          job.state === 'done' && state.view !== null ? missingToolsNotice(state.view.warnings) : null,
          resultsGrid(job, state.envelope),
          liveChart(job),
          running ? null : modes,
          running ? null : backendChoices,
          running ? null : whereItWrites(state),
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
