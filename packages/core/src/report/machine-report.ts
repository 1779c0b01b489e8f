import {
  assessmentDocument,
  type DiskSummary,
  type MachineAssessmentEnvelope,
} from '../contract/assessment.js';
import { formatBytes } from '../domain/units.js';
import { toReportView } from './report-view.js';
import { formatTextTable, renderTextReport, type TextRenderOptions } from './text-report.js';

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
  return row.spareArea === null
    ? '—'
    : `${row.spareArea}${row.spareAreaPercent === null ? '' : ` ${String(row.spareAreaPercent)} %`}`;
}

/**
 * The text report of `encplan assess --all`: the machine first (one line per disk: health, TRIM path, spare
 * area, the first thing to fix), then every disk's own report, as `encplan assess DEVICE` prints it.
 */
export function renderMachineTextReport(
  envelope: MachineAssessmentEnvelope,
  options: { includeDestructive?: boolean; text?: TextRenderOptions } = {},
): string {
  const result = envelope.result;
  if (result === null) {
    const error = envelope.error;
    const hint = error?.hint ?? null;
    return `encplan: ${error?.code ?? 'INTERNAL_ERROR'}: ${error?.message ?? 'no result'}${hint === null ? '' : `\n  ${hint}`}`;
  }
  const machine = result.machine;
  const failed = result.summary.filter((row) => row.status === 'error').length;
  const lines = [
    `encplan assessment of every disk: status ${envelope.status}, ${String(result.disks.length)} disk${result.disks.length === 1 ? '' : 's'}${failed === 0 ? '' : `, ${String(failed)} could not be assessed`}`,
    machine === null
      ? '  Machine: unknown'
      : `  Machine: ${machine.cpuModel} (${machine.architecture}, ${String(machine.logicalCores)} cores, AES ${machine.cryptoFlags.aes ? 'yes' : 'no'}), ${formatBytes(machine.memoryTotalBytes)}, ${machine.os.distro} ${machine.os.release}, kernel ${machine.os.kernel}`,
    ...result.machineFindings.map((finding) => `  ! ${finding}`),
    '',
    formatTextTable(
      ['Disk', 'Size', 'Status', 'Health', 'TRIM path', 'Spare area', 'What to fix first'],
      result.summary.map((row) => [
        row.device,
        row.sizeBytes === null ? '—' : formatBytes(row.sizeBytes),
        row.status,
        row.healthVerdict,
        trimPath(row),
        spare(row),
        row.fix.length === 0
          ? 'nothing'
          : `${clip(row.fix[0] ?? '')}${row.fix.length > 1 ? ` (+${String(row.fix.length - 1)} more)` : ''}`,
      ]),
    ),
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
  for (const disk of result.disks) {
    lines.push('', `════ ${disk.device} ${'═'.repeat(Math.max(0, 60 - disk.device.length))}`);
    if (disk.assessment === null) {
      lines.push(
        `${disk.device}: could not be assessed: ${disk.error?.code ?? 'INTERNAL_ERROR'}: ${disk.error?.message ?? ''}`,
        ...((disk.error?.hint ?? null) === null ? [] : [`  ${disk.error?.hint ?? ''}`]),
      );
      continue;
    }
    const view = toReportView(
      assessmentDocument.ok(disk.assessment, disk.warnings, new Date(envelope.generatedAt)),
      options.includeDestructive === undefined ? {} : { includeDestructive: options.includeDestructive },
    );
    lines.push(renderTextReport(view, options.text ?? {}));
  }
  return lines.join('\n');
}
