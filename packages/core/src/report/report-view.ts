import { mitigationsContext } from './mitigations.js';
import { ENCRYPTION_UNFINISHED } from '../targets/bitlocker/plan.js';
import { TARGET_ADMISSION } from '../rules/target-admission.js';
import { groupRuns, spanOf } from './large-layouts.js';
import { planSettingsOf, targetOf } from '../targets/registry.js';
import {
  assessmentDocument,
  linuxResultOf,
  type AssessmentEnvelope,
  type AssessmentResult,
  type LinuxAssessmentResult,
} from '../contract/assessment.js';
import type { StackNode } from '../domain/device.js';
import type { IoBenchmark } from '../domain/io-benchmark.js';
import type { Warning } from '../domain/warning.js';
import type { Plan } from '../plan/plan.js';
import { cacheAbsorbed, PAGE_CACHE_REASON } from '../analyses/io-overhead.js';
import { toStrategyView, type StrategyView } from './strategy-view.js';
import { printableData } from './printable.js';
import {
  formatBytes,
  formatBytesExact,
  formatDuration,
  formatDurationMs,
  formatPercent,
  formatRate,
  toMebibytesPerSecond,
} from '../domain/units.js';
import {
  toSectionViews,
  warningsFrom,
  type FactView,
  type SectionView,
  type Tone,
} from './assessment-sections.js';
import { renderCommandScriptText, toScriptCommands, type ScriptCommandView } from './command-script.js';
import { formatEvidence, formatRecommendationValue, UNKNOWN } from './labels.js';
import { storageDeviceView, storageSectionViews } from './storage-sections.js';
import { storageModelOf } from '../analyses/storage-model.js';
import { PROFILE_LABELS, toAssessmentCharts, type ChartView } from './report-charts.js';

export type { FactView, SectionView, Tone } from './assessment-sections.js';
export type { ChartView } from './report-charts.js';

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

/** One block device of the stack, from the disk up: its depth in the tree and what it is. */
export interface StackLineView {
  readonly depth: number;
  readonly text: string;
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
  /** The model's assumption for this profile ("Queued I/O: the slower of the device and the cipher …"). */
  readonly assumption: string;
}

/** One row of the measured overhead: plain next to encrypted for one profile and variant. */
export interface OverheadRowView {
  readonly profile: string;
  readonly variant: string;
  readonly plain: string;
  readonly encrypted: string;
  /** Encrypted ÷ plain throughput ("0.93"), or "unknown". */
  readonly ratio: string;
  /** CPU use of the plain and the encrypted run ("12 % / 48 %"). */
  readonly cpu: string;
  /** What limited the encrypted run, for people ("the cipher", "queueing", "unknown"). */
  readonly bound: string;
}

/** One row of the attacker-cost table: how long one attacker expects to guess a password. */
export interface AttackerCostRowView {
  readonly kdf: string;
  readonly attacker: string;
  readonly password: string;
  readonly expectedTime: string;
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

/** The answer, in one line: what to do about this drive and why, coloured by the health gate. */
export interface AnswerView {
  readonly tone: Tone;
  /** The verdict in a word or two: "go", "fix first", "caution", "stop". */
  readonly verdict: string;
  /** "Go ahead: encrypt /dev/vda with LUKS2", "Back up first: …". */
  readonly headline: string;
  readonly reason: string;
}

/** One headline decision of the plan ("Cipher: AES-256 in XTS mode"). */
export interface DecisionView {
  readonly label: string;
  readonly value: string;
}

/** Something to fix or know before encrypting, most severe first. */
export interface FixFirstView {
  readonly tone: Tone;
  readonly message: string;
}

/** Everything the three views display. */
export interface ReportView {
  /** The verdict, the plan's headline decisions and what to fix first: every view leads with these. */
  readonly answer: AnswerView | null;
  readonly decisions: readonly DecisionView[];
  readonly fixFirst: readonly FixFirstView[];
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
  /** Plain next to encrypted per profile and variant, with CPU use and what bound the encrypted run. */
  readonly overheadRows: readonly OverheadRowView[];
  /** What the I/O benchmark adds to its tables: notes of the runs, what was skipped and why. */
  readonly benchmarkNotes: readonly string[];
  /**
   * The CPU-vulnerability mitigations the costs were measured with (issue 24 item 6), when a cost was measured
   * (cipher or I/O benchmark); absent or null otherwise.
   */
  readonly measuredWith?: string | null;
  readonly charts: readonly ChartView[];
  /** Why there are no benchmarks, or null when there are. */
  readonly benchmarkMissingReason: string | null;
  readonly predictions: readonly PredictionRowView[];
  /** Which evidence the predictions' cipher speed rests on, in words with its rank (plan 1.2); null when unknown. */
  readonly cipherEvidence: string | null;
  /** Its rank and kind alone ("rank 3 of 4, the kernel's own cipher, measured through fscrypt"), for summaries. */
  readonly cipherEvidenceRank: string | null;
  /** Expected time to guess a password, per key derivation and attacker; then the notes behind the figures. */
  readonly attackerCost: readonly AttackerCostRowView[];
  readonly attackerNotes: readonly string[];
  readonly recommendations: readonly RecommendationView[];
  /** The plan's commands, each marked live or commented out (data-destroying ones and those after them). */
  readonly commands: readonly ScriptCommandView[];
  readonly includeDestructive: boolean;
  /** Why there is no plan, or null when there is one. */
  readonly planMissingReason: string | null;
  readonly warnings: readonly Warning[];
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly hint: string | null;
    /** The error's details (e.g. the missing tool of TOOL_NOT_FOUND), for the wizard's error states. */
    readonly details: Readonly<Record<string, unknown>> | null;
  } | null;
}

/** The plan's part of the view: what `encplan plan` shows and the plan sections of `encplan assess`. */
export type PlanView = Pick<
  ReportView,
  | 'answer'
  | 'decisions'
  | 'fixFirst'
  | 'strategy'
  | 'healthGate'
  | 'planFindings'
  | 'predictions'
  | 'cipherEvidence'
  | 'cipherEvidenceRank'
  | 'attackerCost'
  | 'attackerNotes'
  | 'recommendations'
  | 'commands'
  | 'includeDestructive'
  | 'planMissingReason'
>;

/** The I/O benchmark's part of the view: what `encplan benchmark io` shows and the I/O section of `assess`. */
export type IoView = Pick<
  ReportView,
  'benchmarkRows' | 'overheadRows' | 'benchmarkNotes' | 'benchmarkMissingReason'
>;

/** Options of the view: whether data-destroying commands are live (the user's --destructive flag). */
export interface ReportViewOptions {
  readonly includeDestructive?: boolean;
}

const TRANSPORT_KIND: Readonly<Record<LinuxAssessmentResult['media']['kind'], string>> = {
  ssd: 'solid-state',
  hdd: 'hard disk',
  unknown: 'disk of unknown media',
};

function toDeviceView(result: LinuxAssessmentResult): DeviceView {
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
      // A long table groups runs of same-size partitions with nothing on them (large-layouts.ts).
      ...groupRuns(
        result.partitions,
        (part) =>
          part.filesystem === null && part.mountpoints.length === 0
            ? `${String(part.sizeBytes)}:${part.typeId ?? ''}`
            : null,
        (part) => ({
          label: `Partition ${String(part.number)} (${part.path})`,
          value: `${formatBytes(part.sizeBytes)} at ${formatBytes(part.startBytes)}${part.filesystem === null ? '' : `, ${part.filesystem.type}${part.filesystem.usedPercent === null ? '' : ` ${formatPercent(part.filesystem.usedPercent)} used`}`}${part.mountpoints.length === 0 ? '' : `, mounted at ${part.mountpoints.join(', ')}`}`,
          source: 'lsblk',
        }),
        (run) => {
          const first = run[0] as (typeof run)[number];
          const last = run[run.length - 1] as (typeof run)[number];
          return {
            label: `Partitions ${String(first.number)}–${String(last.number)} (${spanOf(run.map((part) => part.path))})`,
            value: `${String(run.length)} × ${formatBytes(first.sizeBytes)} from ${formatBytes(first.startBytes)} to ${formatBytes(last.startBytes + last.sizeBytes)}, nothing on them (each in the JSON)`,
            source: 'lsblk',
          };
        },
      ),
    ],
  };
}

function stackText(node: StackNode): string {
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
  return parts.filter((part) => part !== null).join(' · ');
}

function toStackLines(node: StackNode, depth = 0): StackLineView[] {
  // Many leaf children alike (128 empty partitions) become one line per run (large-layouts.ts).
  const alike = (child: StackNode): string | null =>
    child.children.length === 0 && child.filesystem === null && child.mountpoints.length === 0
      ? stackText({ ...child, kernelName: '' })
      : null;
  return [
    { depth, text: stackText(node) },
    ...groupRuns(
      node.children,
      alike,
      (child) => toStackLines(child, depth + 1),
      (run) => [
        {
          depth: depth + 1,
          text: `${spanOf(run.map((child) => child.kernelName))}: ${String(run.length)} × ${stackText({ ...(run[0] as StackNode), kernelName: '' }).trimStart()}`,
        },
      ],
    ).flat(),
  ];
}

const BOUND: Readonly<Record<IoBenchmark['overhead'][number]['bound'], string>> = {
  device: 'the drive',
  cipher: 'the cipher',
  queueing: 'queueing',
  undetermined: UNKNOWN,
};

/**
 * The I/O benchmark as the views show it: one row per profile and target, the overhead of each encrypted
 * variant, the notes and skipped variants, and the throughput chart. Pure.
 */
export function toIoView(
  io: IoBenchmark | null,
  /** What a quick cipher benchmark of the same run left out, listed with the I/O run's own cuts. */
  cipherReductions: readonly string[] = [],
  /** Why no I/O was measured, when it is not a missing --benchmark (ioMissingReason). */
  missingReason: string | null = null,
): IoView & { readonly throughputCharts: readonly ChartView[] } {
  if (io === null) {
    return {
      benchmarkRows: [],
      overheadRows: [],
      benchmarkNotes: [],
      benchmarkMissingReason:
        missingReason ?? 'No I/O benchmark was run in this assessment (run it with --benchmark).',
      throughputCharts: [],
    };
  }
  const rows: BenchmarkRowView[] = [];
  const cacheNotes: string[] = [];
  const groups = new Map<string, Map<string, number>>();
  const series: string[] = [];
  for (const target of [io.plain, ...io.encrypted]) {
    for (const measurement of target.profiles) {
      const profile = `${measurement.profile.label} ${measurement.profile.direction}`;
      const summary = measurement.summary;
      const base = io.plain.profiles.find((candidate) => candidate.profile.id === measurement.profile.id);
      // A page-cache figure is no encryption speed (issue 24): listed with the reason, never charted.
      const absorbed = target !== io.plain && cacheAbsorbed(base?.summary, summary);
      if (absorbed) {
        cacheNotes.push(
          `${target.variant} ${profile}: ${formatRate(summary.medianBytesPerSecond)} against plain ${formatRate(base?.summary.medianBytesPerSecond ?? 0)}. ${PAGE_CACHE_REASON}`,
        );
      }
      rows.push({
        profile,
        target: target.variant,
        measured: formatRate(summary.medianBytesPerSecond),
        source: `${target.ioEngine === 'diskspd' ? 'DiskSpd (-Sh, write-through' : `fio (${target.ioEngine}${target.directIo ? ', O_DIRECT' : ''}`}; median of ${String(summary.runCount)} run${summary.runCount === 1 ? '' : 's'}, spread ${formatPercent(summary.spreadPercent)})`,
      });
      if (!series.includes(target.variant)) {
        series.push(target.variant);
      }
      if (!absorbed) {
        groups.set(
          profile,
          (groups.get(profile) ?? new Map<string, number>()).set(
            target.variant,
            toMebibytesPerSecond(summary.medianBytesPerSecond),
          ),
        );
      }
    }
  }
  for (const skipped of io.skipped) {
    rows.push({
      profile: 'all profiles',
      target: skipped.variant,
      measured: 'not measured',
      source: `skipped (${skipped.code}): ${skipped.message}`,
    });
  }
  // Quick mode says what it left out: fewer runs mean a wider spread than the figures suggest.
  for (const reduction of [...(io.settings?.reductions ?? []), ...cipherReductions]) {
    rows.push({ profile: 'quick mode', target: 'left out', measured: '—', source: reduction });
  }
  const cpu = (percent: number): string => `${percent.toFixed(0)} %`;
  const overheadRows = io.overhead.map((row): OverheadRowView => ({
    profile: `${row.profileLabel} ${row.direction}`,
    variant: row.variant,
    plain: formatRate(row.plainBytesPerSecond),
    encrypted: formatRate(row.encryptedBytesPerSecond),
    ratio: row.throughputRatio === null ? UNKNOWN : row.throughputRatio.toFixed(2),
    cpu: `${cpu(row.plainCpuPercent)} / ${cpu(row.encryptedCpuPercent)}`,
    bound: BOUND[row.bound],
  }));
  const benchmarkNotes = [
    `${io.target} (${io.mode} run; fio ${io.plain.ioEngine}, O_DIRECT ${io.plain.directIo ? 'on' : 'off'}, ${formatBytes(io.plain.fileSizeBytes)} file; ${formatDurationMs(io.wallTimeMs)} in all).`,
    ...io.encrypted.flatMap((target) => target.notes.map((note) => `${target.variant}: ${note}`)),
    ...cacheNotes,
    ...(io.overhead.some((row) => row.bound === 'undetermined')
      ? [
          'Bound "unknown": pass --cipher-bytes-per-second (one core, e.g. from `encplan benchmark ciphers`) to tell the cipher from queueing.',
        ]
      : []),
  ];
  const throughputCharts: ChartView[] =
    groups.size === 0
      ? []
      : [
          {
            id: 'throughput',
            title: 'Measured throughput per profile: plain vs encrypted',
            unit: 'MiB/s',
            max: null,
            series,
            groups: [...groups.entries()].map(([label, values]) => ({
              label,
              bars: series.map((name) => ({ series: name, value: values.get(name) ?? null })),
            })),
          },
        ];
  return {
    benchmarkRows: rows,
    overheadRows,
    benchmarkNotes,
    benchmarkMissingReason: rows.length > 0 ? null : 'The I/O benchmark measured no profile.',
    throughputCharts,
  };
}

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
        assumption: row.assumption,
      };
    }),
  );
}

/** Names of the evidence ranks (rules/cipher-speed.ts cipherEvidenceKindSchema). */
const EVIDENCE_KIND: Readonly<Record<string, string>> = {
  'measured-run': 'an encrypted run of this backend, measured here',
  'kernel-api': "the kernel's crypto API (cryptsetup benchmark)",
  'kernel-cipher': "the kernel's own cipher, measured through fscrypt",
  'userspace-upper-bound': 'OpenSSL in user space, an upper bound',
};

/** The plan's cipher evidence in one sentence: rank, kind, source and note (issue 24). */
function toCipherEvidence(plan: Plan): string | null {
  const evidence = plan.cipherEvidence;
  if (evidence === undefined) {
    return null;
  }
  if (evidence.rank === null || evidence.kind === null) {
    return `none usable. ${evidence.note}`;
  }
  return `rank ${String(evidence.rank)} of 4, ${EVIDENCE_KIND[evidence.kind] ?? evidence.kind}${evidence.source === null ? '' : ` (${evidence.source})`}. ${evidence.note}`;
}

/** Who guesses, for people ("rtx-4090" is one reference GPU; hashcat -b figures, rules/reference-rates.ts). */
const ATTACKER: Readonly<Record<string, string>> = {
  'rtx-4090': 'one RTX 4090',
  'rtx-5090': 'one RTX 5090',
  'h100-pcie': 'one H100 PCIe',
  'unlock-machine': 'the unlocking machine',
};

function toAttackerCost(plan: Plan): { rows: AttackerCostRowView[]; notes: string[] } {
  return {
    rows: plan.attackerCost.map((row) => ({
      kdf: row.kdf.replace(/^luks2-/, 'LUKS2 ').replace(/^veracrypt-pbkdf2-/, 'VeraCrypt PBKDF2-'),
      attacker: ATTACKER[row.attacker] ?? row.attacker,
      password: `${row.entropyBits.toFixed(1)} bits`,
      expectedTime:
        row.expectedSeconds === null ? 'no published figure applies' : formatDuration(row.expectedSeconds),
    })),
    notes: [...new Set(plan.attackerCost.map((row) => row.note))],
  };
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
  // macOS and Windows (targets/<id>/plan.ts).
  'macos-encryption': { title: 'Encryption on this Mac' },
  'macos-encryption-cost': { title: 'Cost of encryption on this Mac' },
  'macos-trim': { title: 'TRIM under APFS encryption' },
  'bitlocker-method': { title: 'BitLocker method' },
  'windows-trim': { title: 'TRIM under encryption (Windows)' },
};

const CONFIDENCE = {
  high: 'high (measured here)',
  medium: 'medium (inferred)',
  low: 'low (defaults or guesses)',
} as const;
/** Tools whose figures are measurements on this machine (a benchmark run), not reports of a setting. */
const MEASURING_ORIGINS = new Set(['fio', 'cryptsetup benchmark', 'openssl', 'diskspd', 'cipher benchmark']);

/**
 * "high (measured here)" only where the recommendation rests on a measurement made here (issue 24): a high
 * confidence from what the drive and system report (sector geometry, kernel version) says so instead.
 */
function confidenceLabel(entry: Plan['recommendations'][number]): string {
  const measured = entry.evidence.some(
    (item) =>
      item.value !== null &&
      (MEASURING_ORIGINS.has(item.source.origin) ||
        (item.source.origin === 'cryptsetup' &&
          (item.source.field ?? '').startsWith('cryptsetup benchmark'))),
  );
  return entry.confidence === 'high' && !measured
    ? 'high (from what this machine reports)'
    : CONFIDENCE[entry.confidence];
}
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
    confidence: confidenceLabel(entry),
    // A recommendation is a decision, not a verdict: only the health gate and rules with a finding carry a tone.
    tone:
      entry.ruleId === 'health-gate'
        ? GATE[plan.healthGate.status].tone
        : SEVERITY_TONE[plan.findings.find((finding) => finding.ruleId === entry.ruleId)?.severity ?? 'info'],
    evidence: entry.evidence.map((item) => ({ ...formatEvidence(item), source: source(item) })),
  }));
}

/** The plan's verdict in one line, coloured by the health gate and by what has to be fixed first. */
function toAnswer(plan: Plan, fixFirst: readonly FixFirstView[]): AnswerView {
  const target = `${plan.devicePlaceholder ? 'the drive' : plan.devicePath} with ${targetOf(plan.targetTool).labels.withTool}`;
  const problems = fixFirst.filter((item) => item.tone === 'bad' || item.tone === 'attention').length;
  const after =
    problems === 0 ? '' : `, after the ${problems === 1 ? 'one thing' : `${String(problems)} things`} below`;
  if (plan.healthGate.status === 'back-up-first') {
    return {
      tone: 'bad',
      verdict: 'stop',
      headline: `Back up first: do not encrypt ${target} until its data is safe elsewhere`,
      reason: plan.healthGate.reason,
    };
  }
  // A target its own admission refuses (luks2-opal on a Pyrite, locked or unconfirmed drive) gets no commands:
  // the answer is that refusal, never "encrypt with it".
  const refused = plan.findings.find((finding) => finding.ruleId === TARGET_ADMISSION);
  if (refused !== undefined) {
    return {
      tone: 'bad',
      verdict: 'stop',
      headline: `Not with ${targetOf(plan.targetTool).labels.short}: encplan gives no commands to encrypt ${plan.devicePlaceholder ? 'the drive' : plan.devicePath} with it`,
      reason: refused.message,
    };
  }
  // Encrypted but not protecting yet (protection off or suspended, a conversion running or paused): say what
  // finishes it, never "nothing to encrypt" nor "encrypt".
  const unfinished = plan.findings.find((finding) => finding.ruleId === ENCRYPTION_UNFINISHED);
  if (unfinished !== undefined) {
    return {
      tone: 'attention',
      verdict: 'fix first',
      headline: `Not protected yet: finish the encryption already started on ${plan.strategy?.target?.path ?? plan.devicePath}`,
      reason: unfinished.message,
    };
  }
  // Already encrypted (LUKS on Linux, FileVault/APFS or BitLocker on the platforms): the answer never says
  // "encrypt"; a failing drive still says "back up first" above.
  if (plan.strategy?.kind === 'nothing-to-do') {
    return {
      tone: problems === 0 ? 'good' : 'attention',
      verdict: problems === 0 ? 'done' : 'fix first',
      headline: `Nothing to encrypt: ${plan.strategy.target?.path ?? plan.devicePath} is already encrypted${after}`,
      // The strategy's own reason follows the answer in every view; the answer says what it means.
      reason: `${plan.healthGate.status === 'caution' ? `${plan.healthGate.reason} ` : ''}Nothing is rewritten; the strategy below says why, and what differs from the plan, if anything.`,
    };
  }
  // A system disk that cannot be encrypted in place: the answer is the strategy's, never "encrypt" (issue 24
  // item 5: one answer). The strategy view's title is the one name of the strategy in every view.
  if (plan.strategy?.kind === 'reinstall') {
    return {
      tone: 'attention',
      verdict: plan.healthGate.status === 'caution' ? 'caution' : 'reinstall',
      headline: `${toStrategyView(plan.strategy).title}: back up ${plan.strategy.target?.path ?? plan.devicePath}, reinstall with the installer's encrypted-disk option and restore the data${after}`,
      reason: `${plan.healthGate.status === 'caution' ? `${plan.healthGate.reason} ` : ''}No command rewrites this disk in place; the strategy below says why.`,
    };
  }
  if (plan.healthGate.status === 'caution') {
    return {
      tone: 'attention',
      verdict: 'caution',
      headline: `Encrypt ${target}, with care${after}`,
      reason: plan.healthGate.reason,
    };
  }
  return {
    tone: problems === 0 ? 'good' : 'attention',
    verdict: problems === 0 ? 'go' : 'fix first',
    headline: `Go ahead: encrypt ${target}${after}`,
    reason: plan.healthGate.reason,
  };
}

/** The settings the plan adds up to, one line each, as the commands will use them. */
function toDecisions(plan: Plan): DecisionView[] {
  const { settings } = plan;
  const pbkdf = plan.recommendations.find((entry) => entry.ruleId === 'luks2-pbkdf')?.value;
  const pbkdfName =
    typeof pbkdf === 'object' && pbkdf !== null && 'pbkdf' in pbkdf && typeof pbkdf.pbkdf === 'string'
      ? pbkdf.pbkdf
      : 'key derivation';
  // A time from an argon2id benchmark stopped at cryptsetup's minimum cost is a lower bound (plan 1.5).
  const unlock = (ms: number | null, lowerBound = false): string =>
    ms === null ? '' : `, ${lowerBound ? 'at least' : 'about'} ${formatDurationMs(ms)} to unlock`;
  const decisions: (DecisionView | null)[] = [
    { label: 'Encryption', value: targetOf(plan.targetTool).labels.withTool },
    {
      label: 'Cipher',
      value: `${settings.cipher}${settings.keySizeBits === null ? '' : `, ${String(settings.keySizeBits)}-bit key${settings.cipher.includes('xts') ? ` (AES-${String(settings.keySizeBits / 2)})` : ''}`}`,
    },
    settings.sectorSizeBytes === null
      ? null
      : { label: 'Encryption sector size', value: formatBytes(settings.sectorSizeBytes) },
    settings.luks2Pbkdf === null
      ? null
      : {
          label: 'Key derivation',
          // A PBKDF2 keyslot has no memory or threads; it is there because GRUB opens no other (grub-boot-pbkdf2).
          value:
            settings.luks2Pbkdf.kdf === 'pbkdf2'
              ? `PBKDF2-sha256 (GRUB opens LUKS2 only through a PBKDF2 keyslot), ${settings.luks2Pbkdf.iterations === null ? 'benchmarked iterations' : `${String(settings.luks2Pbkdf.iterations)} iterations`}${unlock(settings.luks2Pbkdf.predictedUnlockMs)}`
              : `${pbkdfName}, ${formatBytes(settings.luks2Pbkdf.memoryKiB * 1024)} memory, ${settings.luks2Pbkdf.iterations === null ? 'benchmarked iterations' : `${String(settings.luks2Pbkdf.iterations)} iterations`}, ${String(settings.luks2Pbkdf.parallel)} threads${unlock(settings.luks2Pbkdf.predictedUnlockMs, settings.luks2Pbkdf.predictedUnlockLowerBound === true)}`,
        },
    settings.veracrypt === null
      ? null
      : {
          label: 'VeraCrypt settings',
          value: `${settings.veracrypt.encryption}, ${settings.veracrypt.hash}, PIM ${String(settings.veracrypt.pim)}${unlock(settings.veracrypt.predictedUnlockMs)}`,
        },
    {
      label: 'Discards (TRIM)',
      value: discardsText(settings),
    },
    planSettingsOf(plan.targetTool).dmCryptParameters
      ? {
          label: 'dm-crypt work queues',
          value: settings.workqueueBypass ? 'bypassed' : 'kept (kernel default)',
        }
      : null,
    settings.space === null
      ? null
      : {
          label: 'Spare area',
          // Stated as left only where a command lays out the partitions; in place (or with no commands) the
          // partition table stays as it is, so the figure is advice the commands do not apply (issue 24 item 5).
          value:
            settings.space.unallocatedBytes === 0
              ? 'none left unpartitioned'
              : plan.commands.some((command) => command.id === 'partition-layout')
                ? `${formatBytes(settings.space.unallocatedBytes)} (${formatPercent(settings.space.unallocatedPercent)}) left unpartitioned`
                : `${formatBytes(settings.space.unallocatedBytes)} (${formatPercent(settings.space.unallocatedPercent)}) advised unpartitioned; no command of this plan changes the partition table`,
        },
  ];
  return decisions.filter((decision): decision is DecisionView => decision !== null);
}

/**
 * The discards decision as known as the plan knows it: passed through by dm-crypt, and whether TRIM then
 * reaches the drive — yes, no or unknown with the reason, never yes for unknown (issue 24 item 5).
 */
function discardsText(settings: Plan['settings']): string {
  if (!settings.allowDiscards) {
    return 'not passed through';
  }
  const trim = settings.space?.trim;
  if (trim === undefined) {
    return 'passed through to the drive';
  }
  const reaches = trim.reachesDrive === null ? 'unknown' : trim.reachesDrive ? 'yes' : 'no';
  return `passed through; reaches the drive: ${reaches} (${trim.reason})`;
}

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;

/** What to fix or know before encrypting: the plan's critical findings, then its warnings (never twice). */
function toFixFirst(plan: Plan): FixFirstView[] {
  const seen = new Set<string>();
  return [...plan.findings]
    .filter((finding) => finding.severity !== 'info')
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    .filter((finding) => !seen.has(finding.message) && Boolean(seen.add(finding.message)))
    .map((finding) => ({ tone: SEVERITY_TONE[finding.severity], message: finding.message }));
}

/**
 * The plan's part of every view, from the plan alone (`encplan plan`) or from an assessment's plan (`assess`):
 * the verdict, decisions, reasons with evidence, predictions, attacker cost and the commands. Pure.
 */
export function toPlanView(
  plan: Plan | null,
  io: IoBenchmark | null,
  options: ReportViewOptions & { readonly missingReason?: string } = {},
): PlanView {
  const includeDestructive = options.includeDestructive ?? false;
  if (plan === null) {
    return {
      answer: null,
      decisions: [],
      fixFirst: [],
      strategy: null,
      healthGate: null,
      planFindings: [],
      predictions: [],
      cipherEvidence: null,
      cipherEvidenceRank: null,
      attackerCost: [],
      attackerNotes: [],
      recommendations: [],
      commands: [],
      includeDestructive,
      planMissingReason: options.missingReason ?? 'No plan in this assessment.',
    };
  }
  const fixFirst = toFixFirst(plan);
  const attacker = toAttackerCost(plan);
  return {
    answer: toAnswer(plan, fixFirst),
    decisions: toDecisions(plan),
    fixFirst,
    strategy: plan.strategy === undefined ? null : toStrategyView(plan.strategy),
    healthGate: { ...GATE[plan.healthGate.status], reason: plan.healthGate.reason },
    planFindings: plan.findings.map((finding) => ({
      tone: SEVERITY_TONE[finding.severity],
      message: finding.message,
    })),
    predictions: toPredictions(plan, io),
    cipherEvidence: toCipherEvidence(plan),
    cipherEvidenceRank:
      plan.cipherEvidence?.rank === null ||
      plan.cipherEvidence?.rank === undefined ||
      plan.cipherEvidence.kind === null
        ? null
        : `rank ${String(plan.cipherEvidence.rank)} of 4, ${EVIDENCE_KIND[plan.cipherEvidence.kind] ?? plan.cipherEvidence.kind}`,
    attackerCost: attacker.rows,
    attackerNotes: attacker.notes,
    recommendations: toRecommendations(plan),
    commands: toScriptCommands(plan.commands, includeDestructive),
    includeDestructive,
    planMissingReason: null,
  };
}

/** The view of no assessment at all (a failed run, a document that is not an assessment). */
function emptyReportView(
  base: Pick<ReportView, 'status' | 'generatedAt' | 'toolVersion' | 'warnings' | 'error'>,
  includeDestructive: boolean,
  why: string,
): ReportView {
  const io = toIoView(null);
  return {
    ...base,
    ...toPlanView(null, null, { includeDestructive, missingReason: why }),
    title: 'encplan assessment',
    device: null,
    stack: [],
    sections: [],
    benchmarkRows: io.benchmarkRows,
    overheadRows: io.overheadRows,
    benchmarkNotes: io.benchmarkNotes,
    charts: [],
    benchmarkMissingReason: why,
  };
}

/**
 * Why an assessment that ran with --benchmark has no I/O run: the benchmark step's warnings (fio on Linux and
 * macOS, DiskSpd on Windows) say it ran and what stopped it; on Linux a cipher benchmark shows --benchmark too.
 * Null when nothing shows that --benchmark was given.
 */
function ioMissingReason(result: AssessmentResult, warnings: readonly Warning[]): string | null {
  if (result.ioBenchmark !== null) {
    return null;
  }
  const why = warningsFrom(warnings, ['fio', 'diskspd']);
  if (why !== null) {
    return `The assessment ran with --benchmark, but plain versus encrypted I/O was not measured: ${why}`;
  }
  return result.cipherBenchmark === null
    ? null
    : 'The assessment ran with --benchmark, but without an I/O backend (--io none): only the ciphers were measured.';
}

/** Turns a typed assessment envelope into what every view shows. Pure. */
export function toReportView(toolEnvelope: AssessmentEnvelope, options: ReportViewOptions = {}): ReportView {
  // Tool strings enter the view here: control characters in them are shown escaped (printable.ts).
  const envelope = printableData(toolEnvelope);
  const includeDestructive = options.includeDestructive ?? false;
  const result = envelope.result;
  const error =
    envelope.error === null
      ? result === null
        ? {
            code: 'INTERNAL_ERROR',
            message: 'The assessment did not produce a result.',
            hint: null,
            details: null,
          }
        : null
      : {
          code: envelope.error.code,
          message: envelope.error.message,
          hint: envelope.error.hint,
          details: envelope.error.details,
        };
  const base = {
    status: envelope.status,
    generatedAt: envelope.generatedAt,
    toolVersion: envelope.toolVersion,
    warnings: envelope.warnings,
    error,
  };
  if (result === null) {
    return emptyReportView(base, includeDestructive, 'The assessment failed.');
  }
  // macOS and Windows: no Linux-shaped sections; the storage model's sections instead (the model is rebuilt
  // from the deprecated platformStorage of documents before assessment 1.4).
  const linux = linuxResultOf(result);
  const model = linux === null ? storageModelOf(result) : null;
  const device = linux === null ? storageDeviceView(model, result.target.path) : toDeviceView(linux);
  const { throughputCharts, ...io } = toIoView(
    result.ioBenchmark,
    result.cipherBenchmark?.reductions ?? [],
    ioMissingReason(result, envelope.warnings),
  );
  return {
    ...base,
    ...toPlanView(result.plan, result.ioBenchmark, { includeDestructive }),
    ...io,
    // Every measured cost carries the CPU-vulnerability mitigations it was measured with (issue 24 item 6).
    measuredWith:
      io.benchmarkRows.length === 0 && (result.cipherBenchmark?.cipherSpeed.measurements.length ?? 0) === 0
        ? null
        : mitigationsContext(result.machine),
    benchmarkNotes:
      io.benchmarkRows.length === 0
        ? io.benchmarkNotes
        : [...io.benchmarkNotes, mitigationsContext(result.machine)],
    title: `encplan assessment of ${device.path} (${device.model})`,
    device,
    stack: linux === null ? [] : toStackLines(linux.stack),
    sections: [
      // macOS and Windows: the storage model's sections first.
      ...(model === null ? [] : storageSectionViews(model, envelope.warnings)),
      ...toSectionViews(result, envelope.warnings),
    ],
    charts: [...throughputCharts, ...toAssessmentCharts(result)],
  };
}

/**
 * Reads an assessment envelope from JSON of unknown origin (a saved file, the bridge): the contract's zod
 * schema is the only reader. A document that does not match becomes an error view naming the first issues.
 */
function parseAssessmentEnvelope(json: unknown): AssessmentEnvelope | { readonly invalid: string } {
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
    return emptyReportView(
      {
        status: 'error',
        generatedAt: '',
        toolVersion: UNKNOWN,
        warnings: [],
        error: {
          code: 'INVALID_ARGUMENT',
          message: `This is not an encplan assessment document: ${parsed.invalid}.`,
          hint: 'Open the output of encplan assess --json.',
          details: null,
        },
      },
      options.includeDestructive ?? false,
      'The document is not an encplan assessment.',
    );
  }
  return toReportView(parsed, options);
}

/** The commands of a view as a POSIX shell script (the one script renderer, see command-script.ts). */
export function renderCommandsScript(view: ReportView): string {
  return renderCommandScriptText(view.commands, {
    title: view.title,
    generated: `Generated by encplan ${view.toolVersion} at ${view.generatedAt}.`,
    withheld: withheldReason(view.strategy),
  });
}

/** The commands of a plan view as the script `encplan plan --commands` prints (the one script renderer). */
export function renderPlanCommandsScript(view: PlanView): string {
  return renderCommandScriptText(view.commands, {
    title: 'encplan plan',
    generated: null,
    withheld: withheldReason(view.strategy),
  });
}

/** Why a plan has no command at all: a failing drive's strategy (back up and replace first). */
function withheldReason(strategy: StrategyView | null): string | null {
  return strategy?.kind === 'replace-first' ? strategy.reason : null;
}
