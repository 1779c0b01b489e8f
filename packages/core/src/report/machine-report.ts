import {
  assessmentDocument,
  type DiskSummary,
  type MachineAssessmentEnvelope,
} from '../contract/assessment.js';
import { formatBytes } from '../domain/units.js';
import { escapeHtml } from './escape-html.js';
import { printableData } from './printable.js';
import { htmlPage, reportBody } from './html-report.js';
import { formatTimestamp } from './labels.js';
import { toReportView, type ReportView } from './report-view.js';
import type { ChartRenderer } from './report-charts.js';
import {
  fitText,
  formatTextTable,
  noCommandsReason,
  renderTextReport,
  type TextRenderOptions,
} from './text-report.js';

const DISCARD_WORDS: Readonly<Record<DiskSummary['discardPath'], string>> = {
  all: 'reaches drive',
  some: 'some paths',
  none: 'blocked',
  unknown: 'unknown',
  'no-filesystem': 'no filesystem',
};

/** The TRIM path of a disk in a few words: the drive's support, then whether discards get down to it. */
function trimPath(row: DiskSummary): string {
  return row.trim === null ? '—' : `${row.trim}, ${DISCARD_WORDS[row.discardPath]}`;
}

/** The table keeps one line per disk: a long fix is cut (the disk's own report below has it whole). */
function clip(text: string, width = 72): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

function spare(row: DiskSummary): string {
  // An unknown status shows no percentage: "unknown 0 %" would read as a measured zero.
  return row.spareArea === null
    ? '—'
    : `${row.spareArea}${row.spareAreaPercent === null || row.spareArea === 'unknown' ? '' : ` ${String(row.spareAreaPercent)} %`}`;
}

/** A disk of the machine: its report view, or the error that kept it from being assessed. */
interface DiskView {
  readonly device: string;
  readonly view: ReportView | null;
  readonly error: string | null;
}

/** The verdict word of a disk, as its own report prints it (CAUTION, GO, STOP…); ERROR when not assessed. */
function verdictWord(disk: DiskView): string {
  return disk.view?.answer?.verdict.toUpperCase() ?? (disk.view === null ? 'ERROR' : '—');
}

/** Sentences joined as one: each ends with a full stop (a headline has none of its own), a clipped one with "…". */
function sentences(parts: readonly string[]): string {
  return parts.map((part) => (part.endsWith('…') ? part : `${part.replace(/[.\s]+$/u, '')}.`)).join(' ');
}

/**
 * Why the disk's plan has no commands, for the machine's summary: the plan's note on its commands, or the
 * strategy that needs none (its long reason is in the disk's report).
 */
function noCommandsCell(view: ReportView): string | null {
  const reason = noCommandsReason(view);
  return reason === null || view.strategy === null || reason !== view.strategy.reason
    ? reason
    : `the strategy is "${view.strategy.title}"; the disk's report says why`;
}

/**
 * One disk's answer, as its own report leads with it: the verdict word and the headline, what to fix first (the
 * disk's own list, machine findings included, so it never says "nothing" beside a CAUTION) and why its plan has
 * no commands when it has none. Shared by the text and the HTML report.
 */
function answerCells(disk: DiskView): [device: string, verdict: string, answer: string] {
  const view = disk.view;
  if (view === null) {
    return [disk.device, verdictWord(disk), sentences([`Could not be assessed: ${disk.error ?? ''}`])];
  }
  const fix = view.fixFirst.map((item) => item.message);
  const reason = noCommandsCell(view);
  return [
    disk.device,
    verdictWord(disk),
    sentences([
      view.answer?.headline ?? view.planMissingReason ?? 'No plan',
      ...(fix.length === 0
        ? []
        : [`Fix first: ${clip(fix[0] ?? '')}${fix.length > 1 ? ` (+${String(fix.length - 1)} more)` : ''}`]),
      ...(reason === null ? [] : [`No commands: ${reason}`]),
    ]),
  ];
}

/** The summary table's cells of one disk (the drive's facts), shared by the text and the HTML report. */
function summaryCells(row: DiskSummary): string[] {
  return [
    row.device,
    row.sizeBytes === null ? '—' : formatBytes(row.sizeBytes),
    row.status,
    row.healthVerdict,
    trimPath(row),
    spare(row),
  ];
}

const SUMMARY_HEADERS = ['Disk', 'Size', 'Status', 'Health', 'TRIM path', 'Spare area'];
const ANSWER_HEADERS = ['Disk', 'Verdict', 'Answer'];

/** The machine line: CPU, AES, memory, OS and kernel. */
function machineLine(result: NonNullable<MachineAssessmentEnvelope['result']>): string {
  const machine = result.machine;
  return machine === null
    ? 'Machine: unknown'
    : `Machine: ${machine.cpuModel} (${machine.architecture}, ${String(machine.logicalCores)} cores, AES ${machine.cryptoFlags.aes ? 'yes' : 'no'}), ${formatBytes(machine.memoryTotalBytes)}, ${machine.os.distro} ${machine.os.release}, kernel ${machine.os.kernel}`;
}

/** Each disk's report view, or the error that kept it from being assessed. */
function diskViews(envelope: MachineAssessmentEnvelope, includeDestructive: boolean | undefined): DiskView[] {
  return (envelope.result?.disks ?? []).map((disk) =>
    disk.assessment === null
      ? {
          device: disk.device,
          view: null,
          error: `${disk.error?.code ?? 'INTERNAL_ERROR'}: ${disk.error?.message ?? ''}${(disk.error?.hint ?? null) === null ? '' : ` ${disk.error?.hint ?? ''}`}`,
        }
      : {
          device: disk.device,
          view: toReportView(
            assessmentDocument.ok(disk.assessment, disk.warnings, new Date(envelope.generatedAt)),
            includeDestructive === undefined ? {} : { includeDestructive },
          ),
          error: null,
        },
  );
}

/**
 * One disk's HTML report inside the machine page: its ids and links get the disk's prefix (so every disk's
 * "#commands" stays its own) and its headings move one level down under the disk's title. Every text in the
 * body is escaped, so `id="`, `href="#` and `<h2` occur only as the renderer wrote them.
 */
function nestedBody(view: ReportView, prefix: string, renderChart: ChartRenderer): string {
  return reportBody(view, renderChart)
    .replace(/ (id|aria-labelledby)="([^"]+)"/g, ` $1="${prefix}-$2"`)
    .replace(/ href="#([^"]+)"/g, ` href="#${prefix}-$1"`)
    .replace(
      /<(\/?)h([2-5])\b/g,
      (_match, slash: string, level: string) => `<${slash}h${String(Number(level) + 1)}`,
    );
}

/**
 * The HTML report of `encplan assess --all --html FILE`: the machine and one summary row per disk (each
 * linking to its disk), then every disk's own report as `encplan assess DEVICE --html` writes it.
 */
export function renderMachineHtmlReport(
  toolEnvelope: MachineAssessmentEnvelope,
  renderChart: ChartRenderer,
  options: { includeDestructive?: boolean } = {},
): string {
  const envelope = printableData(toolEnvelope);
  const result = envelope.result;
  const title = 'encplan assessment of every disk';
  if (result === null) {
    const error = envelope.error;
    return htmlPage(title, [
      `<h1>${escapeHtml(title)}</h1>`,
      `<p>${escapeHtml(`${error?.code ?? 'INTERNAL_ERROR'}: ${error?.message ?? 'no result'}`)}</p>`,
      error?.hint === undefined || error.hint === null ? '' : `<p>${escapeHtml(error.hint)}</p>`,
    ]);
  }
  const disks = diskViews(envelope, options.includeDestructive);
  const rows = result.summary
    .map((row) => {
      const index = disks.findIndex((disk) => disk.device === row.device);
      const [device = '', ...rest] = summaryCells(row);
      const link =
        index < 0 ? escapeHtml(device) : `<a href="#disk-${String(index + 1)}">${escapeHtml(device)}</a>`;
      return `<tr><th scope="row">${link}</th>${rest.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`;
    })
    .join('');
  const warnings =
    envelope.warnings.length === 0
      ? ''
      : `<h2 id="machine-warnings">Warnings about the machine</h2><ul>${envelope.warnings.map((warning) => `<li>${escapeHtml(warning.message)}${warning.source === null ? '' : ` <span class="source">(${escapeHtml(warning.source)}; ${escapeHtml(warning.code)})</span>`}</li>`).join('')}</ul>`;
  return htmlPage(title, [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta">Status ${escapeHtml(envelope.status)} · ${String(disks.length)} disk${disks.length === 1 ? '' : 's'} · generated ${escapeHtml(formatTimestamp(envelope.generatedAt))} · encplan ${escapeHtml(envelope.toolVersion)}</p>`,
    `<p>${escapeHtml(machineLine(result))}</p>`,
    result.machineFindings.length === 0
      ? ''
      : `<ul>${result.machineFindings.map((finding) => `<li>${escapeHtml(finding)}</li>`).join('')}</ul>`,
    `<ul class="answers">${disks
      .map((disk, index) => {
        const [device, verdict, answer] = answerCells(disk);
        return `<li><a href="#disk-${String(index + 1)}">${escapeHtml(device)}</a> <strong>${escapeHtml(verdict)}</strong> ${escapeHtml(answer)}</li>`;
      })
      .join('')}</ul>`,
    `<table id="summary"><caption>One line per disk; each disk's report follows</caption><thead><tr>${SUMMARY_HEADERS.map((header) => `<th scope="col">${escapeHtml(header)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>`,
    warnings,
    ...disks.map((disk, index) => {
      const id = `disk-${String(index + 1)}`;
      const heading = `<h2 id="${id}-title">${escapeHtml(disk.view?.title ?? disk.device)}</h2>`;
      return `<section id="${id}" aria-labelledby="${id}-title">${heading}${
        disk.view === null
          ? `<p>Could not be assessed: ${escapeHtml(disk.error ?? '')}</p>`
          : nestedBody(disk.view, id, renderChart)
      }<p class="source"><a href="#summary">Back to the summary</a></p></section>`;
    }),
  ]);
}

/**
 * The text report of `encplan assess --all`: the machine first (one line per disk: health, TRIM path, spare
 * area, the first thing to fix), then every disk's own report, as `encplan assess DEVICE` prints it.
 */
export function renderMachineTextReport(
  toolEnvelope: MachineAssessmentEnvelope,
  options: { includeDestructive?: boolean; text?: TextRenderOptions } = {},
): string {
  const envelope = printableData(toolEnvelope);
  const result = envelope.result;
  if (result === null) {
    const error = envelope.error;
    const hint = error?.hint ?? null;
    return `encplan: ${error?.code ?? 'INTERNAL_ERROR'}: ${error?.message ?? 'no result'}${hint === null ? '' : `\n  ${hint}`}`;
  }
  const failed = result.summary.filter((row) => row.status === 'error').length;
  const width = options.text?.width ?? null;
  const disks = diskViews(envelope, options.includeDestructive);
  const lines = [
    `encplan assessment of every disk: status ${envelope.status}, ${String(result.disks.length)} disk${result.disks.length === 1 ? '' : 's'}${failed === 0 ? '' : `, ${String(failed)} could not be assessed`}`,
    `  ${machineLine(result)}`,
    ...result.machineFindings.map((finding) => `  ! ${finding}`),
    '',
    formatTextTable(ANSWER_HEADERS, disks.map(answerCells), '', [], width),
    '',
    formatTextTable(SUMMARY_HEADERS, result.summary.map(summaryCells), '  ', [], width),
  ];
  if (envelope.warnings.length > 0) {
    lines.push(
      '',
      'Warnings about the machine',
      ...envelope.warnings.map(
        (warning) =>
          `  ! ${warning.code}${warning.source === null ? '' : ` [${warning.source}]`}: ${warning.message}`,
      ),
    );
  }
  // The machine's part is fitted here; each disk's report fits itself (its script stays unwrapped).
  const text = [fitText(lines.join('\n'), width)];
  for (const disk of disks) {
    text.push('', `════ ${disk.device} ${'═'.repeat(Math.max(0, 60 - disk.device.length))}`);
    text.push(
      disk.view === null
        ? fitText(`${disk.device}: could not be assessed: ${disk.error ?? ''}`, width)
        : renderTextReport(disk.view, options.text ?? {}),
    );
  }
  return text.join('\n');
}
