import { assertInputSize, unrecognized } from '../json-reader.js';

/** One drive in `sedutil-cli --scan`. */
export interface SedutilScanEntry {
  readonly device: string;
  /** The raw flags column: "No", "2", "12", "E", "2 E", "p"… */
  readonly flags: string;
  readonly opal1: boolean;
  readonly opal2: boolean;
  readonly enterprise: boolean;
  readonly opalite: boolean;
  readonly pyrite: boolean;
  readonly ruby: boolean;
  readonly model: string | null;
}

/**
 * Parses `sedutil-cli --scan`: "Scanning for Opal compliant disks", then "<device> <flags> <model> <fw>".
 * Flags: 1 = Opal 1.0, 2 = Opal 2.0, E = Enterprise, L = Opalite, p/P = Pyrite 1/2, r = Ruby, No = not a SED
 * (sedutil-cli --scan; TCG Storage Opal SSC Level 0 Discovery; NVMe OACS bit 0). Throws TOOL_OUTPUT_UNRECOGNIZED without the banner.
 */
export function parseSedutilScan(text: string): SedutilScanEntry[] {
  assertInputSize('sedutil-cli', text);
  const lines = text.split(/\r?\n/);
  if (!lines.some((line) => line.startsWith('Scanning for Opal'))) {
    throw unrecognized('sedutil-cli', 'the "Scanning for Opal compliant disks" banner is missing');
  }
  const entries: SedutilScanEntry[] = [];
  for (const line of lines) {
    // "<device> <flags> <model> <firmware>": the flags are single characters in fixed columns ("2", "  E", "1 2"),
    // or "No"; the first token that is not one of them starts the model (sedutil-cli --scan).
    const match = /^(\/dev\/\S+|\\\\\.\\\S+)\s+(.*?)\s*$/.exec(line);
    if (match === null) {
      continue;
    }
    const [, device = '', rest = ''] = match;
    const tokens = rest.split(/\s+/).filter((token) => token !== '');
    const flagCount = tokens[0] === 'No' ? 1 : tokens.findIndex((token) => !/^[12ELpPr]$/.test(token));
    const flagTokens = tokens.slice(0, flagCount === -1 ? tokens.length : flagCount);
    if (flagTokens.length === 0) {
      continue;
    }
    const flags = flagTokens.join(' ');
    const model = tokens.slice(flagTokens.length).join(' ');
    const has = (flag: string): boolean => flags !== 'No' && flags.includes(flag);
    entries.push({
      device,
      flags: flags.trim(),
      opal1: has('1'),
      opal2: has('2'),
      enterprise: has('E'),
      opalite: has('L'),
      pyrite: has('p') || has('P'),
      ruby: has('r'),
      model: model === '' ? null : model.replace(/\s+\S+$/, '').trim() || model.trim(),
    });
  }
  return entries;
}
