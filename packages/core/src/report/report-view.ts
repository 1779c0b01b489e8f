import {
  assessmentDocument,
  type AssessmentEnvelope,
  type AssessmentResult,
} from '../contract/assessment.js';
import type { StackNode } from '../domain/device.js';
import type { Warning } from '../domain/warning.js';
import type { Plan } from '../plan/plan.js';
import { toStrategyView, type StrategyView } from './strategy-view.js';
import {
  formatBytes,
  formatBytesExact,
  formatPercent,
  formatRate,
  toMebibytesPerSecond,
} from '../domain/units.js';
import { toSectionViews, type FactView, type SectionView, type Tone } from './assessment-sections.js';
import { renderCommandScriptText, toScriptCommands, type ScriptCommandView } from './command-script.js';
import { formatEvidence, formatRecommendationValue, UNKNOWN } from './labels.js';

export type { FactView, SectionView, Tone } from './assessment-sections.js';

/**
 * The one view model of an assessment, built from the typed envelope: the CLI text report, the HTML report
 * and the desktop wizard render it and hold no view logic of their own.
 */

/** The assessed drive, formatted. */
export interface DeviceView {
  readonly path: string;
  readonly model: string;
  readonly size: string;
  readonly sizeBytes: number;
  readonly transport: string;
  readonly kind: string;
  readonly isSystemDisk: boolean;
  readonly facts: readonly FactView[];
}

/** One bar of a chart: a value in MiB/s (null = not measured). */
export interface BarView {
  readonly series: string;
  readonly valueMebibytesPerSecond: number | null;
}

/** One block device of the stack, from the disk up: its depth in the tree and what it is. */
export interface StackLineView {
  readonly depth: number;
  readonly text: string;
}

/** One group of bars (one I/O profile: "SEQ1M Q8T1 read"). */
export interface BarGroupView {
  readonly label: string;
  readonly bars: readonly BarView[];
}

/** A grouped bar chart: plain vs encrypted per profile. */
export interface ChartView {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly string[];
  readonly groups: readonly BarGroupView[];
}

/** One row of the measured I/O table. */
export interface BenchmarkRowView {
  readonly profile: string;
  readonly target: string;
  readonly measured: string;
  readonly source: string;
}

/** One profile of the plan's performance model: measured plain next to predicted encrypted. */
export interface PredictionRowView {
  readonly profile: string;
  readonly direction: 'read' | 'write';
  readonly measuredPlain: string;
  readonly predictedEncrypted: string;
  readonly measuredEncrypted: string;
  readonly limitedBy: string;
  /** True when the model had a number to predict from. */
  readonly known: boolean;
}

/** One recommendation of the plan. */
export interface RecommendationView {
  readonly ruleId: string;
  readonly title: string;
  readonly value: string;
  readonly reason: string;
  readonly confidence: string;
  readonly tone: Tone;
  readonly evidence: readonly FactView[];
}

/** Everything the three views display. */
export interface ReportView {
  readonly title: string;
  readonly status: 'ok' | 'partial' | 'error';
  readonly generatedAt: string;
  readonly toolVersion: string;
  readonly device: DeviceView | null;
  /** The disk and everything stacked on it, depth first. */
  readonly stack: readonly StackLineView[];
  /** The plan's strategy (fresh, in place, reinstall, nothing to do): shown first; null without a plan. */
  readonly strategy: StrategyView | null;
  /** The plan's health gate ("proceed", "caution", "back up first") and why, or null without a plan. */
  readonly healthGate: { readonly tone: Tone; readonly status: string; readonly reason: string } | null;
  readonly planFindings: readonly { readonly tone: Tone; readonly message: string }[];
  readonly sections: readonly SectionView[];
  readonly benchmarkRows: readonly BenchmarkRowView[];
  readonly charts: readonly ChartView[];
  /** Why there are no benchmarks, or null when there are. */
  readonly benchmarkMissingReason: string | null;
  readonly predictions: readonly PredictionRowView[];
  readonly recommendations: readonly RecommendationView[];
  /** The plan's commands, each marked live or commented out (data-destroying ones and those after them). */
  readonly commands: readonly ScriptCommandView[];
  readonly includeDestructive: boolean;
  /** Why there is no plan, or null when there is one. */
  readonly planMissingReason: string | null;
  readonly warnings: readonly Warning[];
  readonly error: { readonly code: string; readonly message: string; readonly hint: string | null } | null;
}

/** Options of the view: whether data-destroying commands are live (the user's --destructive flag). */
export interface ReportViewOptions {
  readonly includeDestructive?: boolean;
}

const TRANSPORT_KIND: Readonly<Record<AssessmentResult['media']['kind'], string>> = {
  ssd: 'solid-state',
  hdd: 'hard disk',
  unknown: 'disk of unknown media',
};

function toDeviceView(result: AssessmentResult): DeviceView {
  const { disk, media } = result;
  // The vendor alone is no model name (virtio reports its PCI vendor id, 0x1af4): it is listed as a fact.
  return {
    path: disk.path,
    model:
      disk.model ??
      (disk.transport === 'loop'
        ? 'Loop device'
        : disk.transport === 'virtio'
          ? 'Virtual disk'
          : 'Unknown model'),
    size: formatBytes(disk.sizeBytes),
    sizeBytes: disk.sizeBytes,
    transport: disk.transport,
    kind: disk.transport === 'loop' ? 'file-backed device' : TRANSPORT_KIND[media.kind],
    isSystemDisk: disk.isSystemDisk,
    facts: [
      { label: 'Size', value: formatBytesExact(disk.sizeBytes), source: 'lsblk: SIZE' },
      { label: 'Media', value: `${media.kind}: ${media.reason}`, source: 'sysfs' },
      { label: 'Vendor', value: disk.vendor ?? UNKNOWN, source: 'lsblk: VENDOR' },
      { label: 'Serial number', value: disk.serial ?? UNKNOWN, source: 'lsblk: SERIAL' },
      { label: 'Firmware', value: disk.firmware ?? UNKNOWN, source: 'lsblk: REV' },
      { label: 'Partition table', value: disk.partitionTable ?? UNKNOWN, source: 'lsblk: PTTYPE' },
      {
        label: 'Sector size (logical / physical)',
        value: `${formatBytes(disk.logicalSectorBytes)} / ${formatBytes(disk.physicalSectorBytes)}`,
        source: 'lsblk: LOG-SEC, PHY-SEC',
      },
      {
        label: 'Mounted at',
        value: disk.mountpoints.length === 0 ? 'nothing mounted' : disk.mountpoints.join(', '),
        source: 'lsblk: MOUNTPOINTS',
      },
      ...result.partitions.map((part) => ({
        label: `Partition ${String(part.number)} (${part.path})`,
        value: `${formatBytes(part.sizeBytes)} at ${formatBytes(part.startBytes)}${part.filesystem === null ? '' : `, ${part.filesystem.type}${part.filesystem.usedPercent === null ? '' : ` ${formatPercent(part.filesystem.usedPercent)} used`}`}${part.mountpoints.length === 0 ? '' : `, mounted at ${part.mountpoints.join(', ')}`}`,
        source: 'lsblk',
      })),
    ],
  };
}

function toStackLines(node: StackNode, depth = 0): StackLineView[] {
  const parts = [
    `${node.kernelName} (${node.type}${node.mapperName === null ? '' : ` ${node.mapperName}`}, ${formatBytes(node.sizeBytes)})`,
    node.filesystem === null
      ? null
      : `${node.filesystem.type}${node.filesystem.version === null ? '' : ` ${node.filesystem.version}`}`,
    node.mountpoints.length > 0 ? `mounted at ${node.mountpoints.join(', ')}` : null,
    node.discard === null
      ? null
      : node.discard.maxBytes === 0
        ? 'no discards'
        : `discards in ${formatBytes(node.discard.granularityBytes)} units`,
    node.backingFile === null ? null : `backed by ${node.backingFile}`,
  ];
  return [
    { depth, text: parts.filter((part) => part !== null).join(' · ') },
    ...node.children.flatMap((child) => toStackLines(child, depth + 1)),
  ];
}

function toBenchmarks(result: AssessmentResult): { rows: BenchmarkRowView[]; charts: ChartView[] } {
  const io = result.ioBenchmark;
  if (io === null) {
    return { rows: [], charts: [] };
  }
  const rows: BenchmarkRowView[] = [];
  const groups = new Map<string, Map<string, number>>();
  const series: string[] = [];
  for (const target of [io.plain, ...io.encrypted]) {
    for (const measurement of target.profiles) {
      const profile = `${measurement.profile.label} ${measurement.profile.direction}`;
      const summary = measurement.summary;
      rows.push({
        profile,
        target: target.variant,
        measured: formatRate(summary.medianBytesPerSecond),
        source: `fio (${target.ioEngine}${target.directIo ? ', O_DIRECT' : ''}; median of ${String(summary.runCount)} run${summary.runCount === 1 ? '' : 's'}, spread ${formatPercent(summary.spreadPercent)})`,
      });
      if (!series.includes(target.variant)) {
        series.push(target.variant);
      }
      groups.set(
        profile,
        (groups.get(profile) ?? new Map<string, number>()).set(
          target.variant,
          toMebibytesPerSecond(summary.medianBytesPerSecond),
        ),
      );
    }
  }
  for (const skipped of io.skipped) {
    rows.push({
      profile: 'all profiles',
      target: skipped.variant,
      measured: 'not measured',
      source: `skipped: ${skipped.message}`,
    });
  }
  const charts: ChartView[] =
    groups.size === 0
      ? []
      : [
          {
            title: 'Throughput per profile: plain vs encrypted',
            unit: 'MiB/s',
            series,
            groups: [...groups.entries()].map(([label, values]) => ({
              label,
              bars: series.map((name) => ({
                series: name,
                valueMebibytesPerSecond: values.get(name) ?? null,
              })),
            })),
          },
        ];
  return { rows, charts };
}

/** Labels of the plan's performance profiles (CrystalDiskMark/KDiskMark names). */
const PROFILE_LABELS: Readonly<Record<string, string>> = {
  'seq1m-q8t1': 'SEQ1M Q8T1',
  'seq1m-q1t1': 'SEQ1M Q1T1',
  'rnd4k-q32t1': 'RND4K Q32T1',
  'rnd4k-q1t1': 'RND4K Q1T1',
};

/**
 * The plan's predictions per profile and direction. Measured plain throughput is the plan's own input, or,
 * where the plan has none, the assessment's fio measurement of the same profile on the plain target.
 */
function toPredictions(plan: Plan, io: AssessmentResult['ioBenchmark']): PredictionRowView[] {
  const rate = (value: number | null): string => (value === null ? UNKNOWN : formatRate(value));
  const measuredPlain = (profileId: string, direction: 'read' | 'write'): number | null =>
    io?.plain.profiles.find((measurement) => measurement.profile.id === `${profileId}-${direction}`)?.summary
      .medianBytesPerSecond ?? null;
  return plan.predictedPerformance.flatMap((row) =>
    (['read', 'write'] as const).map((direction): PredictionRowView => {
      const read = direction === 'read';
      const predicted = read ? row.predictedReadBytesPerSecond : row.predictedWriteBytesPerSecond;
      const limitedBy = read ? row.readLimitedBy : row.writeLimitedBy;
      return {
        profile: `${PROFILE_LABELS[row.profile] ?? row.profile} ${direction}`,
        direction,
        measuredPlain: rate(
          (read ? row.plainReadBytesPerSecond : row.plainWriteBytesPerSecond) ??
            measuredPlain(row.profile, direction),
        ),
        predictedEncrypted: rate(predicted),
        measuredEncrypted: rate(read ? row.measuredReadBytesPerSecond : row.measuredWriteBytesPerSecond),
        limitedBy: limitedBy === null ? UNKNOWN : limitedBy === 'device' ? 'the drive' : 'the cipher',
        known: predicted !== null,
      };
    }),
  );
}

/** Each rule's recommendation, named for people, and how its scalar value reads. */
const RULES: Readonly<
  Record<string, { readonly title: string; readonly value?: (value: string) => string }>
> = {
  strategy: { title: 'Strategy' },
  'health-gate': { title: 'Drive health before encrypting' },
  'in-place-write-cost': { title: 'Wear from encrypting in place' },
  'kernel-aes-driver-unaccelerated': { title: 'Kernel AES driver' },
  'cipher-mode': { title: 'Cipher' },
  'cipher-key-size': {
    title: 'Key size',
    value: (bits) => `${bits}-bit XTS key (AES-${String(Number(bits) / 2)})`,
  },
  'sector-size': { title: 'Encryption sector size', value: (bytes) => `${bytes} bytes` },
  'workqueue-bypass': { title: 'Bypass dm-crypt work queues' },
  'allow-discards': { title: 'Pass discards (TRIM) through encryption' },
  'discard-blocked-below': { title: 'Discards blocked below the encryption' },
  'luks2-pbkdf': { title: 'Key derivation (LUKS2)' },
  'veracrypt-encryption': { title: 'VeraCrypt encryption algorithm' },
  'veracrypt-hash': { title: 'VeraCrypt hash' },
  'veracrypt-pim': { title: 'VeraCrypt PIM' },
  'unallocated-space': { title: 'Space to leave unpartitioned' },
  'spare-area-method': { title: 'How to reserve spare area' },
  'partition-first': { title: 'Partition first' },
  'partition-overlaps-spare': { title: 'Partition overlaps the spare area' },
};

const CONFIDENCE = {
  high: 'high (measured here)',
  medium: 'medium (inferred)',
  low: 'low (defaults or guesses)',
} as const;
const SEVERITY_TONE = { critical: 'bad', warning: 'attention', info: 'info' } as const;
const GATE = {
  proceed: { tone: 'good', status: 'proceed' },
  caution: { tone: 'attention', status: 'caution' },
  'back-up-first': { tone: 'bad', status: 'back up first' },
} as const;

function source(item: {
  readonly source: { readonly origin: string; readonly field: string | null };
}): string {
  return item.source.field === null ? item.source.origin : `${item.source.origin}: ${item.source.field}`;
}

function toRecommendations(plan: Plan): RecommendationView[] {
  return plan.recommendations.map((entry) => ({
    ruleId: entry.ruleId,
    // A rule without a written title is named by its id, never by a title-cased field name.
    title: RULES[entry.ruleId]?.title ?? entry.ruleId,
    value:
      typeof entry.value === 'object' || entry.value === null
        ? formatRecommendationValue(entry.value)
        : (RULES[entry.ruleId]?.value ?? String)(formatRecommendationValue(entry.value)),
    reason: entry.reason,
    confidence: CONFIDENCE[entry.confidence],
    tone: entry.ruleId === 'health-gate' ? GATE[plan.healthGate.status].tone : 'good',
    evidence: entry.evidence.map((item) => ({ ...formatEvidence(item), source: source(item) })),
  }));
}

/** Turns a typed assessment envelope into what every view shows. Pure. */
export function toReportView(envelope: AssessmentEnvelope, options: ReportViewOptions = {}): ReportView {
  const includeDestructive = options.includeDestructive ?? false;
  const result = envelope.result;
  const error =
    envelope.error === null
      ? result === null
        ? { code: 'INTERNAL_ERROR', message: 'The assessment did not produce a result.', hint: null }
        : null
      : { code: envelope.error.code, message: envelope.error.message, hint: envelope.error.hint };
  const base = {
    status: envelope.status,
    generatedAt: envelope.generatedAt,
    toolVersion: envelope.toolVersion,
    warnings: envelope.warnings,
    includeDestructive,
    error,
  };
  if (result === null) {
    return {
      ...base,
      title: 'encplan assessment',
      device: null,
      stack: [],
      strategy: null,
      healthGate: null,
      planFindings: [],
      sections: [],
      benchmarkRows: [],
      charts: [],
      benchmarkMissingReason: 'The assessment failed.',
      predictions: [],
      recommendations: [],
      commands: [],
      planMissingReason: 'The assessment failed.',
    };
  }
  const device = toDeviceView(result);
  const { rows, charts } = toBenchmarks(result);
  const plan = result.plan;
  return {
    ...base,
    title: `encplan assessment of ${device.path} (${device.model})`,
    device,
    stack: toStackLines(result.stack),
    strategy: plan?.strategy === undefined ? null : toStrategyView(plan.strategy),
    healthGate: plan === null ? null : { ...GATE[plan.healthGate.status], reason: plan.healthGate.reason },
    planFindings:
      plan === null
        ? []
        : plan.findings.map((finding) => ({
            tone: SEVERITY_TONE[finding.severity],
            message: finding.message,
          })),
    sections: toSectionViews(result, envelope.warnings),
    benchmarkRows: rows,
    charts,
    benchmarkMissingReason:
      rows.length > 0 ? null : 'No I/O benchmark was run in this assessment (run it with --benchmark).',
    predictions: plan === null ? [] : toPredictions(plan, result.ioBenchmark),
    recommendations: plan === null ? [] : toRecommendations(plan),
    commands: plan === null ? [] : toScriptCommands(plan.commands, includeDestructive),
    planMissingReason: plan === null ? 'No plan in this assessment.' : null,
  };
}

/**
 * Reads an assessment envelope from JSON of unknown origin (a saved file, the bridge): the contract's zod
 * schema is the only reader. A document that does not match becomes an error view naming the first issues.
 */
export function parseAssessmentEnvelope(json: unknown): AssessmentEnvelope | { readonly invalid: string } {
  const parsed = assessmentDocument.envelope.safeParse(json);
  if (parsed.success) {
    return parsed.data;
  }
  const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return { invalid: `${String(parsed.error.issues.length)} schema issue(s), e.g. ${issues.join('; ')}` };
}

/** The view of JSON of unknown origin: the typed view when it is an assessment, else an error view. */
export function toReportViewFromJson(json: unknown, options: ReportViewOptions = {}): ReportView {
  const parsed = parseAssessmentEnvelope(json);
  if ('invalid' in parsed) {
    return {
      title: 'encplan assessment',
      status: 'error',
      generatedAt: '',
      toolVersion: UNKNOWN,
      device: null,
      stack: [],
      strategy: null,
      healthGate: null,
      planFindings: [],
      sections: [],
      benchmarkRows: [],
      charts: [],
      benchmarkMissingReason: 'The document is not an encplan assessment.',
      predictions: [],
      recommendations: [],
      commands: [],
      includeDestructive: options.includeDestructive ?? false,
      planMissingReason: 'The document is not an encplan assessment.',
      warnings: [],
      error: {
        code: 'INVALID_ARGUMENT',
        message: `This is not an encplan assessment document: ${parsed.invalid}.`,
        hint: 'Open the output of encplan assess --json.',
      },
    };
  }
  return toReportView(parsed, options);
}

/** The commands of a view as a POSIX shell script (the one script renderer, see command-script.ts). */
export function renderCommandsScript(view: ReportView): string {
  return renderCommandScriptText(view.commands, {
    title: view.title,
    generated: `Generated by encplan ${view.toolVersion} at ${view.generatedAt}.`,
  });
}
