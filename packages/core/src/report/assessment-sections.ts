import { opensslRefusal } from '../rules/cipher-speed.js';
import { osOf } from '../rules/facts.js';
import { linuxResultOf, type AssessmentResult, type LinuxAssessmentResult } from '../contract/assessment.js';
import type { CipherBenchmark, KernelCipherFinding, KernelCryptoFacts } from '../domain/cipher.js';
import type { Health } from '../domain/health.js';
import type { Plan } from '../plan/plan.js';
import type { Warning } from '../domain/warning.js';
import { machineFactOrigin } from '../domain/cpu.js';
import { formatBytes, formatBytesExact, formatPercent, formatRate } from '../domain/units.js';
import { formatScalar, UNKNOWN } from './labels.js';
import { groupRuns, spanOf } from './large-layouts.js';
import { mitigationsContext, MITIGATIONS_SOURCE } from './mitigations.js';
import { PROFILE_LABELS } from './report-charts.js';
import { recogniseLuks2Segment, targetOf } from '../targets/registry.js';

/** How a verdict should look: good (green), attention (amber), bad (red), unknown (grey), info (facts, no verdict). */
export type Tone = 'good' | 'attention' | 'bad' | 'unknown' | 'info';

/** One fact, already formatted ("unknown" when the assessment does not know it), with where it came from. */
export interface FactView {
  readonly label: string;
  readonly value: string;
  readonly source: string | null;
}

/** A finding in one sentence, with its source. */
export interface FindingView {
  readonly tone: Tone;
  readonly message: string;
  readonly source: string | null;
}

/** The identifier of a section of the report. */
export type SectionId =
  'health' | 'trim' | 'space' | 'sed' | 'cpu' | 'ciphers' | 'encryption' | 'capabilities';

/** One section: a verdict in plain language and the details behind it. */
export interface SectionView {
  readonly id: SectionId;
  readonly title: string;
  readonly tone: Tone;
  /** The verdict as people read it ("healthy", "supported", "unknown", …). */
  readonly verdict: string;
  readonly summary: string;
  readonly findings: readonly FindingView[];
  readonly facts: readonly FactView[];
  /** Why the section has no data (from the warnings), or null when it was measured. */
  readonly missingReason: string | null;
}

export const fact = (label: string, value: string | null, source: string | null = null): FactView => ({
  label,
  value: value ?? UNKNOWN,
  source,
});
const orUnknown = <T>(value: T | null, format: (value: T) => string): string =>
  value === null ? UNKNOWN : format(value);
export const yesNo = (value: boolean | null): string => formatScalar(value, 'text');

export function warningsFrom(warnings: readonly Warning[], origins: readonly string[]): string | null {
  const related = warnings.filter(
    (warning) => warning.source !== null && origins.some((origin) => warning.source?.startsWith(origin)),
  );
  return related.length === 0 ? null : related.map((warning) => warning.message).join(' ');
}

const HEALTH_TONE = { healthy: 'good', warning: 'attention', failing: 'bad', unknown: 'unknown' } as const;
const HEALTH_SUMMARY = {
  healthy: 'The drive reports no problems. Encrypting it is safe from a health point of view.',
  warning: 'The drive shows signs of wear or errors. Back up before you encrypt and keep an eye on it.',
  failing: 'The drive is failing. Back up and replace it before encrypting anything on it.',
  unknown: 'The drive did not tell us how healthy it is.',
} as const;

/** The health section from a health result: `encplan health` shows it alone, `assess` among the others. */
export function healthSection(health: Health, warnings: readonly Warning[]): SectionView {
  const source = health.source === 'none' ? null : health.source;
  return {
    id: 'health',
    title: 'Drive health',
    tone: HEALTH_TONE[health.verdict],
    verdict: health.verdict,
    summary: HEALTH_SUMMARY[health.verdict],
    findings: [
      ...(health.unavailable === null
        ? []
        : [{ tone: 'unknown' as const, message: health.unavailable.detail, source }]),
      ...health.findings.map((finding): FindingView => ({
        tone: finding.severity === 'failing' ? 'bad' : finding.severity === 'warning' ? 'attention' : 'info',
        message: finding.message,
        source: `${health.source}: ${finding.source.field ?? finding.attribute}${finding.threshold === null ? '' : `; rule ${finding.threshold}`}${finding.thresholdSource === null ? '' : ` (${finding.thresholdSource})`}`,
      })),
    ],
    facts: [
      fact(
        'SMART overall self-assessment',
        health.selfAssessmentPassed === null ? null : health.selfAssessmentPassed ? 'passed' : 'failed',
        source,
      ),
      fact('Endurance used', orUnknown(health.percentageUsed, formatPercent), source),
      ...((health.wearSignals ?? []).length > 1
        ? [
            fact(
              'Wear signals',
              (health.wearSignals ?? [])
                .map((signal) => `${signal.signal} ${formatPercent(signal.percentUsed)}`)
                .join('; '),
              source,
            ),
          ]
        : []),
      fact(
        'Available spare',
        orUnknown(
          health.availableSparePercent,
          (percent) =>
            `${formatPercent(percent)}${health.availableSpareThresholdPercent === null ? '' : ` (threshold ${formatPercent(health.availableSpareThresholdPercent)})`}`,
        ),
        source,
      ),
      fact(
        'Power-on time',
        orUnknown(health.powerOnHours, (hours) => `${String(hours)} hours`),
        source,
      ),
      fact(
        'Temperature',
        orUnknown(health.temperatureCelsius, (celsius) => `${String(celsius)} °C`),
        source,
      ),
      fact('Unsafe shutdowns', orUnknown(health.unsafeShutdowns, String), source),
      fact(
        'Data written',
        orUnknown(health.dataWrittenBytes, (bytes) => {
          const unit = health.dataWrittenUnit ?? null;
          return unit === null
            ? formatBytes(bytes)
            : `${formatBytes(bytes)} (${unit.attribute}: ${unit.raw} ${unit.unit})`;
        }),
        source,
      ),
      fact(
        'Writes per day',
        orUnknown(health.writeBytesPerDay, (bytes) => `${formatBytes(bytes)} per day`),
        source,
      ),
      fact(
        'Estimated remaining life',
        orUnknown(health.estimatedRemainingLifeYears, (years) => `${years.toFixed(1)} years`),
        source,
      ),
    ],
    // The unavailable detail is already a finding; otherwise the warnings say why.
    missingReason:
      health.verdict === 'unknown' && health.unavailable === null
        ? warningsFrom(warnings, ['smartctl', 'nvme'])
        : null,
  };
}

const TRIM_STATUS = {
  supported: {
    tone: 'good',
    summary: 'The drive can learn which blocks are free, so it stays fast and wears evenly after encryption.',
  },
  'not-supported': {
    tone: 'attention',
    summary: 'The drive does not support TRIM: it will treat every block as in use.',
  },
  'blocked-by-bridge': { tone: 'attention', summary: 'The USB bridge does not pass TRIM to the drive.' },
  'blocked-by-kernel': { tone: 'attention', summary: 'The kernel does not send discards to this drive.' },
  unknown: { tone: 'unknown', summary: 'We could not tell whether TRIM reaches the drive.' },
} as const;

/**
 * The TRIM badge, only as known as the facts under it (issue 24: no green "supported" over "Drive supports
 * TRIM: no"): the kernel sending discards says nothing of what the drive does with them, so "supported" is
 * green only when the drive itself says it supports TRIM.
 */
function trimBadge(trim: LinuxAssessmentResult['trim']): {
  readonly tone: (typeof TRIM_STATUS)[keyof typeof TRIM_STATUS]['tone'];
  readonly verdict: string;
  readonly summary: string;
} {
  if (trim.status !== 'supported' || trim.deviceSupportsTrim === true) {
    return { ...TRIM_STATUS[trim.status], verdict: trim.status };
  }
  return trim.deviceSupportsTrim === false
    ? {
        tone: 'attention',
        verdict: 'kernel sends discards',
        summary:
          'The kernel sends discards, but the drive says it does not support TRIM (a virtual or bridged disk may still pass them on): whether it frees the blocks is unknown.',
      }
    : {
        tone: 'unknown',
        verdict: 'kernel sends discards',
        summary: 'The kernel sends discards; whether the drive itself supports TRIM is unknown.',
      };
}

function trimSection(result: LinuxAssessmentResult): SectionView {
  const { trim, discardPassthrough } = result;
  const status = trimBadge(trim);
  const source = 'sysfs: queue/discard_max_bytes, dm table';
  // Many paths that all reach the drive (128 partitions) become one line per run (large-layouts.ts).
  const paths = groupRuns(
    discardPassthrough.paths,
    (path) => (path.discardsReachDrive === true && path.leaks.length === 0 ? 'reaches' : null),
    (path): FindingView[] => [
      path.discardsReachDrive === true
        ? { tone: 'good', message: `Discards from ${path.topPath} reach the drive.`, source }
        : {
            tone: path.discardsReachDrive === false ? 'attention' : 'unknown',
            message: `Discards from ${path.topPath} ${path.firstBlockingLayer === null ? 'may not reach the drive' : `stop at ${path.firstBlockingLayer}`}.${path.fix === null ? '' : ` Fix: ${path.fix}`}`,
            source,
          },
      ...path.leaks.map((leak): FindingView => ({
        tone: 'info',
        message: `Passing discards through encryption reveals: ${leak}`,
        source: null,
      })),
    ],
    (run): FindingView[] => [
      {
        tone: 'good',
        message: `Discards from ${String(run.length)} paths (${spanOf(run.map((path) => path.topPath))}) reach the drive.`,
        source,
      },
    ],
  ).flat();
  return {
    id: 'trim',
    title: 'TRIM and discards',
    tone: status.tone,
    verdict: status.verdict,
    summary: status.summary,
    findings: [
      { tone: 'info', message: trim.explanation, source: null },
      ...(trim.fix === null
        ? []
        : [{ tone: 'info' as const, message: `To change this: ${trim.fix}`, source: null }]),
      ...paths,
    ],
    facts: [
      fact('Drive supports TRIM', yesNo(trim.deviceSupportsTrim)),
      fact('TRIM mechanism', trim.mechanism === 'unknown' ? null : trim.mechanism),
      fact('Reads are deterministic after TRIM', yesNo(trim.deterministicReadAfterTrim)),
      fact('Trimmed blocks read back as zeroes', yesNo(trim.readsZeroesAfterTrim)),
      fact(
        'Largest discard the kernel sends',
        trim.kernelDiscardMaxBytes === null
          ? null
          : trim.kernelDiscardMaxBytes === 0
            ? 'none (no discards)'
            : formatBytes(trim.kernelDiscardMaxBytes),
        'sysfs: queue/discard_max_bytes',
      ),
      fact(
        'Discard granularity',
        orUnknown(trim.kernelDiscardGranularityBytes, formatBytes),
        'sysfs: queue/discard_granularity',
      ),
    ],
    missingReason: null,
  };
}

const SPARE_TONE = {
  'not-applicable': 'info',
  none: 'attention',
  low: 'attention',
  adequate: 'good',
  generous: 'good',
  unknown: 'unknown',
} as const;
const COUNTS_AS_SPARE = { yes: 'yes', 'only-if-trimmed': 'only once it has been trimmed', no: 'no' } as const;

function spaceSection(result: LinuxAssessmentResult): SectionView {
  const { space, overProvisioning, disk, stack } = result;
  const source = 'sfdisk / lsblk: partition layout';
  // A disk without a partition table that is itself mounted has no never-allocated space; advice to discard
  // "unallocated" space there would erase the filesystem.
  if (disk.partitionTable === 'none' && stack.mountpoints.length > 0) {
    return {
      id: 'space',
      title: 'Space and spare area',
      tone: 'info',
      verdict: 'used whole',
      summary: `The disk has no partition table and is used whole (mounted at ${stack.mountpoints.join(', ')}): there is no unpartitioned spare area.`,
      findings: [],
      facts: [fact('Disk size', formatBytesExact(space.diskSizeBytes), 'lsblk: SIZE')],
      missingReason: null,
    };
  }
  return {
    id: 'space',
    title: 'Space and spare area',
    tone: SPARE_TONE[overProvisioning.status],
    verdict: overProvisioning.status.replaceAll('-', ' '),
    summary: `${formatBytes(space.unallocatedBytes)} (${formatPercent(space.unallocatedPercent)}) of the disk is in no partition.`,
    findings: [
      ...space.regions.map((region): FindingView => ({
        tone: 'info',
        message: `${formatBytes(region.sizeBytes)} never allocated (${region.location}), starting at byte ${String(region.startBytes)}.`,
        source,
      })),
      ...overProvisioning.advice.map((advice): FindingView => ({
        tone: 'info',
        message: advice,
        source: null,
      })),
    ],
    facts: [
      fact('Disk size', formatBytesExact(space.diskSizeBytes), 'lsblk: SIZE'),
      fact('Space in no partition', formatBytesExact(space.unallocatedBytes), source),
      fact('Counts as spare area', COUNTS_AS_SPARE[overProvisioning.unallocatedCountsAsSpare]),
      fact('Effective spare area', formatBytes(overProvisioning.effectiveSpareBytes)),
      fact('Factory spare area', orUnknown(overProvisioning.factorySpareBytes, formatBytes)),
      fact(
        'Worst-case write amplification',
        orUnknown(overProvisioning.worstCaseWriteAmplification, (value) => value.toFixed(2)),
      ),
      ...overProvisioning.filesystems.map((filesystem) =>
        fact(
          `Filesystem at ${filesystem.mountpoint}`,
          `${formatBytes(filesystem.usedBytes)} of ${formatBytes(filesystem.sizeBytes)} used (${formatPercent(filesystem.usedPercent)})`,
          'statfs',
        ),
      ),
    ],
    missingReason: null,
  };
}

const SED_TONE = {
  opal: 'good',
  enterprise: 'good',
  'pyrite-only': 'info',
  possible: 'unknown',
  'not-sed': 'info',
  unknown: 'unknown',
} as const;

function sedSection(result: LinuxAssessmentResult): SectionView {
  const { sed } = result;
  return {
    id: 'sed',
    title: 'Self-encrypting drive',
    tone: SED_TONE[sed.status],
    verdict: sed.status.replaceAll('-', ' '),
    summary: sed.explanation,
    findings: [],
    facts: [
      fact('TCG Opal 2', yesNo(sed.opal2)),
      fact('TCG Enterprise', yesNo(sed.enterprise)),
      fact('TCG Pyrite (no encryption)', yesNo(sed.pyrite)),
      ...opalLockingFacts(sed.opalLocking),
    ],
    missingReason: null,
  };
}

/**
 * The drive's TCG locking state as `sedutil-cli --query` read it (Locking feature 0x0002, Single User Mode
 * 0x0201: TCG Storage Opal SSC), so the report shows the OPAL locking ranges it found, not only the JSON.
 * Nothing for a document written before the field (assessment 1.3 and earlier); the reason when unread.
 */
function opalLockingFacts(locking: LinuxAssessmentResult['sed']['opalLocking']): FactView[] {
  if (locking === undefined) {
    return [];
  }
  const source = 'sedutil-cli --query';
  if (locking.unknownReason !== null) {
    return [fact('OPAL locking (Locking SP)', `${UNKNOWN}: ${locking.unknownReason}`, source)];
  }
  const shadow = locking.mbrShadowing;
  const shadowState =
    shadow.enabled === null
      ? shadow.supported === false
        ? 'not supported'
        : null
      : shadow.enabled
        ? `on${shadow.done === null ? '' : shadow.done ? ' (shadow hidden)' : ' (shadow shown)'}`
        : 'off';
  return [
    fact(
      'OPAL locking (Locking SP)',
      locking.enabled === null
        ? null
        : locking.enabled
          ? 'activated: locking ranges in use'
          : 'not activated',
      source,
    ),
    fact(
      'Locking ranges besides the global range',
      locking.rangesBesidesGlobal === null ? null : String(locking.rangesBesidesGlobal),
      source,
    ),
    fact('A locking range is locked now', yesNo(locking.locked), source),
    fact('Drive encrypts its media (MediaEncrypt)', yesNo(locking.mediaEncrypt), source),
    fact('MBR shadowing (pre-boot image)', shadowState, source),
  ];
}

/** The kernel's crypto findings: an unaccelerated AES driver although the CPU has AES instructions. */
export function kernelCryptoFindings(findings: readonly KernelCipherFinding[]): FindingView[] {
  return findings.map((finding): FindingView => ({
    tone: 'attention',
    message: `${finding.message} ${finding.hint}`,
    source: '/proc/crypto',
  }));
}

/** Which AES-XTS driver dm-crypt would use, and whether the kernel has Adiantum (/proc/crypto). */
export function kernelCryptoFactViews(kernelCrypto: KernelCryptoFacts | null): FactView[] {
  const xtsAes = kernelCrypto?.xtsAes ?? null;
  return [
    fact(
      'Kernel AES-XTS driver',
      kernelCrypto === null || xtsAes === null
        ? null
        : `${xtsAes.driver} (${kernelCrypto.xtsAesImplementation ?? UNKNOWN}${xtsAes.inferred ? ', inferred' : ''}, priority ${String(xtsAes.priority)})`,
      '/proc/crypto',
    ),
    fact('Kernel has Adiantum', kernelCrypto === null ? null : kernelCrypto.adiantum, '/proc/crypto'),
  ];
}

function cpuSection(result: AssessmentResult, warnings: readonly Warning[]): SectionView {
  const { machine, kernelCrypto, findings } = result;
  const kernelFindings = kernelCryptoFindings(findings);
  const kernelFacts = kernelCryptoFactViews(kernelCrypto);
  if (machine === null) {
    return {
      id: 'cpu',
      title: 'Processor',
      tone: kernelFindings.length > 0 ? 'attention' : 'unknown',
      verdict: 'unknown',
      summary: 'We could not tell whether the processor accelerates encryption.',
      findings: kernelFindings,
      facts: kernelFacts,
      missingReason:
        warningsFrom(warnings, ['systeminformation', '/proc/cpuinfo']) ??
        'The machine was not read in this assessment.',
    };
  }
  const aes = machine.cryptoFlags.aes;
  const flagSource = machine.cryptoFlagsSource;
  return {
    id: 'cpu',
    title: 'Processor',
    tone: kernelFindings.length > 0 ? 'bad' : aes ? 'good' : 'attention',
    verdict:
      kernelFindings.length > 0
        ? 'kernel AES unaccelerated'
        : aes
          ? 'AES instructions'
          : 'no AES instructions',
    summary:
      kernelFindings.length > 0
        ? 'The kernel would encrypt with a slow, unaccelerated AES driver although the CPU has AES instructions: fix that first.'
        : aes
          ? 'The processor has AES instructions, so AES-XTS encryption costs little CPU (if the kernel uses them).'
          : 'The processor has no AES instructions: AES encryption will cost CPU; Adiantum is the usual alternative.',
    findings: kernelFindings,
    facts: [
      fact(
        'Processor',
        `${machine.cpuModel} (${machine.architecture})`,
        machineFactOrigin(machine, '/proc/cpuinfo'),
      ),
      fact(
        'Cores',
        `${String(machine.physicalCores)} cores, ${String(machine.logicalCores)} threads`,
        machineFactOrigin(machine, '/proc/cpuinfo'),
      ),
      fact('AES instructions (AES-NI)', yesNo(aes), flagSource),
      fact('Vector AES (VAES)', yesNo(machine.cryptoFlags.vaes), flagSource),
      fact('Carry-less multiply (PCLMULQDQ)', yesNo(machine.cryptoFlags.carrylessMultiply), flagSource),
      fact('AVX2', yesNo(machine.cryptoFlags.avx2), flagSource),
      fact('AVX-512', yesNo(machine.cryptoFlags.avx512), flagSource),
      fact('Memory', formatBytes(machine.memoryTotalBytes), machineFactOrigin(machine, '/proc/meminfo')),
      fact(
        'Operating system',
        `${machine.os.distro} ${machine.os.release}, kernel ${machine.os.kernel}`,
        machineFactOrigin(machine, '/etc/os-release'),
      ),
      fact('CPU-vulnerability mitigations', mitigationsContext(machine), MITIGATIONS_SOURCE),
      ...kernelFacts,
    ],
    missingReason: null,
  };
}

/**
 * The cipher and key-derivation speeds: `encplan benchmark ciphers` shows this section, `assess` too. Without a
 * benchmark, `notMeasured` says why when it is not a missing --benchmark (a platform that does not run it).
 */
export function ciphersSection(
  benchmark: CipherBenchmark | null,
  /** Why nothing was measured (`reason`), or, with a `verdict` and no reason, what was measured instead. */
  notMeasured: {
    readonly summary: string;
    readonly reason: string | null;
    readonly verdict?: string;
  } | null = null,
  /** The mitigations in effect while measuring (mitigationsContext), stated with the measured speeds. */
  measuredWith: string | null = null,
  /** The plan's cipher evidence and why OpenSSL's AES is refused, if it is (`assess` on Linux). */
  usable: { readonly evidence: Plan['cipherEvidence']; readonly opensslRefusal: string | null } | null = null,
): SectionView {
  if (benchmark === null) {
    const instead = notMeasured?.verdict ?? null;
    return {
      id: 'ciphers',
      title: 'Cipher speed',
      tone: instead === null ? 'unknown' : 'info',
      verdict: instead ?? 'not measured',
      summary: notMeasured?.summary ?? 'Cipher speed was not measured (run the assessment with --benchmark).',
      findings: [],
      facts: [],
      // On Linux --benchmark always measures the ciphers (assess.ts), so a missing one means no --benchmark.
      missingReason:
        notMeasured === null
          ? 'The assessment ran without --benchmark.'
          : (notMeasured.reason ?? (instead === null ? 'The assessment ran without --benchmark.' : null)),
    };
  }
  const { cipherSpeed, kdfSpeed } = benchmark;
  const rate = (value: number | null): string => orUnknown(value, formatRate);
  const slower = cipherSpeed.measurements.filter(
    (row) =>
      row.allCoresEncryptBytesPerSecond !== null &&
      row.encryptBytesPerSecond !== null &&
      row.allCoresEncryptBytesPerSecond < row.encryptBytesPerSecond,
  );
  const measured = cipherSpeed.measurements.length > 0;
  // A speed was measured, but none the backend would get (OpenSSL refused with a generic kernel driver): the
  // badge says so instead of a plain "measured" beside a plan that predicts nothing from it (issue 24 item 5).
  const aes = cipherSpeed.measurements.filter((row) => row.cipher.startsWith('aes'));
  const refused =
    usable !== null &&
    usable.opensslRefusal !== null &&
    aes.length > 0 &&
    aes.every((row) => row.source === 'openssl');
  const unusable = measured && usable !== null && (usable.evidence?.rank === null || refused);
  const instead =
    usable?.evidence?.rank === null || usable?.evidence?.rank === undefined
      ? ''
      : ` The plan uses ${usable.evidence.source ?? 'another measurement'} instead.`;
  return {
    id: 'ciphers',
    title: 'Cipher speed',
    tone: unusable ? 'attention' : measured ? 'info' : 'unknown',
    verdict: unusable
      ? 'not what encryption here gets'
      : measured
        ? usable?.evidence?.upperBound === true
          ? 'measured, an upper bound'
          : 'measured'
        : 'unknown',
    summary: unusable
      ? `Cipher speeds measured on this machine, but none is the speed the plan's encryption would get: ${refused ? (usable.opensslRefusal ?? '') : (usable.evidence?.note ?? '')}${instead}`
      : measured
        ? 'Cipher speeds measured on this machine; compare them with the drive’s speed.'
        : 'Cipher speed was not measured.',
    findings: [
      ...(measuredWith === null || cipherSpeed.measurements.length === 0
        ? []
        : [{ tone: 'info' as const, message: measuredWith, source: MITIGATIONS_SOURCE }]),
      ...(slower.length === 0
        ? []
        : [
            {
              tone: 'attention' as const,
              message: `All cores measured slower than one core for ${slower.map((row) => `${row.cipher} ${String(row.keyBits)}-bit`).join(', ')}: the CPUs are shared or throttled (a busy host or VM).`,
              source: 'openssl speed -multi',
            },
          ]),
      ...cipherSpeed.unmeasured.map((row): FindingView => ({
        tone: 'unknown',
        message: `${row.cipher}${row.keyBits === null ? '' : `, ${String(row.keyBits)}-bit key`} not measured: ${row.reason}`,
        source: row.source,
      })),
      ...kdfSpeed.unmeasured.map((row): FindingView => ({
        tone: 'unknown',
        message: `PBKDF2-${row.hash} not measured: ${row.reason}`,
        source: 'cryptsetup',
      })),
    ],
    facts: [
      ...cipherSpeed.measurements.map((row) =>
        fact(
          `${row.cipher}, ${String(row.keyBits)}-bit key`,
          `one core: encrypt ${rate(row.encryptBytesPerSecond)}, decrypt ${rate(row.decryptBytesPerSecond)}${row.allCoresEncryptBytesPerSecond === null && row.allCoresDecryptBytesPerSecond === null ? '' : `; ${row.allCoresThreads === null ? 'all cores' : `${String(row.allCoresThreads)} threads`}: encrypt ${rate(row.allCoresEncryptBytesPerSecond)}, decrypt ${rate(row.allCoresDecryptBytesPerSecond)}`}`,
          row.source,
        ),
      ),
      ...kdfSpeed.pbkdf2.map((row) =>
        fact(
          `PBKDF2-${row.hash}${row.derivedKeyBits === null ? '' : `, ${String(row.derivedKeyBits)}-bit key`}`,
          `${row.iterationsPerSecond.toLocaleString('en-US')} iterations per second`,
          'cryptsetup benchmark',
        ),
      ),
      ...kdfSpeed.argon2.map((row) =>
        fact(
          row.variant,
          `${String(row.timeCost)} passes over ${formatBytes(row.memoryKibibytes * 1024)} with ${String(row.threads)} threads in ${String(row.requestedDurationMs)} ms`,
          'cryptsetup benchmark',
        ),
      ),
    ],
    missingReason: null,
  };
}

/**
 * The "Existing encryption" section around its findings (Linux here, macOS/Windows in storage-sections.ts).
 * `unknownReason` (no tool answered) keeps an empty reading unknown: never "none found".
 */
export function existingEncryptionSection(
  count: number,
  findings: readonly FindingView[],
  facts: readonly FactView[],
  noneSummary: string,
  unknownReason: string | null = null,
): SectionView {
  if (count === 0 && unknownReason !== null) {
    return {
      id: 'encryption',
      title: 'Existing encryption',
      tone: 'unknown',
      verdict: 'unknown',
      summary: 'Whether this disk already holds encrypted volumes is unknown: it was not read.',
      findings,
      facts,
      missingReason: unknownReason,
    };
  }
  return {
    id: 'encryption',
    title: 'Existing encryption',
    tone: 'info',
    verdict: count === 0 ? 'none found' : 'found',
    summary:
      count === 0
        ? noneSummary
        : `This disk already holds ${String(count)} encrypted volume${count === 1 ? '' : 's'}.`,
    findings,
    facts,
    missingReason: null,
  };
}

type FoundEncryption = LinuxAssessmentResult['encryption']['found'][number];

/**
 * A header found on the disk: its format, cipher, key and keyslots; a LUKS2 header made with cryptsetup --hw-opal or
 * --hw-opal-only is named for what encrypts it (its target's label: "LUKS2 + OPAL", "OPAL only (hardware)") with
 * its locking range, and says what that means, as a warning when only the drive's firmware protects the data.
 */
function foundEncryptionFindings(entry: FoundEncryption): FindingView[] {
  const recognised = recogniseLuks2Segment(entry.opal?.segmentType);
  const segment = recognised?.segment ?? null;
  const opal = entry.opal;
  const cipher =
    segment !== null && !segment.softwareEncryption
      ? 'no software cipher'
      : (entry.cipher ?? 'cipher unknown');
  const parts = [
    cipher,
    entry.keyBits === null ? null : `${String(entry.keyBits)}-bit key`,
    opal === undefined
      ? null
      : `OPAL locking range ${opal.lockingRange === null ? UNKNOWN : String(opal.lockingRange)}${opal.keyBits === null ? '' : ` (${String(opal.keyBits)}-bit OPAL key)`}`,
    entry.pbkdf.length === 0 ? null : `key slots: ${entry.pbkdf.map((slot) => slot.type).join(', ')}`,
  ];
  const name =
    recognised === null
      ? entry.format.toUpperCase()
      : (segment?.label ?? `${entry.format.toUpperCase()} on OPAL (data segment not read)`);
  return [
    {
      tone: 'info',
      message: `${name} on ${entry.path} (${parts.filter((part) => part !== null).join(', ')}).`,
      source: entry.source,
    },
    ...(segment === null
      ? []
      : [
          {
            tone: segment.softwareEncryption ? ('info' as const) : ('attention' as const),
            message: segment.note,
            source: entry.source,
          },
        ]),
  ];
}

function encryptionSection(result: LinuxAssessmentResult): SectionView {
  const { found, note } = result.encryption;
  return existingEncryptionSection(
    found.length,
    [...found.flatMap(foundEncryptionFindings), { tone: 'unknown', message: note, source: null }],
    [],
    'No existing encryption was found on this disk.',
  );
}

function platformName(platform: 'darwin' | 'win32'): string {
  return platform === 'darwin' ? 'macOS' : 'Windows';
}

/**
 * The encrypted run a macOS or Windows plan took its cost from (cipher evidence rank 1): the first profile and
 * direction, reads first, with both a plain and an encrypted measurement; null when the plan paired none.
 */
function measuredEncryptedRun(
  plan: Plan | null,
): { readonly profile: string; readonly plain: number; readonly encrypted: number } | null {
  if (plan === null || plan.cipherEvidence?.kind !== 'measured-run') {
    return null;
  }
  const pairs = (['read', 'write'] as const).flatMap((direction) =>
    plan.predictedPerformance.flatMap((row) => {
      const plain = direction === 'read' ? row.plainReadBytesPerSecond : row.plainWriteBytesPerSecond;
      const encrypted =
        direction === 'read' ? row.measuredReadBytesPerSecond : row.measuredWriteBytesPerSecond;
      return plain === null || encrypted === null || plain <= 0
        ? []
        : [{ profile: `${PROFILE_LABELS[row.profile] ?? row.profile} ${direction}`, plain, encrypted }];
    }),
  );
  return pairs[0] ?? null;
}

/**
 * The cipher section's verdict on macOS and Windows, where encplan's cipher benchmark (cryptsetup benchmark,
 * openssl speed, the kernel's crypto drivers) does not run, with or without --benchmark. Where the plan paired
 * a measured encrypted run (BitLocker DiskSpd, an APFS disk image), the badge says what was measured, the
 * encrypted run's cost, and that the plan's speed comes from it (issue 24: "not measured" sat beside a measured
 * encrypted run); else why nothing was measured, and a measured plain I/O run shows --benchmark was given.
 */
function platformCipherGap(
  result: AssessmentResult,
): { summary: string; reason: string | null; verdict?: string } | null {
  const platform = osOf(result);
  if (platform === null || platform === 'linux' || result.cipherBenchmark !== null) {
    return null;
  }
  const name = platformName(platform);
  const run = measuredEncryptedRun(result.plan);
  if (run !== null && result.plan !== null) {
    const change = ((run.encrypted - run.plain) / run.plain) * 100;
    const cost = `${change <= 0 ? '−' : '+'}${Math.abs(change).toFixed(1)} %`;
    const backend = targetOf(result.plan.targetTool).labels.short;
    return {
      verdict: `encrypted run measured (${run.profile} ${cost})`,
      summary: `The cost of encryption was measured here: the ${backend} run of ${run.profile} reached ${formatRate(run.encrypted)} against ${formatRate(run.plain)} plain (${cost}). The plan's speeds come from that encrypted run (cipher evidence rank 1 of 4), not from a cipher benchmark: the cipher alone is not benchmarked on ${name} (encplan's cipher benchmark runs on Linux), so the ceiling a heavier load would reach is unknown.`,
      reason: null,
    };
  }
  return {
    summary: `Cipher speed is not measured on ${name}: encplan's cipher benchmark runs on Linux.`,
    reason:
      result.ioBenchmark === null
        ? `The cipher benchmark (the Linux kernel's dm-crypt ciphers and OpenSSL) runs on Linux only, with or without --benchmark.`
        : `The assessment ran with --benchmark, but the cipher benchmark (the Linux kernel's dm-crypt ciphers and OpenSSL) runs on Linux only; on ${name} the plain versus encrypted I/O below measures the cost of encryption instead.`,
  };
}

/** What a missing capability is called for people. */
const CAPABILITY_LABELS: Readonly<Record<AssessmentResult['capabilities'][number]['id'], string>> = {
  root: 'Administrator (root) rights',
  'device-mapper': 'Device-mapper (dm-crypt) in the kernel',
  'kernel-crypto-user-api': 'Kernel crypto API for programs (AF_ALG)',
  'loop-devices': 'Loop devices',
  'ext4-encryption': 'ext4 encryption (fscrypt)',
  udev: 'udev device names',
};

function capabilitiesSection(result: AssessmentResult): SectionView {
  const entries = result.capabilities;
  if (entries.length === 0) {
    // No check ran (an assessment that holds none): nothing is known missing, and nothing known present either.
    return {
      id: 'capabilities',
      title: 'What this machine can measure',
      tone: 'unknown',
      verdict: 'not checked',
      summary: 'This assessment holds no capability checks.',
      findings: [],
      facts: [],
      missingReason: 'No capability was checked in this assessment.',
    };
  }
  const missing = entries.filter((entry) => !entry.present);
  return {
    id: 'capabilities',
    title: 'What this machine can measure',
    tone: missing.length === 0 ? 'good' : 'attention',
    verdict: missing.length === 0 ? 'all present' : `${String(missing.length)} missing`,
    summary:
      missing.length === 0
        ? 'Everything encplan needs on this machine is available.'
        : `${String(missing.length)} of ${String(entries.length)} features encplan uses are missing here; some measurements will be replaced or skipped.`,
    findings: missing.map((entry): FindingView => ({
      tone: 'attention',
      message: `${CAPABILITY_LABELS[entry.id]}: ${entry.costWhenMissing}`,
      source: entry.evidence,
    })),
    facts: entries.map((entry) =>
      fact(CAPABILITY_LABELS[entry.id], entry.present ? 'present' : 'missing', entry.evidence),
    ),
    missingReason: null,
  };
}

/** Every section of the report, in reading order, from the typed assessment result. */
export function toSectionViews(result: AssessmentResult, warnings: readonly Warning[]): SectionView[] {
  const linux = linuxResultOf(result);
  if (linux === null) {
    // macOS and Windows: report/storage-sections.ts shows the storage model's facts. The capability
    // probes look for Linux kernel features only, so that section would say "all present" of nothing: left out
    // (what a missing tool costs there is in the warnings, and in encplan doctor).
    return [
      ciphersSection(result.cipherBenchmark, platformCipherGap(result), mitigationsContext(result.machine)),
    ];
  }
  return [
    healthSection(linux.health, warnings),
    trimSection(linux),
    spaceSection(linux),
    sedSection(linux),
    cpuSection(linux, warnings),
    ciphersSection(linux.cipherBenchmark, null, mitigationsContext(linux.machine), {
      evidence: linux.plan?.cipherEvidence,
      opensslRefusal: opensslRefusal(linux, 'aes-xts'),
    }),
    encryptionSection(linux),
    capabilitiesSection(linux),
  ];
}
