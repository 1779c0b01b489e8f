import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

const TOOL = 'CrystalDiskMark';

/** One test line of a CrystalDiskMark result. */
export interface CrystalDiskMarkTest {
  readonly direction: 'read' | 'write';
  readonly access: 'sequential' | 'random';
  readonly blockSizeBytes: number;
  readonly queueDepth: number;
  readonly threads: number;
  /** CDM's MB/s is decimal: "* MB/s = 1,000,000 bytes/s" in its own header. */
  readonly megabytesPerSecond: number;
  readonly iops: number | null;
  readonly latencyMicroseconds: number | null;
}

/** A CrystalDiskMark 8 text result ("Copy" / File → Save). */
export interface CrystalDiskMarkResult {
  readonly version: string;
  readonly profile: string | null;
  readonly testSize: string | null;
  readonly os: string | null;
  readonly tests: readonly CrystalDiskMarkTest[];
}

const UNITS: Readonly<Record<string, number>> = { KiB: 1024, MiB: 1024 * 1024 };

/** Parses CrystalDiskMark 8's text result. Without a version header and at least one test line it fails closed. */
export function parseCrystalDiskMarkText(text: string): CrystalDiskMarkResult {
  let version: string | null = null;
  let direction: 'read' | 'write' | null = null;
  const tests: CrystalDiskMarkTest[] = [];
  const fields = new Map<string, string>();
  for (const line of splitOutputLines(TOOL, text.replace(/^\uFEFF/, ''))) {
    const header = /^\s*CrystalDiskMark\s+(\d+\.\d+(?:\.\d+)?)/.exec(line);
    if (header !== null) {
      version = header[1] ?? null;
    }
    if (/^\[Read\]/.test(line.trim())) {
      direction = 'read';
    } else if (/^\[Write\]/.test(line.trim())) {
      direction = 'write';
    } else if (/^\[/.test(line.trim())) {
      direction = null;
    }
    const test =
      /^\s*(SEQ|RND)\s+(\d+)(KiB|MiB)\s+\(Q=\s*(\d+),\s*T=\s*(\d+)\):\s+(\d+(?:\.\d+)?)\s+MB\/s(?:\s+\[\s*(\d+(?:\.\d+)?)\s+IOPS\])?(?:\s+<\s*(\d+(?:\.\d+)?)\s+us>)?\s*$/.exec(
        line,
      );
    if (test !== null) {
      if (direction === null) {
        throw unrecognizedOutput(TOOL, 'a test line outside [Read] / [Write]', line);
      }
      tests.push({
        direction,
        access: test[1] === 'SEQ' ? 'sequential' : 'random',
        blockSizeBytes: Number(test[2]) * (UNITS[test[3] ?? ''] ?? 1),
        queueDepth: Number(test[4]),
        threads: Number(test[5]),
        megabytesPerSecond: Number(test[6]),
        iops: test[7] === undefined ? null : Number(test[7]),
        latencyMicroseconds: test[8] === undefined ? null : Number(test[8]),
      });
      continue;
    }
    const field = /^\s*(Profile|Test|OS):\s*(.*?)\s*$/.exec(line);
    if (field !== null) {
      fields.set(field[1] ?? '', field[2] ?? '');
    }
  }
  if (version === null || tests.length === 0) {
    throw unrecognizedOutput(TOOL, 'no "CrystalDiskMark N.N" header or no test line');
  }
  return {
    version,
    profile: fields.get('Profile') ?? null,
    testSize: fields.get('Test') ?? null,
    os: fields.get('OS') ?? null,
    tests,
  };
}
