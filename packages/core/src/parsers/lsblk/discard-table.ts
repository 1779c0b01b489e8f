import { assertInputSize, unrecognized } from '../json-reader.js';

/** One row of `lsblk --discard` (text), with its place in the tree. */
export interface LsblkDiscardRow {
  readonly name: string;
  /** 0 for a top-level device, 1 for its children, … */
  readonly depth: number;
  /** The row this one hangs under, or null at the top. */
  readonly parent: string | null;
  readonly alignmentBytes: number;
  readonly granularityBytes: number;
  readonly maxBytes: number;
}

/** lsblk prints sizes with binary suffixes (K = 1024) unless --bytes is given. */
const SUFFIXES: Readonly<Record<string, number>> = {
  B: 1,
  K: 2 ** 10,
  M: 2 ** 20,
  G: 2 ** 30,
  T: 2 ** 40,
  P: 2 ** 50,
  E: 2 ** 60,
};

function sizeOf(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([BKMGTPE]?)$/.exec(text);
  if (match === null) {
    return null;
  }
  const factor = SUFFIXES[match[2] === '' || match[2] === undefined ? 'B' : match[2]] ?? 1;
  return Math.round(Number(match[1]) * factor);
}

/**
 * Parses `lsblk --discard` text (ASCII `|-`/`` `- `` or UTF-8 `├─`/`└─` trees). DISC-ZERO is read past but
 * not returned: it is always 0 since Linux 4.12 (Linux Documentation/ABI/stable/sysfs-block (discard_max_bytes, discard_granularity); lsblk(8) --discard). Throws TOOL_OUTPUT_UNRECOGNIZED
 * without the NAME DISC-ALN DISC-GRAN DISC-MAX header.
 */
export function parseLsblkDiscard(text: string): LsblkDiscardRow[] {
  assertInputSize('lsblk', text);
  const [header, ...lines] = text.split(/\r?\n/);
  if (header === undefined || !/^NAME\s+DISC-ALN\s+DISC-GRAN\s+DISC-MAX\b/.test(header)) {
    throw unrecognized('lsblk', 'the NAME DISC-ALN DISC-GRAN DISC-MAX header is missing');
  }
  const rows: LsblkDiscardRow[] = [];
  const stack: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    const match = /^([\s|`├└│─-]*)(\S+)\s+(\S+)\s+(\S+)\s+(\S+)(?:\s+\S+)?\s*$/.exec(line);
    const [, prefix = '', name = '', alignment = '', granularity = '', max = ''] = match ?? [];
    const sizes = [sizeOf(alignment), sizeOf(granularity), sizeOf(max)];
    if (match === null || sizes.some((size) => size === null)) {
      throw unrecognized('lsblk', `"${line.slice(0, 80)}" is not an lsblk --discard row`);
    }
    // Every tree level is two characters wide ("|-", "`-", "├─", "  ").
    const depth = Math.floor(prefix.length / 2);
    stack.length = depth;
    rows.push({
      name,
      depth,
      parent: depth === 0 ? null : (stack[depth - 1] ?? null),
      alignmentBytes: sizes[0] ?? 0,
      granularityBytes: sizes[1] ?? 0,
      maxBytes: sizes[2] ?? 0,
    });
    stack[depth] = name;
  }
  return rows;
}
