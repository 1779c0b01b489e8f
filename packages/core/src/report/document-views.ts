import type { CipherBenchmark } from '../domain/cipher.js';
import { targetOf } from '../targets/registry.js';
import type { DriveSummary } from '../analyses/drive-summary.js';
import type { Health } from '../domain/health.js';
import type { IoBenchmark } from '../domain/io-benchmark.js';
import type { Warning } from '../domain/warning.js';
import type { Plan } from '../plan/plan.js';
import {
  ciphersSection,
  fact,
  healthSection,
  kernelCryptoFactViews,
  kernelCryptoFindings,
  type SectionView,
} from './assessment-sections.js';
import { toIoView, toPlanView, type IoView, type PlanView, type ReportViewOptions } from './report-view.js';
import { printableData } from './printable.js';

/**
 * The view of one command's document (`encplan plan`, `health`, `benchmark ciphers`, `benchmark io`): the
 * same section, plan and I/O views the assessment report is built from, so a label, a unit or a
 * destructive marker reads the same in `encplan plan` as in the plan of `encplan assess`.
 */
export interface DocumentView {
  /** The heading line ("encplan plan for /dev/sda: …"). */
  readonly title: string;
  readonly plan: PlanView | null;
  readonly sections: readonly SectionView[];
  readonly io: IoView | null;
  readonly warnings: readonly Warning[];
}

/** `encplan plan`: the plan's part of the assessment view, from the plan document. */
export function toPlanDocumentView(
  toolPlan: Plan,
  options: ReportViewOptions = {},
): DocumentView & { readonly plan: PlanView } {
  // Tool strings enter the view here: control characters in them are shown escaped (printable.ts).
  const plan = printableData(toolPlan);
  const device = plan.devicePlaceholder
    ? `${plan.devicePath} (stand-in: the input names no device)`
    : plan.devicePath;
  return {
    title: `encplan plan for ${device}: ${targetOf(plan.targetTool).labels.short}, threat model ${plan.threatModel}, workload ${plan.workload}`,
    // The plan document carries its own plain throughput; the assessment's fio runs are not in it.
    plan: toPlanView(plan, null, options),
    sections: [],
    io: null,
    warnings: [],
  };
}

const MEDIA: Readonly<Record<DriveSummary['media'], string>> = {
  ssd: 'SSD',
  hdd: 'HDD (spinning disk)',
  unknown: 'unknown',
};

function trimText(trim: DriveSummary['trim']): string | null {
  if (trim.supported === null) {
    return null;
  }
  if (!trim.supported) {
    return 'not supported';
  }
  const after = [
    trim.deterministicReadAfterTrim === true ? 'deterministic reads after TRIM' : null,
    trim.readsZeroesAfterTrim === true ? 'reads zeroes after TRIM' : null,
  ].filter((part) => part !== null);
  return `supported${after.length > 0 ? ` (${after.join(', ')})` : ''}`;
}

/** `encplan health FILE.json`: the assessment's health section, with what the output says about the drive. */
export function toHealthDocumentView(
  toolHealth: Health,
  toolDrive: DriveSummary,
  toolWarnings: readonly Warning[],
): DocumentView {
  const { health, drive, warnings } = printableData({
    health: toolHealth,
    drive: toolDrive,
    warnings: toolWarnings,
  });
  const section = healthSection(health, warnings);
  const source = health.source === 'none' ? null : health.source;
  const protocol = health.protocol === 'unknown' ? null : health.protocol.toUpperCase();
  const read = [protocol, health.toolVersion === null ? null : `${health.source} ${health.toolVersion}`]
    .filter((part) => part !== null)
    .join(', ');
  return {
    title: `encplan health: ${health.model ?? 'drive of unknown model'}${read === '' ? '' : ` (${read})`}`,
    plan: null,
    sections: [
      {
        ...section,
        facts: [
          fact('Drive model', health.model, source),
          fact(
            'Protocol',
            protocol === null
              ? null
              : `${protocol}${health.smartctlDeviceType === null ? '' : ` (smartctl -d ${health.smartctlDeviceType})`}`,
            source,
          ),
          fact(
            'Media',
            drive.media === 'unknown' ? null : `${MEDIA[drive.media]} (${drive.mediaReason})`,
            source,
          ),
          fact('TRIM', trimText(drive.trim), source),
          ...section.facts,
        ],
      },
    ],
    io: null,
    warnings,
  };
}

/** `encplan benchmark ciphers`: the assessment's cipher section, the kernel's AES driver first. */
export function toCipherBenchmarkView(
  toolResult: CipherBenchmark,
  toolWarnings: readonly Warning[],
): DocumentView {
  const { result, warnings } = printableData({ result: toolResult, warnings: toolWarnings });
  const section = ciphersSection(result);
  return {
    title: 'encplan benchmark ciphers: cipher and key-derivation speed on this machine',
    plan: null,
    sections: [
      {
        ...section,
        tone: result.findings.length > 0 ? 'attention' : section.tone,
        findings: [...kernelCryptoFindings(result.findings), ...section.findings],
        facts: [...kernelCryptoFactViews(result.kernelCrypto), ...section.facts],
      },
    ],
    io: null,
    warnings,
  };
}

/** `encplan benchmark io`: the assessment's I/O section, from the benchmark document. */
export function toIoBenchmarkView(toolResult: IoBenchmark, toolWarnings: readonly Warning[]): DocumentView {
  const { result, warnings } = printableData({ result: toolResult, warnings: toolWarnings });
  return {
    title: `encplan benchmark io: plain versus encrypted I/O on ${result.target}`,
    plan: null,
    sections: [],
    io: toIoView(result),
    warnings,
  };
}
