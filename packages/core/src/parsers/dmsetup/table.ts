import { assertInputSize, unrecognized } from '../json-reader.js';

const TOOL = 'dmsetup';

/** One target line of `dmsetup table`. */
export interface DmTableLine {
  /** The mapping name when `dmsetup table` printed several ("name: start length target …"). */
  readonly name: string | null;
  readonly startSector: number;
  readonly lengthSectors: number;
  readonly target: string;
  readonly args: readonly string[];
  /** For `crypt` targets: the parsed fields; null for other targets. */
  readonly crypt: DmCryptTarget | null;
}

/** A dm-crypt target: `cipher key iv_offset device offset [#opt_params opt_params…]` (dm-crypt.rst). */
export interface DmCryptTarget {
  readonly cipher: string;
  /** The key is never kept: only whether it is a keyring reference (":64:logon:…") or hex. */
  readonly keyKind: 'keyring' | 'hex' | 'empty';
  readonly device: string;
  readonly offsetSectors: number;
  /** Optional parameters, e.g. ["allow_discards", "no_read_workqueue", "sector_size:4096"]. */
  readonly options: readonly string[];
  readonly allowDiscards: boolean;
  readonly sectorSizeBytes: number | null;
}

function parseCrypt(args: readonly string[]): DmCryptTarget | null {
  const [cipher, key, , device, offset, count, ...rest] = args;
  if (
    cipher === undefined ||
    key === undefined ||
    device === undefined ||
    offset === undefined ||
    !/^\d+$/.test(offset)
  ) {
    return null;
  }
  const optionCount = count === undefined ? 0 : Number(count);
  if (!Number.isInteger(optionCount) || optionCount > rest.length) {
    return null;
  }
  const options = rest.slice(0, optionCount);
  const sectorOption = options.find((option) => option.startsWith('sector_size:'));
  return {
    cipher,
    keyKind: key.startsWith(':') ? 'keyring' : key === '-' || key === '' ? 'empty' : 'hex',
    device,
    offsetSectors: Number(offset),
    options,
    allowDiscards: options.includes('allow_discards'),
    sectorSizeBytes: sectorOption === undefined ? null : Number(sectorOption.slice('sector_size:'.length)),
  };
}

/**
 * Parses `dmsetup table [NAME]` output: one target per line, optionally prefixed "name: " when several
 * mappings are listed. Crypt targets are decoded (allow_discards, no_read_workqueue…) and their keys dropped.
 * Throws TOOL_OUTPUT_UNRECOGNIZED for a line that is not a table line ("No devices found" gives []).
 */
export function parseDmsetupTable(text: string): DmTableLine[] {
  assertInputSize(TOOL, text);
  const lines: DmTableLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line === 'No devices found') {
      continue;
    }
    const named = /^(\S+): (.*)$/.exec(line);
    const body = named?.[2] ?? line;
    const [start, length, target, ...args] = body.split(/\s+/);
    if (
      start === undefined ||
      length === undefined ||
      target === undefined ||
      !/^\d+$/.test(start) ||
      !/^\d+$/.test(length)
    ) {
      throw unrecognized(TOOL, `"${line.slice(0, 80)}" is not a device-mapper table line`);
    }
    lines.push({
      name: named?.[1] ?? null,
      startSector: Number(start),
      lengthSectors: Number(length),
      target,
      args: target === 'crypt' ? args.map((arg, index) => (index === 1 ? '<key>' : arg)) : args,
      crypt: target === 'crypt' ? parseCrypt(args) : null,
    });
  }
  return lines;
}
