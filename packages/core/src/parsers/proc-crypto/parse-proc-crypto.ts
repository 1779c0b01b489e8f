import { splitOutputLines, unrecognizedOutput } from '../text-input.js';

/** One entry of /proc/crypto (crypto/proc.c: c_show). */
export interface ProcCryptoEntry {
  readonly name: string;
  readonly driver: string;
  readonly module: string | null;
  readonly priority: number;
  readonly type: string | null;
  /** "internal : yes" marks helpers only other templates may use (include/linux/crypto.h CRYPTO_ALG_INTERNAL). */
  readonly internal: boolean;
  readonly async: boolean | null;
  readonly selftest: string | null;
}

const TOOL = '/proc/crypto';
// "min keysize  : 32": a key of words, a colon surrounded by spaces, a value (crypto/proc.c pads keys to 12).
const FIELD = /^([a-z][a-z0-9 _-]{0,31}?)\s*: (.{0,256})$/;
// `grep -A N … /proc/crypto` separates its groups with "--"; excerpts of that kind are accepted too.
const GREP_SEPARATOR = '--';

function finish(fields: Map<string, string>, lineNumber: number): ProcCryptoEntry {
  const name = fields.get('name');
  const driver = fields.get('driver');
  const priority = fields.get('priority');
  if (name === undefined || driver === undefined || priority === undefined || !/^-?\d{1,9}$/.test(priority)) {
    throw unrecognizedOutput(
      TOOL,
      `the entry ending at line ${String(lineNumber)} lacks a name, driver or numeric priority`,
    );
  }
  const async = fields.get('async');
  return {
    name,
    driver,
    module: fields.get('module') ?? null,
    priority: Number(priority),
    type: fields.get('type') ?? null,
    internal: fields.get('internal') === 'yes',
    async: async === undefined ? null : async === 'yes',
    selftest: fields.get('selftest') ?? null,
  };
}

/**
 * Parses /proc/crypto: blank-line separated entries of "key : value" lines. Leading indentation and grep's "--"
 * separators are tolerated. Throws TOOL_OUTPUT_UNRECOGNIZED on any other line, an entry without name, driver and
 * priority, or no entry at all.
 */
export function parseProcCrypto(text: string): ProcCryptoEntry[] {
  const entries: ProcCryptoEntry[] = [];
  let fields = new Map<string, string>();
  const lines = splitOutputLines(TOOL, text);
  lines.forEach((rawLine, index) => {
    const line = rawLine.trim();
    if (line === '' || line === GREP_SEPARATOR) {
      if (fields.size > 0) {
        entries.push(finish(fields, index));
        fields = new Map();
      }
      return;
    }
    const field = FIELD.exec(line);
    if (!field) {
      throw unrecognizedOutput(TOOL, `line ${String(index + 1)} is not a "key : value" line`, line);
    }
    const key = field[1]!.trim();
    if (key === 'name' && fields.size > 0) {
      entries.push(finish(fields, index));
      fields = new Map();
    }
    fields.set(key, field[2]!.trim());
  });
  if (fields.size > 0) {
    entries.push(finish(fields, lines.length));
  }
  if (entries.length === 0) {
    throw unrecognizedOutput(TOOL, 'it lists no algorithm');
  }
  return entries;
}
