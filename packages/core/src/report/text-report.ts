import type { Warning } from '../domain/warning.js';
import type { FactView, SectionView, Tone } from './assessment-sections.js';
import type { DocumentView } from './document-views.js';
import { formatTimestamp, UNKNOWN } from './labels.js';
import {
  renderCommandsScript,
  renderPlanCommandsScript,
  type IoView,
  type PlanView,
  type ReportView,
} from './report-view.js';

/** The word a terminal shows for a tone (no colour needed to read it). */
const TONE_WORD: Readonly<Record<Tone, string>> = {
  good: 'ok',
  attention: 'attention',
  bad: 'PROBLEM',
  unknown: 'unknown',
  info: 'info',
};

/** How a line of text is styled: a heading, a quiet detail, or a tone. The CLI maps these to colours. */
export type TextStyle = 'heading' | 'dim' | Tone;

/** How to render text for a terminal or a pipe. */
export interface TextRenderOptions {
  /** Everything (each fact, evidence, benchmarks, predictions, the script); false = the one-screen summary. */
  readonly verbose?: boolean;
  /** Wrap prose to this many columns (a terminal's width); null = never wrap (a pipe, a file). */
  readonly width?: number | null;
  /** Paints one line in a style (ANSI colours on a terminal); the identity by default, so text stays plain. */
  readonly paint?: (style: TextStyle, line: string) => string;
}

/** A line before wrapping and painting; tables and scripts are never wrapped (`wrap: false`). */
interface Line {
  readonly text: string;
  readonly style: TextStyle | null;
  readonly wrap: boolean;
}

const line = (text: string, style: TextStyle | null = null): Line => ({ text, style, wrap: true });
const block = (text: string): Line[] =>
  text.split('\n').map((part) => ({ text: part, style: null, wrap: false }));

/** Lines continue under their text: after the indent and a list marker ("1. ", "! ", "· ", "- "). */
const LIST_MARKER = /^\s*(?:\d+\.\s|[!✓?·\-–]\s)/u;
/** …or under the value of a "label  value" row (a gap of two spaces or more within the first 40 columns). */
const LABEL_GAP = /^\s*\S.{0,38}?\S\s{2,}(?=\S)/u;

function hangingIndent(text: string): string {
  const prefix = LIST_MARKER.exec(text)?.[0] ?? LABEL_GAP.exec(text)?.[0] ?? /^\s*/u.exec(text)?.[0] ?? '';
  return ' '.repeat(prefix.length);
}

/** Wraps one line at spaces to `width` columns with a hanging indent; a word longer than a line stays whole. */
function wrapLine(text: string, width: number): string[] {
  if (text.length <= width) {
    return [text];
  }
  const indent = hangingIndent(text);
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/(?<=\S) (?=\S)/u)) {
    if (current !== '' && current.length + 1 + word.trimStart().length > width) {
      lines.push(current);
      current = `${indent}${word.trimStart()}`;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines;
}

function finish(lines: readonly Line[], options: TextRenderOptions): string {
  const width = options.width ?? null;
  const paint = options.paint ?? ((_style: TextStyle, text: string): string => text);
  return lines
    .flatMap((entry) =>
      (entry.wrap && width !== null ? wrapLine(entry.text, Math.max(40, width)) : [entry.text]).map((text) =>
        entry.style === null || text === '' ? text : paint(entry.style, text),
      ),
    )
    .join('\n');
}

/** A fixed-width table with a header row; columns are padded to their widest cell. */
export function formatTextTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '  ',
  rightAligned: readonly boolean[] = [],
): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const format = (cells: readonly string[]): string =>
    `${indent}${cells.map((cell, column) => (rightAligned[column] === true ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join('  ')}`.trimEnd();
  return [format(header), ...rows.map(format)].join('\n');
}

function factLines(facts: readonly FactView[]): Line[] {
  const width = Math.max(0, ...facts.map((fact) => fact.label.length));
  return facts.map((fact) =>
    line(`  ${fact.label.padEnd(width)}  ${fact.value}${fact.source === null ? '' : `  [${fact.source}]`}`),
  );
}

const MARK: Readonly<Record<Tone, string>> = { good: '✓', attention: '!', bad: '!', unknown: '?', info: '-' };

function sectionLines(section: SectionView): Line[] {
  return [
    line(''),
    line(
      `${section.title}: ${section.verdict} (${TONE_WORD[section.tone]})`,
      section.tone === 'info' ? 'heading' : section.tone,
    ),
    line(`  ${section.summary}`),
    ...(section.missingReason === null || section.missingReason === section.summary
      ? []
      : [line(`  Not measured: ${section.missingReason}`, 'dim')]),
    ...section.findings.map((finding) =>
      line(
        `  ${MARK[finding.tone]} ${finding.message}${finding.source === null ? '' : `  [${finding.source}]`}`,
      ),
    ),
    ...factLines(section.facts),
  ];
}

/** How many fix-first items the summary lists before it points to --verbose. */
const SUMMARY_FIX_FIRST = 3;

/** The answer first: verdict, what to fix first and the plan's decisions (the summary and --verbose both open so). */
function answerLines(view: PlanView, verbose: boolean): Line[] {
  if (view.answer === null) {
    return [line(''), line(view.planMissingReason ?? 'No plan.', 'attention')];
  }
  const shown = verbose ? view.fixFirst : view.fixFirst.slice(0, SUMMARY_FIX_FIRST);
  const labelWidth = Math.max(0, ...view.decisions.map((decision) => decision.label.length));
  return [
    line(''),
    line(`${view.answer.verdict.toUpperCase()}  ${view.answer.headline}`, view.answer.tone),
    line(`  ${view.answer.reason}`),
    ...strategyLines(view, verbose),
    ...(shown.length === 0
      ? []
      : [
          line(''),
          line('Fix first', 'heading'),
          ...shown.map((item, index) => line(`  ${String(index + 1)}. ${item.message}`, item.tone)),
          ...(shown.length < view.fixFirst.length
            ? [line(`  … and ${String(view.fixFirst.length - shown.length)} more (--verbose)`, 'dim')]
            : []),
        ]),
    line(''),
    line('The plan', 'heading'),
    ...view.decisions.map((decision) => line(`  ${decision.label.padEnd(labelWidth)}  ${decision.value}`)),
  ];
}

/** The plan's first decision; its steps and preconditions only with --verbose. */
function strategyLines(view: PlanView, verbose: boolean): Line[] {
  const { strategy } = view;
  if (strategy === null) {
    return [];
  }
  return [
    line(''),
    line(`Strategy: ${strategy.title}`, 'heading'),
    line(`  ${strategy.reason}`),
    ...(verbose ? strategy.lines.map((text) => line(`  - ${text}`)) : []),
  ];
}

function deviceLine(view: ReportView): string {
  const device = view.device;
  return device === null
    ? view.title
    : `encplan: ${device.path} · ${device.model} · ${device.size} ${device.transport}${device.isSystemDisk ? ' · system disk' : ''}${view.status === 'ok' ? '' : ` · ${view.status}`}`;
}

/** The one-screen summary: the answer, then one line of checks, then where the rest is. */
function summaryLines(view: ReportView): Line[] {
  const destroying = view.commands.filter((command) => command.destroysData).length;
  // Measured beats modelled: the first profile with a measured encrypted figure, else the first predicted one.
  const prediction =
    view.predictions.find((row) => row.measuredEncrypted !== UNKNOWN) ??
    view.predictions.find((row) => row.known) ??
    null;
  return [
    line(deviceLine(view), 'heading'),
    ...answerLines(view, false),
    line(''),
    line('Checks', 'heading'),
    line(
      `  ${view.sections.map((section) => `${MARK[section.tone]} ${section.title}: ${section.verdict}`).join(' · ')}`,
    ),
    ...(prediction === null
      ? []
      : [
          line(
            prediction.measuredEncrypted !== UNKNOWN
              ? `  Speed (${prediction.profile}): plain ${prediction.measuredPlain}, encrypted ${prediction.measuredEncrypted} measured (predicted ${prediction.predictedEncrypted})`
              : `  Speed (${prediction.profile}): plain ${prediction.measuredPlain}, encrypted ${prediction.predictedEncrypted} predicted (limited by ${prediction.limitedBy})`,
          ),
        ]),
    ...(prediction === null || view.cipherEvidenceRank === null
      ? []
      : [line(`  Cipher speed evidence: ${view.cipherEvidenceRank}`)]),
    ...quickNote(view),
    line(''),
    line(
      view.commands.length === 0
        ? 'The plan has no commands to run.'
        : `Commands: ${String(view.commands.length)}${destroying === 0 ? '' : `, ${String(destroying)} destroying data${view.includeDestructive ? ' (live: --destructive)' : ' (commented out)'}`}; print the script with --commands.`,
      'dim',
    ),
    line(
      `${view.warnings.length === 0 ? '' : `${String(view.warnings.length)} thing(s) could not be checked. `}Every fact, benchmark, prediction and reason: --verbose; a report to keep: --html FILE.`,
      'dim',
    ),
  ];
}

/** Each recommendation with its reason and evidence (the plan's info findings first). */
function reasonLines(view: PlanView): Line[] {
  const lines: Line[] = [line(''), line('Why: each recommendation and its evidence', 'heading')];
  if (view.recommendations.length === 0) {
    lines.push(line(`  ${view.planMissingReason ?? ''}`));
  }
  lines.push(
    ...view.planFindings
      .filter((finding) => finding.tone === 'info')
      .map((finding) => line(`  - ${finding.message}`)),
  );
  view.recommendations.forEach((item, index) => {
    lines.push(
      line(
        `  ${String(index + 1)}. ${item.title}: ${item.value}  (confidence ${item.confidence}; rule ${item.ruleId})`,
      ),
      line(`     ${item.reason}`),
      ...item.evidence.map((fact) =>
        line(`     · ${fact.label}: ${fact.value}${fact.source === null ? '' : `  [${fact.source}]`}`, 'dim'),
      ),
    );
  });
  return lines;
}

/** The plan's performance model: measured plain next to predicted encrypted, then each profile's assumption. */
function predictionLines(view: PlanView): Line[] {
  if (view.predictions.length === 0) {
    return [];
  }
  const assumptions = new Map<string, string>();
  for (const row of view.predictions) {
    assumptions.set(row.profile.replace(/ (read|write)$/u, ''), row.assumption);
  }
  return [
    line(''),
    line('Predicted encrypted throughput (the plan’s model)', 'heading'),
    ...block(
      formatTextTable(
        ['Profile', 'Measured plain', 'Predicted encrypted', 'Measured encrypted', 'Limited by'],
        view.predictions.map((row) => [
          row.profile,
          row.measuredPlain,
          row.predictedEncrypted,
          row.measuredEncrypted,
          row.limitedBy,
        ]),
      ),
    ),
    ...[...assumptions].map(([profile, assumption]) => line(`  · ${profile}: ${assumption}`, 'dim')),
    ...(view.cipherEvidence === null
      ? []
      : [line(`  · Cipher speed evidence: ${view.cipherEvidence}`, 'dim')]),
  ];
}

/** How long one attacker expects to guess the password, and the notes behind the figures. */
function attackerLines(view: PlanView): Line[] {
  if (view.attackerCost.length === 0) {
    return [];
  }
  return [
    line(''),
    line('Attacker cost (expected time to guess the password)', 'heading'),
    ...block(
      formatTextTable(
        ['Key derivation', 'Attacker', 'Password', 'Expected time'],
        view.attackerCost.map((row) => [row.kdf, row.attacker, row.password, row.expectedTime]),
      ),
    ),
    ...view.attackerNotes.map((note) => line(`  · ${note}`, 'dim')),
  ];
}

/** The script under a heading, indented; never wrapped (it is copied into a shell). */
function scriptLines(heading: string, script: string): Line[] {
  return [
    line(''),
    line(heading, 'heading'),
    ...block(
      script
        .trimEnd()
        .split('\n')
        .map((text) => `  ${text}`)
        .join('\n'),
    ),
  ];
}

/** The I/O benchmark: each measured profile and target, the overhead of each encrypted variant, the notes. */
function ioLines(view: IoView): Line[] {
  const lines: Line[] = [line(''), line('Plain versus encrypted I/O', 'heading')];
  if (view.benchmarkRows.length === 0) {
    return [...lines, line(`  Not measured: ${view.benchmarkMissingReason ?? ''}`)];
  }
  lines.push(
    ...block(
      formatTextTable(
        ['Profile', 'Target', 'Measured', 'Source'],
        view.benchmarkRows.map((row) => [row.profile, row.target, row.measured, row.source]),
      ),
    ),
  );
  if (view.overheadRows.length > 0) {
    lines.push(
      line(''),
      line('Overhead of encryption (measured)', 'heading'),
      ...block(
        formatTextTable(
          ['Profile', 'Variant', 'Plain', 'Encrypted', 'Ratio', 'CPU plain / enc', 'Bound'],
          view.overheadRows.map((row) => [
            row.profile,
            row.variant,
            row.plain,
            row.encrypted,
            row.ratio,
            row.cpu,
            row.bound,
          ]),
        ),
      ),
    );
  }
  lines.push(...view.benchmarkNotes.map((note) => line(`  · ${note}`, 'dim')));
  return lines;
}

function warningLines(warnings: readonly Warning[]): Line[] {
  return warnings.length === 0
    ? []
    : [
        line(''),
        line('What encplan could not find out', 'heading'),
        ...warnings.map((warning) =>
          line(
            `  ! ${warning.message} [${warning.source === null ? '' : `${warning.source}; `}${warning.code}]`,
          ),
        ),
      ];
}

/** Everything: the answer, then each recommendation with its evidence, the drive, sections, measurements, script. */
function verboseLines(view: ReportView): Line[] {
  const lines: Line[] = [
    line(
      `${view.title}: status ${view.status} (${formatTimestamp(view.generatedAt)}, encplan ${view.toolVersion})`,
      'heading',
    ),
    ...answerLines(view, true),
    ...reasonLines(view),
  ];
  if (view.device !== null) {
    lines.push(
      line(''),
      line(
        `Drive: ${view.device.model}, ${view.device.size}, ${view.device.transport} ${view.device.kind} at ${view.device.path}${view.device.isSystemDisk ? ' (system disk)' : ''}`,
        'heading',
      ),
      ...factLines(view.device.facts),
    );
  }
  if (view.stack.length > 0) {
    lines.push(
      line(''),
      line('Stack (from the disk up)', 'heading'),
      ...view.stack.map((entry) =>
        line(`  ${entry.depth === 0 ? '' : `${'   '.repeat(entry.depth - 1)}└─ `}${entry.text}`),
      ),
    );
  }
  lines.push(...view.sections.flatMap(sectionLines));
  lines.push(...ioLines(view), ...predictionLines(view), ...attackerLines(view));
  lines.push(
    ...scriptLines('Commands (the same script as assess --commands)', renderCommandsScript(view)),
    ...warningLines(view.warnings),
  );
  return lines;
}

/**
 * The human text of `encplan plan`, `health`, `benchmark ciphers` and `benchmark io`: the same blocks as the
 * assessment report's --verbose text (the plan, its sections, the I/O tables), from the command's document.
 */
export function renderDocumentText(view: DocumentView, options: TextRenderOptions = {}): string {
  const plan = view.plan;
  return finish(
    [
      line(view.title, 'heading'),
      ...(plan === null
        ? []
        : [
            ...answerLines(plan, true),
            ...reasonLines(plan),
            ...predictionLines(plan),
            ...attackerLines(plan),
            ...scriptLines('Commands (planning ran none of them)', renderPlanCommandsScript(plan)),
          ]),
      ...view.sections.flatMap(sectionLines),
      ...(view.io === null ? [] : ioLines(view.io)),
      ...warningLines(view.warnings),
    ],
    options,
  );
}

/**
 * The human report of `encplan assess`: the shared view model as text. It leads with the answer (as the HTML
 * report does); the summary fits one screen, `verbose` adds every fact, measurement, prediction and the script.
 */
export function renderTextReport(view: ReportView, options: TextRenderOptions = {}): string {
  if (view.error !== null && view.device === null) {
    return finish(
      [
        line(`encplan: ${view.error.code}: ${view.error.message}`, 'bad'),
        ...(view.error.hint === null ? [] : [line(`  ${view.error.hint}`)]),
      ],
      options,
    );
  }
  return finish(options.verbose === true ? verboseLines(view) : summaryLines(view), options);
}

/** Quick mode's cuts in one line of the summary (--verbose lists each): fewer runs mean a wider spread. */
function quickNote(view: ReportView): Line[] {
  const cuts = view.benchmarkRows.filter((row) => row.profile === 'quick mode').length;
  return cuts === 0
    ? []
    : [
        line(
          `  Quick benchmark: ${String(cuts)} thing(s) left out and single short runs, so figures spread wider than a full run's; --verbose lists them.`,
        ),
      ];
}
