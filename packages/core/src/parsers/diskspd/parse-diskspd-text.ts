import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

const TOOL = 'diskspd';

/** One "total:" row of a DiskSpd IO table. */
export interface DiskspdTotals {
  readonly bytes: number;
  readonly ios: number;
  /** DiskSpd's "MB/s" column is MiB/s: 538320896 B in 600 s prints 0.86 (fixture win81 HDD), not 0.90. */
  readonly mebibytesPerSecond: number;
  readonly iops: number;
  readonly averageLatencyMs: number | null;
}

/** One row of the latency percentile table (`-L`). */
export interface DiskspdPercentile {
  /** "min", "25th", …, "99th", "3-nines", …, "max". */
  readonly percentile: string;
  readonly readMs: number | null;
  readonly writeMs: number | null;
  readonly totalMs: number | null;
}

/** A DiskSpd text result (the default output; CrystalDiskMark runs DiskSpd underneath). */
export interface DiskspdResult {
  readonly commandLine: string | null;
  readonly testSeconds: number;
  readonly threadCount: number | null;
  readonly blockSizeBytes: number | null;
  readonly outstandingIos: number | null;
  readonly total: DiskspdTotals;
  readonly read: DiskspdTotals | null;
  readonly write: DiskspdTotals | null;
  readonly percentiles: readonly DiskspdPercentile[];
}

function numberOrNull(text: string | undefined): number | null {
  if (text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) {
    return null;
  }
  return Number(text);
}

/**
 * Parses DiskSpd's text result: the `total:` rows of the Total/Read/Write IO tables, test time, input
 * parameters and the `%-ile` table. Console copies hard-wrapped at 80 columns (fixture win81) keep each
 * table row whole because the rows fit; a result without `actual test time` and a Total IO row fails closed.
 */
export function parseDiskspdText(text: string): DiskspdResult {
  const lines = splitOutputLines(TOOL, text);
  let section: 'total' | 'read' | 'write' | 'percentile' | null = null;
  const totals: Partial<Record<'total' | 'read' | 'write', DiskspdTotals>> = {};
  const percentiles: DiskspdPercentile[] = [];
  let testSeconds: number | null = null;
  let threadCount: number | null = null;
  let blockSizeBytes: number | null = null;
  let outstandingIos: number | null = null;
  let commandLine: string | null = null;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('Command Line:')) {
      commandLine ??= trimmed.slice('Command Line:'.length).trim();
    }
    const time = /^actual test time:\s*(\d+(?:\.\d+)?)s$/.exec(trimmed);
    if (time !== null) {
      testSeconds = Number(time[1]);
    }
    const threads = /^thread count:\s*(\d+)$/.exec(trimmed);
    if (threads !== null) {
      threadCount = Number(threads[1]);
    }
    const block = /^block size:\s*(\d+)$/.exec(trimmed);
    if (block !== null) {
      blockSizeBytes ??= Number(block[1]);
    }
    const outstanding = /^number of outstanding I\/O operations:\s*(\d+)$/.exec(trimmed);
    if (outstanding !== null) {
      outstandingIos ??= Number(outstanding[1]);
    }
    if (trimmed === 'Total IO') {
      section = 'total';
    } else if (trimmed === 'Read IO') {
      section = 'read';
    } else if (trimmed === 'Write IO') {
      section = 'write';
    } else if (/^%-ile\s*\|/.test(trimmed)) {
      section = 'percentile';
    }
    // A bare "total:" heads the percentile table (DiskSpd -L), it is no IO row.
    if (trimmed === 'total:') {
      section = null;
    }
    if (section !== null && section !== 'percentile' && trimmed.startsWith('total:')) {
      const cells = trimmed
        .slice('total:'.length)
        .split('|')
        .map((cell) => cell.trim());
      const [bytes, ios, mib, iops, latency] = cells.map((cell) => numberOrNull(cell));
      if (
        bytes === null ||
        bytes === undefined ||
        ios === null ||
        ios === undefined ||
        mib === null ||
        mib === undefined ||
        iops === null ||
        iops === undefined
      ) {
        throw unrecognizedOutput(TOOL, 'a total row without bytes, I/Os, MB/s and I/O per s', line);
      }
      totals[section] ??= { bytes, ios, mebibytesPerSecond: mib, iops, averageLatencyMs: latency ?? null };
    }
    if (section === 'percentile') {
      const row = /^(min|max|\d+(?:st|nd|rd|th)|\d-nines)\s*\|(.*)$/.exec(trimmed);
      if (row !== null) {
        const [readMs, writeMs, totalMs] = (row[2] ?? '')
          .split('|')
          .map((cell) => numberOrNull(cell.trim() === 'N/A' ? undefined : cell));
        percentiles.push({
          percentile: row[1] ?? '',
          readMs: readMs ?? null,
          writeMs: writeMs ?? null,
          totalMs: totalMs ?? null,
        });
      }
    }
  }
  if (testSeconds === null || totals.total === undefined) {
    throw unrecognizedOutput(TOOL, 'no "actual test time" or Total IO total row');
  }
  return {
    commandLine,
    testSeconds,
    threadCount,
    blockSizeBytes,
    outstandingIos,
    total: totals.total,
    read: totals.read ?? null,
    write: totals.write ?? null,
    percentiles,
  };
}
