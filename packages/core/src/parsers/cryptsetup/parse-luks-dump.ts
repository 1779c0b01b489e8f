import type { ExistingEncryption, Luks2Opal } from '../../domain/encryption.js';
import { EncplanError } from '../../errors.js';
import { isJsonObject, parseJsonObject, unrecognized } from '../json-reader.js';

/** The header facts of a LUKS volume, without the path and source that the probe adds. */
export type LuksHeader = Omit<ExistingEncryption, 'path' | 'source'>;
type Keyslot = LuksHeader['pbkdf'][number];

function toInteger(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) {
    return value;
  }
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    return Number(value);
  }
  return null;
}

/**
 * The data segment types of a LUKS2 header: "crypt" (dm-crypt), and from cryptsetup 2.7 "hw-opal-crypt"
 * (luksFormat --hw-opal: dm-crypt on an OPAL locking range) and "hw-opal" (--hw-opal-only: the locking range
 * alone, dm-linear on top) (cryptsetup v2.7.0, lib/luks2/luks2_segment.c json_segment_create_crypt,
 * json_segment_create_opal_crypt, json_segment_create_opal).
 */
const DATA_SEGMENT_TYPES = ['crypt', 'hw-opal-crypt', 'hw-opal'] as const;
type OpalSegmentType = NonNullable<Luks2Opal['segmentType']>;

function opalSegmentType(type: unknown): OpalSegmentType | null {
  return type === 'hw-opal-crypt' || type === 'hw-opal' ? type : null;
}

/**
 * dm-crypt's key in bits from a keyslot's key: with OPAL the keyslots store the OPAL user key and dm-crypt's
 * key as one volume key, the OPAL key first (cryptsetup v2.7.0, src/cryptsetup.c action_luksFormat: `keysize +=
 * opal_params.user_key_size` for --hw-opal, `keysize = opal_params.user_key_size` for --hw-opal-only;
 * lib/luks2/luks2_json_metadata.c LUKS2_split_crypt_and_opal_keys). Null when --hw-opal-only (no dm-crypt key)
 * or when a size is unknown.
 */
function dmCryptKeyBits(keyslotBits: number | null, opal: Luks2Opal | undefined): number | null {
  if (opal === undefined || keyslotBits === null) {
    return keyslotBits;
  }
  if (opal.segmentType !== 'hw-opal-crypt' || opal.keyBits === null) {
    return null;
  }
  return keyslotBits > opal.keyBits ? keyslotBits - opal.keyBits : null;
}

/** A header that names the mandatory requirement "opal" (cryptsetup v2.7.0, lib/setup.c LUKS2_config_set_requirement_version(…, CRYPT_REQUIREMENT_OPAL, …); luks2_json_metadata.c requirements_flags). */
const OPAL_REQUIREMENT = 'opal';

/**
 * Parses `cryptsetup luksDump --dump-json-metadata` (LUKS2 only). Key sizes in the JSON are bytes
 * (`key_size: 64` = 512 bits); the data segment gives cipher and sector size; `config.flags` holds the
 * persistent flags such as "allow-discards" (cryptsetup(8), common_options.adoc). An OPAL segment adds its
 * locking range, OPAL key size and range length (opal_segment_number, opal_key_size in bytes, opal_segment_size:
 * cryptsetup v2.7.0, lib/luks2/luks2_segment.c json_add_opal_fields).
 */
export function parseLuks2JsonMetadata(text: string): LuksHeader {
  const document = parseJsonObject('cryptsetup', text);
  if (!isJsonObject(document) || !isJsonObject(document.keyslots) || !isJsonObject(document.segments)) {
    throw unrecognized('cryptsetup', 'LUKS2 metadata without keyslots or segments');
  }
  const segment = Object.values(document.segments).find(
    (entry) => isJsonObject(entry) && DATA_SEGMENT_TYPES.some((type) => type === entry.type),
  );
  const keyslots = Object.entries(document.keyslots).map(
    ([id, slot]): Keyslot & { keyBytes: number | null } => {
      const kdf = isJsonObject(slot) && isJsonObject(slot.kdf) ? slot.kdf : {};
      const type = typeof kdf.type === 'string' ? kdf.type : 'unknown';
      return {
        keyslot: id,
        type,
        hash: typeof kdf.hash === 'string' ? kdf.hash : null,
        iterations: type === 'pbkdf2' ? toInteger(kdf.iterations) : null,
        timeCost: type.startsWith('argon2') ? toInteger(kdf.time) : null,
        memoryKibibytes: type.startsWith('argon2') ? toInteger(kdf.memory) : null,
        parallelThreads: type.startsWith('argon2') ? toInteger(kdf.cpus) : null,
        keyBytes: isJsonObject(slot) ? toInteger(slot.key_size) : null,
      };
    },
  );
  const tokens = isJsonObject(document.tokens)
    ? Object.entries(document.tokens).flatMap(([id, token]) =>
        isJsonObject(token) && typeof token.type === 'string'
          ? [
              {
                id,
                type: token.type,
                keyslots: Array.isArray(token.keyslots)
                  ? token.keyslots.filter((slot): slot is string => typeof slot === 'string')
                  : [],
              },
            ]
          : [],
      )
    : [];
  const config = isJsonObject(document.config) ? document.config : {};
  const flags = Array.isArray(config.flags)
    ? config.flags.filter((flag): flag is string => typeof flag === 'string')
    : [];
  const keyBytes = keyslots.find((slot) => slot.keyBytes !== null)?.keyBytes ?? null;
  const requirements =
    isJsonObject(config.requirements) && Array.isArray(config.requirements.mandatory)
      ? config.requirements.mandatory
      : [];
  const segmentType = isJsonObject(segment) ? opalSegmentType(segment.type) : null;
  const opalKeyBytes =
    isJsonObject(segment) && segmentType !== null ? toInteger(segment.opal_key_size) : null;
  const opal: Luks2Opal | undefined =
    segmentType !== null && isJsonObject(segment)
      ? {
          segmentType,
          lockingRange: toInteger(segment.opal_segment_number),
          keyBits: opalKeyBytes === null ? null : opalKeyBytes * 8,
          rangeBytes: toInteger(segment.opal_segment_size),
        }
      : requirements.includes(OPAL_REQUIREMENT)
        ? { segmentType: null, lockingRange: null, keyBits: null, rangeBytes: null }
        : undefined;
  return {
    format: 'luks2',
    cipher: isJsonObject(segment) && typeof segment.encryption === 'string' ? segment.encryption : null,
    keyBits: dmCryptKeyBits(keyBytes === null ? null : keyBytes * 8, opal),
    sectorBytes: isJsonObject(segment) ? toInteger(segment.sector_size) : null,
    pbkdf: keyslots.map((slot) => ({
      keyslot: slot.keyslot,
      type: slot.type,
      hash: slot.hash,
      iterations: slot.iterations,
      timeCost: slot.timeCost,
      memoryKibibytes: slot.memoryKibibytes,
      parallelThreads: slot.parallelThreads,
    })),
    flags,
    tokens,
    ...(opal === undefined ? {} : { opal }),
  };
}

function field(lines: readonly string[], name: string): string | null {
  const prefix = `${name}:`;
  const line = lines.find((candidate) => candidate.trimStart().startsWith(prefix));
  return line === undefined ? null : line.trimStart().slice(prefix.length).trim();
}

/** A dump that ends early is refused, naming what is missing; `partial` holds what it did say. */
function cutShort(missing: string, partial: LuksHeader): never {
  throw new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', `cryptsetup luksDump output is cut short: ${missing}.`, {
    hint: 'Save the whole output of `cryptsetup luksDump` (or use --dump-json-metadata for LUKS2) and try again.',
    details: { tool: 'cryptsetup', partial },
  });
}

/**
 * What a whole LUKS2 text dump contains, in this order (cryptsetup 2.x, lib/luks2/luks2_json_metadata.c
 * LUKS2_hdr_dump: header fields, "Data segments:", "Keyslots:", "Tokens:", "Digests:" with at least the
 * volume key digest). Returns the first thing missing, or null.
 */
function missingLuks2Part(lines: readonly string[]): string | null {
  const trimmed = lines.map((line) => line.trim());
  let from = 0;
  for (const section of ['Data segments:', 'Keyslots:', 'Tokens:', 'Digests:']) {
    const at = trimmed.indexOf(section, from);
    if (at < 0) {
      return `it ends before its "${section}" section`;
    }
    from = at + 1;
  }
  const digests = trimmed.slice(from);
  const digestEntry = digests.findIndex((line) => /^\d+: /.test(line));
  if (digestEntry < 0 || !digests.slice(digestEntry).some((line) => line.startsWith('Digest:'))) {
    return 'its "Digests:" section ends before the first digest is complete';
  }
  return null;
}

/**
 * Parses the text of `cryptsetup luksDump` for LUKS1 and LUKS2 headers. Tolerates tabs collapsed to
 * spaces (pasted dumps). Throws TOOL_OUTPUT_UNRECOGNIZED when there is no "Version:" line, and when the dump
 * is cut short (a LUKS1 dump without all eight "Key Slot" lines, a LUKS2 dump without its Digests section),
 * with what could be read as `details.partial`: a truncated dump must never pass for a whole header.
 */
export function parseLuksDumpText(text: string): LuksHeader {
  const lines = text.split(/\r?\n/);
  const version = field(lines, 'Version');
  if (version === '1') {
    const header = parseLuks1Text(lines);
    // LUKS1 has exactly eight key slots and luksDump lists every one, DISABLED or ENABLED (LUKS1 on-disk
    // format specification, LUKS_NUMKEYS = 8).
    const slotLines = lines.filter((line) => /^Key Slot \d+: (ENABLED|DISABLED)/.test(line.trim())).length;
    if (slotLines < 8) {
      cutShort(`${String(slotLines)} of the 8 "Key Slot" lines are present`, header);
    }
    return header;
  }
  if (version === '2') {
    const header = parseLuks2Text(lines);
    const missing = missingLuks2Part(lines);
    if (missing !== null) {
      cutShort(missing, header);
    }
    return header;
  }
  throw unrecognized('cryptsetup', 'luksDump output without a LUKS version');
}

function parseLuks1Text(lines: readonly string[]): LuksHeader {
  const name = field(lines, 'Cipher name');
  const mode = field(lines, 'Cipher mode');
  const hash = field(lines, 'Hash spec');
  const bits = toInteger(field(lines, 'MK bits'));
  const pbkdf: Keyslot[] = [];
  lines.forEach((line, index) => {
    const slot = /^Key Slot (\d+): ENABLED/.exec(line.trim());
    if (slot?.[1] !== undefined) {
      const iterations = toInteger(field(lines.slice(index + 1, index + 2), 'Iterations'));
      pbkdf.push({
        keyslot: slot[1],
        type: 'pbkdf2',
        hash,
        iterations,
        timeCost: null,
        memoryKibibytes: null,
        parallelThreads: null,
      });
    }
  });
  return {
    format: 'luks1',
    cipher: name !== null && mode !== null ? `${name}-${mode}` : name,
    keyBits: bits,
    sectorBytes: 512,
    pbkdf,
    flags: [],
  };
}

function parseLuks2Text(lines: readonly string[]): LuksHeader {
  const flagsText = field(lines, 'Flags');
  const flags =
    flagsText === null || flagsText === '(no flags)'
      ? []
      : flagsText.split(/\s+/).filter((flag) => flag.length > 0);
  const opal = luks2TextOpal(lines);
  // An "hw-opal" segment has no dm-crypt cipher: luksDump prints "cipher: (no SW encryption)" (cryptsetup v2.7.0,
  // lib/luks2/luks2_json_metadata.c hdr_dump_segments).
  const cipherText = field(lines, 'cipher');
  const cipher = cipherText === null || cipherText.startsWith('(') ? null : cipherText;
  const sector = toInteger(field(lines, 'sector')?.split(' ')[0]);
  const pbkdf: Keyslot[] = [];
  let keyBits: number | null = null;
  const keyslotsStart = lines.findIndex((line) => line.trim() === 'Keyslots:');
  const keyslotsEnd = lines.findIndex(
    (line, index) => index > keyslotsStart && /^(Tokens|Digests):/.test(line.trim()),
  );
  const section =
    keyslotsStart < 0 ? [] : lines.slice(keyslotsStart + 1, keyslotsEnd < 0 ? undefined : keyslotsEnd);
  section.forEach((line, index) => {
    const slot = /^(\d+): luks2/.exec(line.trim());
    if (slot?.[1] === undefined) {
      return;
    }
    const next = section.slice(index + 1);
    const end = next.findIndex((candidate) => /^\d+: /.test(candidate.trim()));
    const body = end < 0 ? next : next.slice(0, end);
    const type = field(body, 'PBKDF') ?? 'unknown';
    keyBits ??= toInteger(field(body, 'Key')?.split(' ')[0]);
    pbkdf.push({
      keyslot: slot[1],
      type,
      hash: field(body, 'Hash'),
      iterations: toInteger(field(body, 'Iterations')),
      timeCost: toInteger(field(body, 'Time cost')),
      memoryKibibytes: toInteger(field(body, 'Memory')),
      parallelThreads: toInteger(field(body, 'Threads')),
    });
  });
  return {
    format: 'luks2',
    cipher,
    keyBits: dmCryptKeyBits(keyBits, opal),
    sectorBytes: sector,
    pbkdf,
    flags,
    tokens: luks2TextTokens(lines),
    ...(opal === undefined ? {} : { opal }),
  };
}

/**
 * The OPAL part of a LUKS2 text dump: the data segment's type ("  0: hw-opal-crypt"), then under "HW OPAL
 * encryption:" the lines "OPAL segment number: N", "OPAL key: N bits" and "OPAL segment length: N [bytes]"
 * (cryptsetup v2.7.0, lib/luks2/luks2_json_metadata.c hdr_dump_segments), or only the header's
 * "Requirements: opal" line (hdr_dump_header) when the dump ends before its segments.
 */
function luks2TextOpal(lines: readonly string[]): Luks2Opal | undefined {
  const start = lines.findIndex((line) => line.trim() === 'Data segments:');
  const end = lines.findIndex((line, index) => index > start && line.trim() === 'Keyslots:');
  const segments = start < 0 ? [] : lines.slice(start + 1, end < 0 ? undefined : end);
  const segmentType = segments
    .map((line) => opalSegmentType(/^\s*\d+: (\S+)\s*$/.exec(line)?.[1]))
    .find((type) => type !== null);
  if (segmentType !== undefined && segmentType !== null) {
    return {
      segmentType,
      lockingRange: toInteger(field(segments, 'OPAL segment number')),
      keyBits: toInteger(field(segments, 'OPAL key')?.split(' ')[0]),
      rangeBytes: toInteger(field(segments, 'OPAL segment length')?.split(' ')[0]),
    };
  }
  const requirements = field(lines, 'Requirements')?.split(/\s+/) ?? [];
  return requirements.includes(OPAL_REQUIREMENT)
    ? { segmentType: null, lockingRange: null, keyBits: null, rangeBytes: null }
    : undefined;
}

/** The "Tokens:" section of a LUKS2 text dump: "  0: systemd-tpm2" then "\tKeyslot:    1" lines. */
function luks2TextTokens(lines: readonly string[]): NonNullable<LuksHeader['tokens']> {
  const start = lines.findIndex((line) => line.trim() === 'Tokens:');
  if (start < 0) {
    return [];
  }
  const tokens: { id: string; type: string; keyslots: string[] }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) {
      break;
    }
    const token = /^\s+(\d+): (\S+)\s*$/.exec(line);
    if (token?.[1] !== undefined && token[2] !== undefined) {
      tokens.push({ id: token[1], type: token[2], keyslots: [] });
      continue;
    }
    const slot = /^\s+Keyslot:\s+(\d+)\s*$/.exec(line);
    if (slot?.[1] !== undefined) {
      tokens.at(-1)?.keyslots.push(slot[1]);
    }
  }
  return tokens;
}
