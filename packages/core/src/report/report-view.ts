import type { Warning } from '../domain/warning.js';
import { asArray, asNumber, asString, describeSource, isObject, pick, type Json } from './json-reading.js';
import {
  discardPassthroughFindings,
  interpretCapabilities,
  interpretCipherBenchmark,
  interpretEncryption,
  interpretMachine,
  interpretSpace,
  interpretWholeDiskUse,
  interpretStackDiscard,
  missingCapabilityReason,
  type Interpretation,
} from './assessment-sections.js';
import { formatByFieldName, formatSizeBytes, labelFromFieldName, toMebibytesPerSecond } from './format-units.js';

/**
 * The view model of an assessment: what the desktop wizard and the HTML report show. Built by
 * {@link toReportView} from the assessment envelope, tolerant of sections the assessment does not have
 * (they become "not measured" with the reason taken from the warnings).
 */

/** How a verdict should look: good (green), attention (amber), bad (red), unknown (grey), info (facts, no verdict). */
export type Tone = 'good' | 'attention' | 'bad' | 'unknown' | 'info';

/** One fact, already formatted, with where it came from ("smartctl: nvme_smart_health_information_log.percentage_used"). */
export interface FactView {
  readonly label: string;
  readonly value: string;
  readonly source: string | null;
}

/** A finding of an analysis, in one sentence, with its source. */
export interface FindingView {
  readonly tone: Tone;
  readonly message: string;
  readonly source: string | null;
}

/** The identifier of a section of the report. */
export type SectionId = 'health' | 'trim' | 'space' | 'cpu' | 'ciphers' | 'encryption' | 'capabilities';

/** One section of the health/TRIM/space step: a verdict in plain language and the details behind it. */
export interface SectionView {
  readonly id: SectionId;
  readonly title: string;
  readonly tone: Tone;
  /** The verdict as the analysis named it ("healthy", "failing", …), or "unknown". */
  readonly verdict: string;
  /** One plain-language sentence for people who do not live in a terminal. */
  readonly summary: string;
  readonly findings: readonly FindingView[];
  readonly facts: readonly FactView[];
  /** Why the section has no data (from the warnings), or null when it was measured. */
  readonly missingReason: string | null;
}

/** The assessed drive, formatted. */
export interface DeviceView {
  readonly path: string;
  readonly model: string;
  readonly size: string;
  readonly sizeBytes: number | null;
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

/** One group of bars (one I/O profile: "SEQ1M Q8T1 read"). */
export interface BarGroupView {
  readonly label: string;
  readonly bars: readonly BarView[];
}

/** A grouped bar chart: plain vs encrypted (and predicted) per profile, like the seeds' charts. */
export interface ChartView {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly string[];
  readonly groups: readonly BarGroupView[];
}

/** One row of the benchmark table. */
export interface BenchmarkRowView {
  readonly profile: string;
  readonly target: string;
  readonly measured: string;
  readonly predicted: string | null;
  readonly source: string | null;
}

/** One recommendation of the plan. */
export interface RecommendationView {
  readonly ruleId: string;
  readonly title: string;
  readonly value: string;
  readonly reason: string;
  readonly confidence: string | null;
  readonly tone: Tone;
  readonly evidence: readonly FactView[];
}

/** A command of the plan, as an argv array and as the line a shell script would hold. */
export interface CommandView {
  readonly description: string;
  readonly argv: readonly string[];
  readonly line: string;
  readonly destructive: boolean;
}

/** Everything the wizard and the HTML report display. */
export interface ReportView {
  readonly title: string;
  readonly status: 'ok' | 'partial' | 'error';
  readonly generatedAt: string;
  readonly toolVersion: string;
  readonly device: DeviceView | null;
  readonly sections: readonly SectionView[];
  readonly benchmarkRows: readonly BenchmarkRowView[];
  readonly charts: readonly ChartView[];
  /** Why there are no benchmarks, or null when there are. */
  readonly benchmarkMissingReason: string | null;
  readonly recommendations: readonly RecommendationView[];
  readonly commands: readonly CommandView[];
  /** Why there is no plan, or null when there is one. */
  readonly planMissingReason: string | null;
  readonly warnings: readonly Warning[];
  readonly error: { readonly code: string; readonly message: string; readonly hint: string | null } | null;
}

const TONE_BY_VERDICT: Readonly<Record<string, Tone>> = {
  healthy: 'good',
  ok: 'good',
  good: 'good',
  supported: 'good',
  yes: 'good',
  pass: 'good',
  passed: 'good',
  info: 'info',
  measured: 'info',
  'not-applicable': 'info',
  adequate: 'good',
  generous: 'good',
  low: 'attention',
  none: 'attention',
  'not-supported': 'attention',
  'blocked-by-bridge': 'attention',
  'blocked-by-kernel': 'attention',
  warning: 'attention',
  attention: 'attention',
  partial: 'attention',
  degraded: 'attention',
  'not-passed-through': 'attention',
  failing: 'bad',
  failed: 'bad',
  critical: 'bad',
  bad: 'bad',
  error: 'bad',
  unsupported: 'attention',
};

function toneOf(verdict: string | null): Tone {
  return verdict === null ? 'unknown' : (TONE_BY_VERDICT[verdict] ?? 'unknown');
}

/** Flattens the scalar fields of a section into formatted facts, units read from the field names. */
function scalarFacts(section: Json, inheritedSource: string | null, skip: ReadonlySet<string>): FactView[] {
  const facts: FactView[] = [];
  for (const [key, value] of Object.entries(section)) {
    if (skip.has(key)) {
      continue;
    }
    const own = isObject(value) ? value : null;
    const raw = own !== null && 'value' in own ? own.value : value;
    const source = own === null ? inheritedSource : (describeSource(own.source) ?? inheritedSource);
    const number = asNumber(raw);
    if (number !== null) {
      facts.push({ label: labelFromFieldName(key), value: formatByFieldName(key, number), source });
    } else if (typeof raw === 'boolean') {
      facts.push({ label: labelFromFieldName(key), value: raw ? 'yes' : 'no', source });
    } else if (typeof raw === 'string' && raw !== '') {
      facts.push({ label: labelFromFieldName(key), value: raw, source });
    }
  }
  return facts;
}

/** Findings every section may carry besides its list: why data is unavailable, a fix, advice. */
function extraFindingsOf(section: Json): FindingView[] {
  const unavailable = isObject(section.unavailable) ? asString(section.unavailable.detail) : null;
  const fix = asString(section.fix);
  const extra: FindingView[] = [
    ...(unavailable === null ? [] : [{ tone: 'unknown' as const, message: unavailable, source: null }]),
    ...(fix === null ? [] : [{ tone: 'info' as const, message: `To change this: ${fix}`, source: null }]),
    ...asArray(section.advice).flatMap((advice): FindingView[] => (typeof advice === 'string' ? [{ tone: 'info', message: advice, source: null }] : [])),
  ];
  return extra;
}

function findingsOf(section: Json): FindingView[] {
  return [...extraFindingsOf(section), ...asArray(pick(section, ['findings', 'issues'])).flatMap((entry): FindingView[] => {
    if (typeof entry === 'string') {
      return [{ tone: 'attention', message: entry, source: null }];
    }
    if (!isObject(entry)) {
      return [];
    }
    const message = asString(pick(entry, ['message', 'detail', 'summary', 'reason', 'description']));
    if (message === null) {
      return [];
    }
    const severity = asString(pick(entry, ['severity', 'verdict', 'level']));
    const hint = asString(entry.hint);
    return [{ tone: severity === null ? 'attention' : toneOf(severity), message: hint === null ? message : `${message} ${hint}`, source: describeSource(entry.source) }];
  })];
}

/** Which warnings explain a missing section: by the tools or codes that feed it. */
const SECTION_EVIDENCE: Readonly<Record<SectionId, { readonly sources: readonly string[]; readonly codes: readonly string[] }>> = {
  health: { sources: ['smartctl', 'nvme', 'hdparm'], codes: ['SMART_UNAVAILABLE'] },
  trim: { sources: ['hdparm', 'smartctl', 'nvme', '/sys', 'lsblk', 'fstrim'], codes: [] },
  space: { sources: ['lsblk', 'sfdisk', 'sgdisk', 'blkid', 'findmnt'], codes: [] },
  cpu: { sources: ['systeminformation', '/proc/cpuinfo'], codes: [] },
  ciphers: { sources: ['cryptsetup', 'openssl', '/proc/crypto'], codes: ['KERNEL_FEATURE_MISSING'] },
  encryption: { sources: ['cryptsetup', 'blkid'], codes: [] },
  capabilities: { sources: ['/proc'], codes: [] },
};

/** Capabilities (contract `capabilities[].id`) whose absence explains a section without data. */
const SECTION_CAPABILITIES: Readonly<Record<SectionId, readonly string[]>> = {
  health: ['root'],
  trim: [],
  space: ['root'],
  cpu: [],
  ciphers: ['kernel-crypto-user-api'],
  encryption: ['root'],
  capabilities: [],
};

function reasonFromWarnings(warnings: readonly Warning[], sources: readonly string[], codes: readonly string[]): string | null {
  const related = warnings.filter(
    (warning) => codes.includes(warning.code) || (warning.source !== null && sources.some((source) => warning.source?.startsWith(source))),
  );
  return related.length === 0 ? null : related.map((warning) => warning.message).join(' ');
}

interface SectionSpec {
  readonly id: SectionId;
  readonly title: string;
  readonly keys: readonly string[];
  readonly summaries: Readonly<Record<Exclude<Tone, 'info'>, string>> & { readonly info?: string };
  /** Reads a section of the contract that has facts but no verdict of its own. */
  readonly interpret?: (raw: unknown, result: Json) => Interpretation | null;
  /** Findings from elsewhere in the result that belong here (TRIM: the discard passthrough of each path). */
  readonly extraFindings?: (result: Json) => FindingView[];
  /** Where to look when the section itself is absent (TRIM: the stack's sysfs discard limits). */
  readonly fallback?: (result: Json) => Interpretation | null;
  /** Wins over the section's own verdict when it applies (space: a disk used whole has none to spare). */
  readonly override?: (result: Json) => Interpretation | null;
}

const SECTION_SPECS: readonly SectionSpec[] = [
  {
    id: 'health',
    title: 'Drive health',
    keys: ['health', 'smart'],
    summaries: {
      good: 'The drive reports no problems. Encrypting it is safe from a health point of view.',
      attention: 'The drive shows signs of wear or errors. Back up before you encrypt and keep an eye on it.',
      bad: 'The drive is failing. Back up and replace it before encrypting anything on it.',
      unknown: 'The drive did not tell us how healthy it is.',
    },
  },
  {
    id: 'trim',
    title: 'TRIM and discards',
    keys: ['trim', 'discard', 'discards'],
    fallback: (result) => (isObject(result.stack) ? interpretStackDiscard(result.stack) : null),
    extraFindings: (result) => (isObject(result.discardPassthrough) ? discardPassthroughFindings(result.discardPassthrough) : []),
    summaries: {
      good: 'The drive can learn which blocks are free, so it stays fast and wears evenly after encryption.',
      attention: 'Free space may not reach the drive as TRIM through the planned stack; see the details.',
      bad: 'TRIM does not reach the drive, so it will treat every block as in use.',
      unknown: 'We could not tell whether TRIM reaches the drive.',
    },
  },
  {
    id: 'space',
    title: 'Space and spare area',
    keys: ['overProvisioning', 'space', 'spareArea'],
    interpret: (raw, result) => (isObject(raw) ? interpretSpace(raw, result) : null),
    override: interpretWholeDiskUse,
    summaries: {
      good: 'The drive has enough spare area for steady speed and even wear.',
      attention: 'Leaving some space unpartitioned would give the drive more room to work with.',
      bad: 'The drive is nearly full with no spare area; expect it to slow down and wear faster.',
      unknown: 'We could not tell how much spare area the drive has.',
    },
  },
  {
    id: 'cpu',
    title: 'Processor',
    keys: ['cpu', 'machine'],
    interpret: (raw) => (isObject(raw) ? interpretMachine(raw) : null),
    summaries: {
      good: 'The processor has AES instructions, so encryption costs little CPU.',
      attention: 'The processor lacks AES instructions or the kernel does not use them; encryption will cost CPU.',
      bad: 'The kernel uses a slow, unaccelerated AES driver; fix that first.',
      unknown: 'We could not tell whether the processor accelerates encryption.',
    },
  },
  {
    id: 'ciphers',
    title: 'Cipher speed',
    keys: ['cipherBenchmark', 'ciphers', 'cipherSpeeds', 'cipherSpeed', 'crypto'],
    interpret: (raw) => (isObject(raw) ? interpretCipherBenchmark(raw) : null),
    // Without --benchmark the assessment still carries the kernel AES finding (contract `findings`).
    fallback: (result) =>
      asArray(result.findings).length === 0 ? null : interpretCipherBenchmark({ cipherSpeed: { measurements: [], unmeasured: [] }, findings: result.findings }),
    summaries: {
      good: 'The ciphers run faster than the drive, so encryption will barely slow it down.',
      attention: 'The ciphers run at about the drive’s speed or slower; encryption will cost throughput.',
      bad: 'The ciphers are much slower than the drive; encryption will be the bottleneck.',
      unknown: 'Cipher speed was not measured.',
    },
  },
  {
    id: 'encryption',
    title: 'Existing encryption',
    keys: ['encryption'],
    interpret: (raw) => (isObject(raw) ? interpretEncryption(raw) : null),
    summaries: {
      good: 'No existing encryption was found.',
      attention: 'Existing encryption was found; see the details.',
      bad: 'Existing encryption was found; see the details.',
      unknown: 'We could not tell whether the disk already holds encrypted volumes.',
    },
  },
  {
    id: 'capabilities',
    title: 'What this machine can measure',
    keys: ['capabilities'],
    interpret: (raw) => (Array.isArray(raw) ? interpretCapabilities(raw) : null),
    summaries: {
      good: 'Everything encplan needs on this machine is available.',
      attention: 'Some features encplan uses are missing here.',
      bad: 'Some features encplan uses are missing here.',
      unknown: 'We could not tell what this machine supports.',
    },
  },
];

const SECTION_SKIP = new Set(['verdict', 'status', 'findings', 'issues', 'source', 'sources', 'summary', 'explanation', 'fix', 'tone', 'note', 'cryptoFlagsSource', 'dataWrittenBytesExact']);

function cipherRowsFacts(rows: unknown[]): FactView[] {
  return rows.flatMap((row): FactView[] => {
    if (!isObject(row)) {
      return [];
    }
    const name = asString(pick(row, ['cipher', 'algorithm', 'name'])) ?? 'cipher';
    const keyBits = asNumber(row.keyBits);
    const label = keyBits === null ? name : `${name} (${String(keyBits)}-bit key)`;
    const parts = (['encryptBytesPerSecond', 'decryptBytesPerSecond', 'bytesPerSecond'] as const).flatMap((key) => {
      const value = asNumber(row[key]);
      return value === null ? [] : [`${key.startsWith('encrypt') ? 'encrypt ' : key.startsWith('decrypt') ? 'decrypt ' : ''}${formatByFieldName(key, value)}`];
    });
    return parts.length === 0 ? [] : [{ label, value: parts.join(', '), source: describeSource(row.source) ?? asString(row.tool) }];
  });
}

function toSectionView(spec: SectionSpec, result: Json, warnings: readonly Warning[]): SectionView {
  const raw = pick(result, spec.keys);
  const evidence = SECTION_EVIDENCE[spec.id];
  const base = { id: spec.id, title: spec.title };
  if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
    const fallback = spec.fallback?.(result) ?? null;
    if (fallback !== null) {
      return { ...base, ...fallback, missingReason: null };
    }
    const reason =
      reasonFromWarnings(warnings, evidence.sources, evidence.codes) ?? missingCapabilityReason(result, SECTION_CAPABILITIES[spec.id]) ?? 'The assessment does not include this section yet.';
    return { ...base, tone: 'unknown', verdict: 'unknown', summary: spec.summaries.unknown, findings: [], facts: [], missingReason: reason };
  }
  const section: Json = Array.isArray(raw) ? { results: raw } : isObject(raw) ? raw : { value: raw };
  const verdict = asString(pick(section, ['verdict', 'status', 'state']));
  const source = describeSource(pick(section, ['source']));
  const rows = asArray(pick(section, ['results', 'rows', 'speeds']));
  const facts = [...scalarFacts(section, source, SECTION_SKIP), ...cipherRowsFacts(rows)];
  // A section without a verdict, or whose analysis could not decide, is read for what its facts say.
  const interpretation = spec.override?.(result) ?? (verdict === null || verdict === 'unknown' ? (spec.interpret?.(raw, result) ?? null) : null);
  if (interpretation !== null) {
    return {
      ...base,
      ...interpretation,
      findings: interpretation.replacesSectionDetails === true ? interpretation.findings : [...interpretation.findings, ...extraFindingsOf(section), ...(spec.extraFindings?.(result) ?? [])],
      facts: interpretation.replacesSectionDetails === true ? interpretation.facts : [...facts, ...interpretation.facts],
      missingReason: null,
    };
  }
  const tone = toneOf(verdict);
  const summary = asString(pick(section, ['summary', 'explanation'])) ?? (tone === 'info' ? (spec.summaries.info ?? spec.summaries.unknown) : spec.summaries[tone]);
  return { ...base, tone, verdict: verdict ?? 'unknown', summary, findings: [...findingsOf(section), ...(spec.extraFindings?.(result) ?? [])], facts, missingReason: null };
}

function toDeviceView(result: Json): DeviceView | null {
  const device = pick(result, ['device', 'disk']);
  if (!isObject(device)) {
    return null;
  }
  const sizeBytes = asNumber(device.sizeBytes);
  const rotational = device.rotational;
  const transport = asString(device.transport) ?? 'unknown';
  // The contract's `media` (sysfs, not the rotational flag of virtual disks) wins when present.
  const media = isObject(result.media) ? asString(result.media.kind) : null;
  const kind =
    transport === 'loop'
      ? 'loop device'
      : media === 'ssd'
        ? 'solid-state'
        : media === 'hdd'
          ? 'hard disk'
          : media === 'unknown'
            ? 'disk of unknown media'
            : rotational === true
              ? 'hard disk'
              : rotational === false
                ? 'solid-state'
                : 'unknown kind';
  const facts: FactView[] = [];
  const addFact = (label: string, value: string | null, origin: string): void => {
    if (value !== null) {
      facts.push({ label, value, source: origin });
    }
  };
  addFact('Media', isObject(result.media) ? asString(result.media.reason) : null, 'sysfs');
  addFact('Vendor', asString(device.vendor), 'lsblk: VENDOR');
  addFact('Firmware', asString(device.firmware), 'lsblk: REV');
  addFact('Partition table', asString(device.partitionTable), 'lsblk: PTTYPE');
  const logical = asNumber(device.logicalSectorBytes);
  const physical = asNumber(device.physicalSectorBytes);
  if (logical !== null && physical !== null) {
    addFact('Sector size (logical / physical)', `${String(logical)} B / ${String(physical)} B`, 'lsblk: LOG-SEC, PHY-SEC');
  }
  const mounts = asArray(device.mountpoints).filter((entry): entry is string => typeof entry === 'string');
  addFact('Mounted at', mounts.length === 0 ? 'nothing mounted' : mounts.join(', '), 'lsblk: MOUNTPOINTS');
  return {
    path: asString(device.path) ?? 'unknown device',
    model: asString(device.model) ?? (transport === 'loop' ? 'Loop device' : transport === 'virtio' ? 'Virtual disk' : 'Unknown model'),
    size: sizeBytes === null ? 'unknown size' : formatSizeBytes(sizeBytes),
    sizeBytes,
    transport,
    kind,
    isSystemDisk: device.isSystemDisk === true,
    facts,
  };
}

/** Names a benchmark target as plain or encrypted, whatever spelling the benchmark used. */
function seriesOf(run: Json): string {
  const target = asString(pick(run, ['target', 'backend', 'variant', 'layer']));
  if (target === null) {
    return run.encrypted === true ? 'encrypted' : 'plain';
  }
  return target;
}

function profileOf(run: Json): string {
  const profile = asString(pick(run, ['profile', 'id', 'name'])) ?? 'run';
  const operation = asString(pick(run, ['operation', 'rw', 'direction']));
  return operation === null || profile.toLowerCase().includes(operation) ? profile : `${profile} ${operation}`;
}

function rateOf(run: Json): number | null {
  return asNumber(pick(run, ['bytesPerSecond', 'medianBytesPerSecond', 'readBytesPerSecond', 'writeBytesPerSecond']));
}

function benchmarkRuns(result: Json): Json[] {
  const raw = pick(result, ['benchmarks', 'io', 'ioBenchmarks']);
  const runs = isObject(raw) ? asArray(pick(raw, ['runs', 'results'])) : asArray(raw);
  return runs.filter(isObject);
}

/**
 * Flattens an `encplan benchmark io` result (contract `ioBenchmark`: plain and encrypted targets, each with
 * per-profile run summaries) into the same run rows; skipped backends become rows without a rate.
 */
function ioBenchmarkRuns(result: Json): Json[] | null {
  const io = pick(result, ['ioBenchmark']);
  if (!isObject(io) || !isObject(io.plain)) {
    return null;
  }
  const targets = [io.plain, ...asArray(io.encrypted)].filter(isObject);
  const measured = targets.flatMap((target) =>
    asArray(target.profiles)
      .filter(isObject)
      .map((measurement): Json => {
        const profile = isObject(measurement.profile) ? measurement.profile : {};
        const summary = isObject(measurement.summary) ? measurement.summary : {};
        const spread = asNumber(summary.spreadPercent);
        const engine = `${asString(target.ioEngine) ?? 'fio'}${target.directIo === true ? ', O_DIRECT' : ''}`;
        return {
          profile: asString(profile.label) ?? asString(profile.id) ?? 'profile',
          operation: asString(profile.direction),
          target: asString(target.variant) ?? asString(target.backend) ?? 'target',
          bytesPerSecond: summary.medianBytesPerSecond,
          source: `fio (${engine}; median of ${String(asNumber(summary.runCount) ?? 0)} runs${spread === null ? '' : `, spread ${String(Math.round(spread))} %`})`,
        };
      }),
  );
  const skipped = asArray(io.skipped)
    .filter(isObject)
    .map((entry): Json => ({ profile: 'all profiles', target: asString(entry.variant) ?? asString(entry.backend) ?? 'backend', bytesPerSecond: null, source: `skipped: ${asString(entry.message) ?? ''}` }));
  return [...measured, ...skipped];
}

function toBenchmarks(result: Json): { rows: BenchmarkRowView[]; charts: ChartView[] } {
  const runs = ioBenchmarkRuns(result) ?? benchmarkRuns(result);
  const rows: BenchmarkRowView[] = [];
  const groups = new Map<string, Map<string, number | null>>();
  const series: string[] = [];
  const predictedSeries = 'predicted encrypted';
  for (const run of runs) {
    const profile = profileOf(run);
    const target = seriesOf(run);
    const rate = rateOf(run);
    const predicted = asNumber(run.predictedBytesPerSecond);
    rows.push({
      profile,
      target,
      measured: rate === null ? 'not measured' : formatByFieldName('bytesPerSecond', rate),
      predicted: predicted === null ? null : formatByFieldName('bytesPerSecond', predicted),
      source: describeSource(run.source) ?? asString(run.tool),
    });
    if (rate === null && predicted === null) {
      continue;
    }
    const group = groups.get(profile) ?? new Map<string, number | null>();
    groups.set(profile, group);
    if (!series.includes(target)) {
      series.push(target);
    }
    group.set(target, rate === null ? null : toMebibytesPerSecond(rate));
    if (predicted !== null) {
      if (!series.includes(predictedSeries)) {
        series.push(predictedSeries);
      }
      group.set(predictedSeries, toMebibytesPerSecond(predicted));
    }
  }
  if (groups.size === 0) {
    return { rows, charts: [] };
  }
  const chart: ChartView = {
    title: 'Throughput per profile: plain vs encrypted',
    unit: 'MiB/s',
    series,
    groups: [...groups.entries()].map(([label, values]) => ({
      label,
      bars: series.map((name) => ({ series: name, valueMebibytesPerSecond: values.get(name) ?? null })),
    })),
  };
  return { rows, charts: [chart] };
}

function evidenceOf(entry: Json): FactView[] {
  return asArray(entry.evidence).flatMap((item): FactView[] => {
    if (typeof item === 'string') {
      return [{ label: 'Evidence', value: item, source: null }];
    }
    if (!isObject(item)) {
      return [];
    }
    const label = asString(pick(item, ['label', 'fact', 'name', 'field'])) ?? 'Evidence';
    const rawValue = pick(item, ['value', 'display']);
    const number = asNumber(rawValue);
    const value =
      number !== null
        ? formatByFieldName(label, number)
        : typeof rawValue === 'string' || typeof rawValue === 'boolean'
          ? String(rawValue)
          : rawValue === undefined
            ? ''
            : JSON.stringify(rawValue);
    return [{ label: labelFromFieldName(label), value, source: describeSource(item.source) }];
  });
}

function toRecommendations(plan: Json): RecommendationView[] {
  return asArray(pick(plan, ['recommendations', 'items'])).filter(isObject).map((entry) => {
    const ruleId = asString(pick(entry, ['ruleId', 'rule', 'id'])) ?? 'rule';
    const rawValue = entry.value;
    const value = typeof rawValue === 'string' ? rawValue : rawValue === undefined || rawValue === null ? '' : JSON.stringify(rawValue);
    const severity = asString(pick(entry, ['severity', 'priority']));
    return {
      ruleId,
      title: asString(pick(entry, ['title', 'summary'])) ?? labelFromFieldName(ruleId.replaceAll('-', ' ')),
      value,
      reason: asString(pick(entry, ['reason', 'detail'])) ?? '',
      confidence: asString(entry.confidence),
      tone: severity === 'blocker' || severity === 'critical' ? 'bad' : severity === 'warning' ? 'attention' : 'good',
      evidence: evidenceOf(entry),
    };
  });
}

/** Quotes one argument for a POSIX shell script (single quotes; embedded ones closed and escaped). */
export function quoteShellArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", `'"'"'`)}'`;
}

function toCommands(plan: Json): CommandView[] {
  return asArray(plan.commands).flatMap((entry): CommandView[] => {
    const argv = isObject(entry) ? asArray(entry.argv) : Array.isArray(entry) ? entry : [];
    const words = argv.filter((word): word is string => typeof word === 'string');
    if (words.length === 0) {
      return [];
    }
    const description = isObject(entry) ? (asString(pick(entry, ['description', 'summary', 'why'])) ?? '') : '';
    return [{ description, argv: words, line: words.map(quoteShellArgument).join(' '), destructive: isObject(entry) && entry.destructive === true }];
  });
}

function warningsOf(envelope: Json): Warning[] {
  return asArray(envelope.warnings).filter(isObject).map((warning) => ({
    code: (asString(warning.code) ?? 'DATA_INCONSISTENT') as Warning['code'],
    message: asString(warning.message) ?? '',
    source: asString(warning.source),
  }));
}

/**
 * Turns an assessment envelope (`encplan assess --json`) into what the wizard and the HTML report show.
 * Pure and tolerant: a section the result lacks becomes "unknown" with the reason from the warnings, and
 * an error envelope gives a view with `error` set and nothing else. Never throws on unexpected shapes.
 */
export function toReportView(envelope: unknown): ReportView {
  const root: Json = isObject(envelope) ? envelope : {};
  const warnings = warningsOf(root);
  const result: Json = isObject(root.result) ? root.result : {};
  const status = root.status === 'ok' || root.status === 'partial' ? root.status : 'error';
  const errorBody = isObject(root.error) ? root.error : null;
  const error =
    errorBody === null
      ? status === 'error'
        ? { code: 'INTERNAL_ERROR', message: 'The assessment did not produce a result.', hint: null }
        : null
      : { code: asString(errorBody.code) ?? 'INTERNAL_ERROR', message: asString(errorBody.message) ?? '', hint: asString(errorBody.hint) };
  const device = toDeviceView(result);
  const { rows, charts } = toBenchmarks(result);
  const plan = pick(result, ['plan', 'recommendation']);
  const planObject: Json = isObject(plan) ? plan : {};
  const recommendations = toRecommendations(planObject);
  return {
    title: device === null ? 'encplan assessment' : `encplan assessment of ${device.path} (${device.model})`,
    status,
    generatedAt: asString(root.generatedAt) ?? '',
    toolVersion: asString(pick(root, ['toolVersion', 'encplanVersion'])) ?? 'unknown',
    device,
    sections: SECTION_SPECS.map((spec) => toSectionView(spec, result, warnings)),
    benchmarkRows: rows,
    charts,
    benchmarkMissingReason:
      rows.length > 0 ? null : (reasonFromWarnings(warnings, ['fio'], []) ?? 'No I/O benchmark was run in this assessment.'),
    recommendations,
    commands: toCommands(planObject),
    planMissingReason: recommendations.length > 0 ? null : 'No plan in this assessment.',
    warnings,
    error,
  };
}

/** The commands of a view as a POSIX shell script, destructive ones commented out with a warning. */
export function renderCommandsScript(view: ReportView): string {
  const lines = ['#!/bin/sh', `# ${view.title}`, `# Generated by encplan ${view.toolVersion} at ${view.generatedAt}. Read before running.`, 'set -eu', ''];
  for (const command of view.commands) {
    if (command.description !== '') {
      lines.push(`# ${command.description.replaceAll('\n', ' ')}`);
    }
    lines.push(command.destructive ? `# DESTROYS DATA; remove the leading '# ' only when you are sure:\n# ${command.line}` : command.line, '');
  }
  if (view.commands.length === 0) {
    lines.push('# The plan has no commands to run.');
  }
  return `${lines.join('\n')}\n`;
}
