import type { AssessmentResult } from '../contract/assessment.js';
import { formatBytes, toMebibytesPerSecond } from '../domain/units.js';
import type { Plan } from '../plan/plan.js';

/** One bar of a chart: a value in the chart's unit (null = not measured). */
export interface BarView {
  readonly series: string;
  readonly value: number | null;
  /** A verdict's colour instead of the series' (the fleet's readiness bars). */
  readonly tone?: 'good' | 'attention' | 'bad' | 'unknown' | 'info';
}

/** Draws a chart as an SVG string (report/chart-svg.ts with the environment's document). */
export type ChartRenderer = (chart: ChartView) => string;

/** One group of bars (one I/O profile: "SEQ1M Q8T1 read"; one cipher). */
export interface BarGroupView {
  readonly label: string;
  readonly bars: readonly BarView[];
}

/** A grouped bar chart: plain vs encrypted per profile, cipher and key-derivation speed, wear. */
export interface ChartView {
  /** Stable id ("throughput", "predicted", "ciphers", "kdf", "wear"): the HTML id and the test hook. */
  readonly id: string;
  readonly title: string;
  readonly unit: string;
  /** The value a full-width bar stands for (100 for percentages); null = the largest value. */
  readonly max: number | null;
  readonly series: readonly string[];
  readonly groups: readonly BarGroupView[];
}

/** Builds a chart from rows of (group, series, value), keeping the series that have at least one value. */
function chartOf(
  head: Pick<ChartView, 'id' | 'title' | 'unit' | 'max'>,
  rows: readonly { readonly group: string; readonly series: string; readonly value: number | null }[],
): ChartView | null {
  const series = [...new Set(rows.filter((row) => row.value !== null).map((row) => row.series))];
  if (series.length === 0) {
    return null;
  }
  const groups = [...new Set(rows.map((row) => row.group))];
  return {
    ...head,
    series,
    groups: groups.map((label) => ({
      label,
      bars: series.map((name) => ({
        series: name,
        value: rows.find((row) => row.group === label && row.series === name)?.value ?? null,
      })),
    })),
  };
}

const mebibytes = (value: number | null): number | null =>
  value === null ? null : toMebibytesPerSecond(value);

/** Labels of the plan's performance profiles (CrystalDiskMark/KDiskMark names). */
export const PROFILE_LABELS: Readonly<Record<string, string>> = {
  'seq1m-q8t1': 'SEQ1M Q8T1',
  'seq1m-q1t1': 'SEQ1M Q1T1',
  'rnd4k-q32t1': 'RND4K Q32T1',
  'rnd4k-q1t1': 'RND4K Q1T1',
};

/** Measured plain throughput next to the plan's predicted (and, where measured, actual) encrypted throughput. */
function predictedChart(plan: Plan, io: AssessmentResult['ioBenchmark']): ChartView | null {
  const plainMeasured = (profile: string, direction: 'read' | 'write'): number | null =>
    io?.plain.profiles.find((measurement) => measurement.profile.id === `${profile}-${direction}`)?.summary
      .medianBytesPerSecond ?? null;
  const rows = plan.predictedPerformance.flatMap((row) =>
    (['read', 'write'] as const).flatMap((direction) => {
      const read = direction === 'read';
      const group = `${PROFILE_LABELS[row.profile] ?? row.profile} ${direction}`;
      return [
        {
          group,
          series: 'plain (measured)',
          value: mebibytes(
            (read ? row.plainReadBytesPerSecond : row.plainWriteBytesPerSecond) ??
              plainMeasured(row.profile, direction),
          ),
        },
        {
          group,
          series: 'encrypted (predicted)',
          value: mebibytes(read ? row.predictedReadBytesPerSecond : row.predictedWriteBytesPerSecond),
        },
        {
          group,
          series: 'encrypted (measured)',
          value: mebibytes(read ? row.measuredReadBytesPerSecond : row.measuredWriteBytesPerSecond),
        },
      ];
    }),
  );
  // Without a single prediction the chart would only repeat the measured-throughput chart.
  if (!rows.some((row) => row.series === 'encrypted (predicted)' && row.value !== null)) {
    return null;
  }
  return chartOf(
    {
      id: 'predicted',
      title: `Plain throughput (measured) vs encrypted throughput (predicted by the plan${plan.cipherEvidence?.upperBound === true ? ' from an OpenSSL upper bound' : ''})`,
      unit: 'MiB/s',
      max: null,
    },
    rows,
  );
}

const SOURCE_NAME = { cryptsetup: 'kernel, cryptsetup', openssl: 'OpenSSL' } as const;

/** Cipher speed per cipher and key size: one core (encrypt, decrypt) and all cores. */
function cipherChart(result: AssessmentResult): ChartView | null {
  const measurements = result.cipherBenchmark?.cipherSpeed.measurements ?? [];
  return chartOf(
    { id: 'ciphers', title: 'Cipher speed on this processor', unit: 'MiB/s', max: null },
    measurements.flatMap((entry) => {
      const group = `${entry.cipher} ${String(entry.keyBits)}-bit (${SOURCE_NAME[entry.source]})`;
      return [
        { group, series: 'encrypt, one core', value: mebibytes(entry.encryptBytesPerSecond) },
        { group, series: 'decrypt, one core', value: mebibytes(entry.decryptBytesPerSecond) },
        { group, series: 'encrypt, all cores', value: mebibytes(entry.allCoresEncryptBytesPerSecond) },
      ];
    }),
  );
}

/** PBKDF2 iterations per second per hash (cryptsetup benchmark): higher means a costlier guess per second too. */
function kdfChart(result: AssessmentResult): ChartView | null {
  const pbkdf2 = result.cipherBenchmark?.kdfSpeed.pbkdf2 ?? [];
  return chartOf(
    { id: 'kdf', title: 'Key derivation speed (PBKDF2, one core)', unit: 'thousand iterations/s', max: null },
    pbkdf2.map((entry) => ({
      group: entry.hash,
      series: 'PBKDF2',
      value: Math.round(entry.iterationsPerSecond / 1000),
    })),
  );
}

/** Endurance used and spare left, in percent of the drive's rated values (SMART / NVMe health log). */
function wearChart(result: AssessmentResult): ChartView | null {
  const { health } = result;
  if (health === null) {
    return null;
  }
  return chartOf({ id: 'wear', title: 'Wear of the drive', unit: '%', max: 100 }, [
    { group: 'Endurance used', series: 'percent', value: health.percentageUsed },
    { group: 'Spare blocks left', series: 'percent', value: health.availableSparePercent },
  ]);
}

/**
 * Throughput by block size, plain next to each encrypted variant: the ATTO-style sweep (sequential, queue depth 4,
 * `encplan benchmark io --sweep`) where it was measured; otherwise the block sizes the standard profiles have at
 * queue depth 1 (4 KiB random and 1 MiB sequential, CrystalDiskMark's Q1T1 pair), named as such. Unmeasured
 * bars read "unknown"; nothing is interpolated.
 */
function blockSizeChart(io: AssessmentResult['ioBenchmark']): ChartView | null {
  if (io === null) {
    return null;
  }
  const targets = [io.plain, ...io.encrypted];
  const all = targets.flatMap((target) => target.profiles.map((measurement) => measurement.profile));
  const sweep = all.filter((profile) => profile.pattern === 'sequential' && profile.queueDepth === 4);
  const chosen = sweep.length > 0 ? sweep : all.filter((profile) => profile.queueDepth === 1);
  const profiles = [...new Map(chosen.map((profile) => [profile.id, profile])).values()].sort(
    (a, b) => a.direction.localeCompare(b.direction) || a.blockSizeBytes - b.blockSizeBytes,
  );
  const rows = profiles.flatMap((profile) =>
    targets.map((target) => ({
      group: `${formatBytes(profile.blockSizeBytes)}${sweep.length > 0 ? '' : ` ${profile.pattern}`} ${profile.direction}`,
      series: target.variant,
      value: mebibytes(
        target.profiles.find((measurement) => measurement.profile.id === profile.id)?.summary
          .medianBytesPerSecond ?? null,
      ),
    })),
  );
  return chartOf(
    {
      id: 'block-size',
      title:
        sweep.length > 0
          ? 'Throughput by block size (sequential, queue depth 4), plain vs encrypted'
          : 'Throughput by block size (queue depth 1; no block-size sweep was run), plain vs encrypted',
      unit: 'MiB/s',
      max: null,
    },
    rows,
  );
}

/** The charts of an assessment besides the measured I/O chart, in reading order. */
export function toAssessmentCharts(result: AssessmentResult): ChartView[] {
  return [
    result.plan === null ? null : predictedChart(result.plan, result.ioBenchmark),
    blockSizeChart(result.ioBenchmark),
    cipherChart(result),
    kdfChart(result),
    wearChart(result),
  ].filter((chart): chart is ChartView => chart !== null);
}
