// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a type-only declaration (wrap-ansi 7 ships none), seen by every project that compiles this file (the tests', the desktop's)
/// <reference path="../types/wrap-ansi.d.ts" />
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import type { Warning } from '../domain/warning.js';
import type { FactView, SectionView, Tone } from './assessment-sections.js';
import type { DocumentView } from './document-views.js';
import { formatTimestamp, UNKNOWN } from './labels.js';
import type { ScriptCommandView } from './command-script.js';
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

/**
 * A line before wrapping and painting; scripts are never wrapped (`wrap: false`), a table is laid out for the
 * width by its own `render`.
 */
interface Line {
  readonly text: string;
  readonly style: TextStyle | null;
  readonly wrap: boolean;
  readonly render?: (width: number | null) => string;
}

const line = (text: string, style: TextStyle | null = null): Line => ({ text, style, wrap: true });
/** A table laid out when the width is known: its long cells wrap inside their column. */
const table = (header: readonly string[], rows: readonly (readonly string[])[]): Line => ({
  text: '',
  style: null,
  wrap: false,
  render: (width) => formatTextTable(header, rows, '  ', [], width),
});

/** Lines continue under their text: after the indent and a list marker ("1. ", "! ", "· ", "- "). */
const LIST_MARKER = /^\s*(?:\d+\.\s|[!✓?·\-–]\s)/u;
/** …or under the value of a "label  value" row (a gap of two spaces or more within the first 40 columns). */
const LABEL_GAP = /^\s*\S.{0,38}?\S\s{2,}(?=\S)/u;

function hangingIndent(text: string): string {
  return LIST_MARKER.exec(text)?.[0] ?? LABEL_GAP.exec(text)?.[0] ?? /^\s*/u.exec(text)?.[0] ?? '';
}

/**
 * Wraps one line to `width` terminal columns (string-width counts wide and combining characters, wrap-ansi keeps
 * colour sequences whole) at spaces, continuing under the line's text (a hanging indent); only a word longer
 * than the line is broken, so nothing runs past the terminal's edge.
 */
function wrapLine(text: string, width: number): string[] {
  if (stringWidth(text) <= width) {
    return [text];
  }
  const found = hangingIndent(text);
  // A label wider than half the line would leave its value a narrow column: continue under the indent instead.
  const prefix = stringWidth(found) <= width / 2 ? found : (/^\s*/u.exec(text)?.[0] ?? '');
  const indent = ' '.repeat(stringWidth(prefix));
  return wrapAnsi(text.slice(prefix.length), width - indent.length, { hard: true })
    .split('\n')
    .map((part, index) => `${index === 0 ? prefix : indent}${part}`);
}

/**
 * Fits text of several lines to `width` columns, each line wrapped with its hanging indent; null (a pipe, a
 * file) leaves it as it is. Lines never go narrower than 40 columns.
 */
export function fitText(text: string, width: number | null): string {
  return width === null
    ? text
    : text
        .split('\n')
        .flatMap((part) => wrapLine(part, Math.max(40, width)))
        .join('\n');
}

function finish(lines: readonly Line[], options: TextRenderOptions): string {
  const width = options.width ?? null;
  const paint = options.paint ?? ((_style: TextStyle, text: string): string => text);
  return lines
    .flatMap((entry) =>
      (entry.render !== undefined
        ? entry.render(width).split('\n')
        : entry.wrap && width !== null
          ? wrapLine(entry.text, Math.max(40, width))
          : [entry.text]
      ).map((text) => (entry.style === null || text === '' ? text : paint(entry.style, text))),
    )
    .join('\n');
}

/** Columns of a table are separated by two spaces. */
const COLUMN_GAP = 2;

/**
 * Column widths that fit `available` columns: the widest column gives up a column at a time, first down to its
 * longest word (so words stay whole), then, only when the words alone are too wide, below it.
 */
function fitColumns(natural: readonly number[], longestWord: readonly number[], available: number): number[] {
  const widths = [...natural];
  const total = (): number => widths.reduce((sum, width) => sum + width, 0);
  const shrink = (floor: (column: number) => number): void => {
    while (total() > available) {
      let widest = -1;
      widths.forEach((width, column) => {
        if (width > floor(column) && (widest < 0 || width > (widths[widest] ?? 0))) {
          widest = column;
        }
      });
      if (widest < 0) {
        return;
      }
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
  };
  shrink((column) => longestWord[column] ?? 0);
  shrink(() => 4);
  return widths;
}

/**
 * A table with a header row; columns are padded to their widest cell (in terminal columns). With `maxWidth`
 * (a terminal's width) a table wider than it wraps its long cells inside their column, at spaces.
 */
export function formatTextTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '  ',
  rightAligned: readonly boolean[] = [],
  maxWidth: number | null = null,
): string {
  const all = [header, ...rows];
  const widest = (measure: (cell: string) => number): number[] =>
    header.map((_cell, column) => Math.max(0, ...all.map((row) => measure(row[column] ?? ''))));
  const natural = widest(stringWidth);
  const widths =
    maxWidth === null
      ? natural
      : fitColumns(
          natural,
          widest((cell) => Math.max(0, ...cell.split(/\s+/u).map(stringWidth))),
          Math.max(40, maxWidth) - stringWidth(indent) - COLUMN_GAP * (header.length - 1),
        );
  const pad = (cell: string, column: number): string => {
    const room = ' '.repeat(Math.max(0, (widths[column] ?? 0) - stringWidth(cell)));
    return rightAligned[column] === true ? `${room}${cell}` : `${cell}${room}`;
  };
  const format = (cells: readonly string[]): string[] => {
    const wrapped = header.map((_cell, column) =>
      wrapAnsi(cells[column] ?? '', widths[column] ?? 0, { hard: true }).split('\n'),
    );
    const height = Math.max(1, ...wrapped.map((parts) => parts.length));
    return Array.from({ length: height }, (_unused, index) =>
      `${indent}${wrapped.map((parts, column) => pad(parts[index] ?? '', column)).join(' '.repeat(COLUMN_GAP))}`.trimEnd(),
    );
  };
  return all.flatMap(format).join('\n');
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

/**
 * Why a plan has no commands, in the plan's words: its note on the commands ("No partition or format commands:
 * …") or else its strategy's reason (a reinstall, nothing to do); null when it has commands or there is no plan.
 */
export function noCommandsReason(view: PlanView): string | null {
  if (view.commands.length > 0 || view.answer === null) {
    return null;
  }
  const note = view.planFindings.find(
    (finding) => finding.tone === 'info' && /\bcommands\b/iu.test(finding.message),
  );
  return note?.message ?? view.strategy?.reason ?? null;
}

/** The summary's reason for no commands, unless it is the strategy's reason the summary already shows. */
function summaryNoCommandsReason(view: PlanView): string {
  const reason = noCommandsReason(view);
  return reason === null || reason === view.strategy?.reason ? '' : `: ${reason.replace(/\.$/u, '')}`;
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
    ...(prediction === null || view.measuredWith === undefined || view.measuredWith === null
      ? []
      : [line(`  ${view.measuredWith}`)]),
    ...quickNote(view),
    line(''),
    line(
      view.commands.length === 0
        ? `The plan has no commands to run${summaryNoCommandsReason(view)}.`
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
    table(
      ['Profile', 'Measured plain', 'Predicted encrypted', 'Measured encrypted', 'Limited by'],
      view.predictions.map((row) => [
        row.profile,
        row.measuredPlain,
        row.predictedEncrypted,
        row.measuredEncrypted,
        row.limitedBy,
      ]),
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
    table(
      ['Key derivation', 'Attacker', 'Password', 'Expected time'],
      view.attackerCost.map((row) => [row.kdf, row.attacker, row.password, row.expectedTime]),
    ),
    ...view.attackerNotes.map((note) => line(`  · ${note}`, 'dim')),
  ];
}

/** The words of a shell line: split at spaces outside single and double quotes (a quoted argument stays whole). */
function shellWords(text: string): string[] {
  return text.match(/(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])+/gu) ?? [];
}

/**
 * One line of the script fitted to `width` columns so that it still runs when copied: a command continues on the
 * next line after ` \` (kept commented out when it is), a comment continues as a comment; other lines (a
 * here-document's text) stay whole. `--commands` prints the script unwrapped.
 */
function fitScriptLine(text: string, width: number, commands: ReadonlySet<string>): string[] {
  if (stringWidth(text) <= width || (!text.startsWith('#') && !commands.has(text))) {
    return [text];
  }
  const commented = text.startsWith('# ');
  const body = commented ? text.slice(2) : text;
  const marker = commented ? '# ' : '';
  if (!commands.has(body)) {
    return commented
      ? wrapAnsi(body, width - marker.length, { hard: true })
          .split('\n')
          .map((part) => `${marker}${part}`)
      : [text];
  }
  const lines: string[] = [];
  let current = '';
  for (const word of shellWords(body)) {
    const lead = lines.length === 0 ? marker : `${marker}    `;
    if (current !== '' && stringWidth(`${lead}${current} ${word} \\`) > width) {
      lines.push(`${lead}${current} \\`);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  lines.push(`${lines.length === 0 ? marker : `${marker}    `}${current}`);
  return lines;
}

/** The script under a heading, indented; on a terminal its long lines are fitted as {@link fitScriptLine} says. */
function scriptLines(heading: string, script: string, commands: readonly ScriptCommandView[]): Line[] {
  const known = new Set(commands.map((command) => command.line));
  const lines = script.trimEnd().split('\n');
  return [
    line(''),
    line(heading, 'heading'),
    {
      text: '',
      style: null,
      wrap: false,
      render: (width) =>
        lines
          .flatMap((text) => (width === null ? [text] : fitScriptLine(text, Math.max(40, width) - 2, known)))
          .map((text) => `  ${text}`)
          .join('\n'),
    },
  ];
}

/** The I/O benchmark: each measured profile and target, the overhead of each encrypted variant, the notes. */
function ioLines(view: IoView): Line[] {
  const lines: Line[] = [line(''), line('Plain versus encrypted I/O', 'heading')];
  if (view.benchmarkRows.length === 0) {
    return [...lines, line(`  Not measured: ${view.benchmarkMissingReason ?? ''}`)];
  }
  lines.push(
    table(
      ['Profile', 'Target', 'Measured', 'Source'],
      view.benchmarkRows.map((row) => [row.profile, row.target, row.measured, row.source]),
    ),
  );
  if (view.overheadRows.length > 0) {
    lines.push(
      line(''),
      line('Overhead of encryption (measured)', 'heading'),
      table(
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
    ...scriptLines(
      'Commands (the same script as assess --commands)',
      renderCommandsScript(view),
      view.commands,
    ),
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
            ...scriptLines(
              'Commands (planning ran none of them)',
              renderPlanCommandsScript(plan),
              plan.commands,
            ),
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
