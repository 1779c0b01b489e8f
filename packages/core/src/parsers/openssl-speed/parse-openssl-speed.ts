import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

/** One algorithm's throughput at one message size. */
export interface OpensslSpeedResult {
  /** As OpenSSL prints it: "AES-256-XTS" (3.x), "aes-256-xts" (1.1), "ChaCha20". */
  readonly algorithm: string;
  readonly messageBytes: number;
  readonly bytesPerSecond: number;
}

/** What one `openssl speed -evp …` run printed. */
export interface OpensslSpeed {
  /** "3.0.22" from the "version:" line (3.x) or the "OpenSSL 1.1.1f …" line; null when absent (-mr output). */
  readonly version: string | null;
  /** The combined figures: for `-multi N`, the sum over the N processes. */
  readonly results: readonly OpensslSpeedResult[];
  /** N of `-multi N` (counted "Forked child" lines), or 1. */
  readonly processCount: number;
  readonly format: 'human' | 'machine';
}

const TOOL = 'openssl speed';
const NUMBER = String.raw`\d{1,16}(?:\.\d{1,4})?`;
// Lines OpenSSL prints around the table that carry nothing we use (apps/speed.c, 1.1.1 and 3.x).
const IGNORED = [
  /^built on: /,
  /^options: ?/,
  /^compiler: /,
  /^CPUINFO: /,
  /^Forked child \d{1,4}$/,
  /^Doing .{1,200} for \d{1,5}s on \d{1,10} size blocks: .*$/,
  /^\+(?:DT|R):.*$/,
];
const VERSION_3 = /^version: (\d{1,3}\.\d{1,3}\.\d{1,3}[a-z]{0,2})$/;
const VERSION_1 = /^OpenSSL (\d{1,3}\.\d{1,3}\.\d{1,3}[a-z]{0,2})\b.*$/;
const UNITS = /^The 'numbers' are in 1000s of bytes per second processed\.$/;
const TYPE_HEADER = /^type((?:\s+\d{1,10} bytes){1,16})$/;
const HUMAN_ROW = new RegExp(String.raw`^(\S(?:.{0,62}?\S)?)((?:\s+${NUMBER}k){1,16})$`);
const MACHINE_SIZES = /^(?:Got: )?\+H((?::\d{1,10}){1,16})(?: from \d{1,4})?$/;
const MACHINE_ROW = new RegExp(
  String.raw`^(Got: )?\+F:\d{1,4}:([^:]{1,64})((?::${NUMBER}){1,16})(?: from \d{1,4})?$`,
);

function numbersOf(text: string, separator: RegExp): number[] {
  return text
    .split(separator)
    .filter((part) => part !== '')
    .map((part) => Number.parseFloat(part));
}

function pair(
  algorithm: string,
  sizes: readonly number[],
  values: readonly number[],
  line: string,
): OpensslSpeedResult[] {
  if (sizes.length !== values.length) {
    throw unrecognizedOutput(
      TOOL,
      `${String(values.length)} figures for ${String(sizes.length)} block sizes`,
      line,
    );
  }
  return values.map((value, index) => ({
    algorithm,
    messageBytes: sizes[index]!,
    bytesPerSecond: Math.round(value),
  }));
}

/**
 * Parses the stdout of `openssl speed -evp <alg> [-mr] [-elapsed] [-multi N] [-seconds S] [-bytes B] [-decrypt]`,
 * human (1000s of bytes/s, "k" suffix) or machine-readable (`-mr`, bytes/s). Block sizes come from the "type"
 * header or `+H` line; `-multi` omits both from the parent's summary, so the children's "Got: +H" lines are used.
 * Rates become integer bytes per second. Throws TOOL_OUTPUT_UNRECOGNIZED on unknown lines or no result.
 */
export function parseOpensslSpeed(text: string): OpensslSpeed {
  let version: string | null = null;
  let sizes: number[] | null = null;
  let childSizes: number[] | null = null;
  let processCount = 0;
  let format: 'human' | 'machine' | null = null;
  const results: OpensslSpeedResult[] = [];
  const lines = splitOutputLines(TOOL, text);
  lines.forEach((rawLine, index) => {
    const line = rawLine.trimEnd();
    if (line === '') {
      return;
    }
    if (/^Forked child \d{1,4}$/.test(line)) {
      processCount += 1;
      return;
    }
    if (IGNORED.some((pattern) => pattern.test(line)) || UNITS.test(line)) {
      return;
    }
    const versionMatch = VERSION_3.exec(line) ?? VERSION_1.exec(line);
    if (versionMatch) {
      version = versionMatch[1]!;
      return;
    }
    const typeHeader = TYPE_HEADER.exec(line);
    if (typeHeader) {
      sizes = numbersOf(typeHeader[1]!.replaceAll('bytes', ''), /\s+/);
      return;
    }
    const machineSizes = MACHINE_SIZES.exec(line);
    if (machineSizes) {
      const parsed = numbersOf(machineSizes[1]!, /:/);
      if (line.startsWith('Got: ')) {
        childSizes = parsed;
      } else {
        sizes = parsed;
      }
      return;
    }
    const machineRow = MACHINE_ROW.exec(line);
    if (machineRow) {
      if (machineRow[1] === undefined) {
        format = 'machine';
        results.push(
          ...pair(machineRow[2]!, sizes ?? childSizes ?? [], numbersOf(machineRow[3]!, /:/), line),
        );
      }
      return;
    }
    const humanRow = HUMAN_ROW.exec(line);
    if (humanRow) {
      format = 'human';
      // The human table is in 1000s of bytes per second ("The 'numbers' are in 1000s…", apps/speed.c).
      const values = numbersOf(humanRow[2]!.replaceAll('k', ''), /\s+/).map((value) => value * 1000);
      results.push(...pair(humanRow[1]!, sizes ?? childSizes ?? [], values, line));
      return;
    }
    throw unrecognizedOutput(TOOL, `line ${String(index + 1)} is not part of an openssl speed table`, line);
  });
  if (results.length === 0 || format === null) {
    throw unrecognizedOutput(TOOL, 'it holds no throughput figures');
  }
  return { version, results, processCount: Math.max(processCount, 1), format };
}
