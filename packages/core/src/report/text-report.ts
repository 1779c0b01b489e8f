import type { FactView, SectionView, Tone } from './assessment-sections.js';
import { renderCommandsScript, type ReportView } from './report-view.js';

/** The word a terminal shows for a tone (no colour needed to read it). */
const TONE_WORD: Readonly<Record<Tone, string>> = {
  good: 'ok',
  attention: 'attention',
  bad: 'PROBLEM',
  unknown: 'unknown',
  info: 'info',
};

/** A fixed-width table with a header row; columns are padded to their widest cell. */
export function formatTextTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  indent = '  ',
): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    `${indent}${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function factLines(facts: readonly FactView[]): string[] {
  const width = Math.max(0, ...facts.map((fact) => fact.label.length));
  return facts.map(
    (fact) =>
      `  ${fact.label.padEnd(width)}  ${fact.value}${fact.source === null ? '' : `  [${fact.source}]`}`,
  );
}

function sectionLines(section: SectionView): string[] {
  return [
    '',
    `${section.title}: ${section.verdict} (${TONE_WORD[section.tone]})`,
    `  ${section.summary}`,
    ...(section.missingReason === null || section.missingReason === section.summary
      ? []
      : [`  Not measured: ${section.missingReason}`]),
    ...section.findings.map(
      (finding) =>
        `  ${finding.tone === 'good' ? '✓' : finding.tone === 'info' ? '-' : '!'} ${finding.message}`,
    ),
    ...factLines(section.facts),
  ];
}

/**
 * The human report of `encplan assess`: the shared view model as text, in the same order as the HTML
 * report (plan first, then the drive, its sections, benchmarks, predictions, commands and warnings).
 */
export function renderTextReport(view: ReportView): string {
  if (view.error !== null && view.device === null) {
    return [
      `encplan: ${view.error.code}: ${view.error.message}`,
      ...(view.error.hint === null ? [] : [`  ${view.error.hint}`]),
    ].join('\n');
  }
  const lines = [`${view.title}: status ${view.status}`];
  if (view.strategy !== null) {
    lines.push('', `Strategy: ${view.strategy.title}`, `  ${view.strategy.reason}`);
    lines.push(...view.strategy.lines.map((line) => `  - ${line}`));
  }
  if (view.healthGate !== null) {
    lines.push(
      '',
      `Health gate: ${view.healthGate.status} (${TONE_WORD[view.healthGate.tone]})`,
      `  ${view.healthGate.reason}`,
    );
  }
  if (view.planFindings.length > 0) {
    lines.push(
      '',
      'First things to know',
      ...view.planFindings.map((finding) => `  ${finding.tone === 'info' ? '-' : '!'} ${finding.message}`),
    );
  }
  lines.push('', 'Plan');
  if (view.recommendations.length === 0) {
    lines.push(`  ${view.planMissingReason ?? ''}`);
  }
  view.recommendations.forEach((item, index) => {
    lines.push(
      `  ${String(index + 1)}. ${item.title}: ${item.value}  (confidence ${item.confidence}; rule ${item.ruleId})`,
      `     ${item.reason}`,
    );
    lines.push(
      ...item.evidence.map(
        (fact) => `     · ${fact.label}: ${fact.value}${fact.source === null ? '' : `  [${fact.source}]`}`,
      ),
    );
  });
  if (view.device !== null) {
    lines.push(
      '',
      `Drive: ${view.device.model}, ${view.device.size}, ${view.device.transport} ${view.device.kind} at ${view.device.path}${view.device.isSystemDisk ? ' (system disk)' : ''}`,
      ...factLines(view.device.facts),
    );
  }
  if (view.stack.length > 0) {
    lines.push(
      '',
      'Stack (from the disk up)',
      ...view.stack.map(
        (line) => `  ${line.depth === 0 ? '' : `${'   '.repeat(line.depth - 1)}└─ `}${line.text}`,
      ),
    );
  }
  lines.push(...view.sections.flatMap(sectionLines));
  lines.push('', 'Plain versus encrypted I/O');
  lines.push(
    view.benchmarkRows.length === 0
      ? `  Not measured: ${view.benchmarkMissingReason ?? ''}`
      : formatTextTable(
          ['Profile', 'Target', 'Measured', 'Source'],
          view.benchmarkRows.map((row) => [row.profile, row.target, row.measured, row.source]),
        ),
  );
  if (view.predictions.length > 0) {
    lines.push(
      '',
      'Predicted encrypted throughput (the plan’s model)',
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
    );
  }
  lines.push(
    '',
    'Commands (the same script as assess --commands)',
    ...renderCommandsScript(view)
      .trimEnd()
      .split('\n')
      .map((line) => `  ${line}`),
  );
  if (view.warnings.length > 0) {
    lines.push(
      '',
      'Warnings (what encplan could not find out)',
      ...view.warnings.map(
        (warning) =>
          `  ! ${warning.code}${warning.source === null ? '' : ` [${warning.source}]`}: ${warning.message}`,
      ),
    );
  }
  return lines.join('\n');
}
