import { assertInputSize, unrecognized } from '../json-reader.js';

/** A value of an XML property list (Apple's PropertyList-1.0 DTD). `data` stays base64 text. */
export type PlistValue =
  string | number | boolean | PlistDate | PlistData | readonly PlistValue[] | PlistDict;

/** A plist `<dict>`: keys to values. */
export interface PlistDict {
  readonly [key: string]: PlistValue;
}

/** A plist `<date>`, kept as the ISO 8601 text diskutil printed. */
export class PlistDate {
  constructor(readonly iso: string) {}
}

/** A plist `<data>`, kept as base64 text without whitespace. */
export class PlistData {
  constructor(readonly base64: string) {}
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * A strict reader of XML property lists as `diskutil … -plist` and `system_profiler -xml` print them.
 * Written here rather than taken from npm: the `plist` package pulls in an XML DOM (@xmldom/xmldom) and
 * accepts far more than Apple's DTD; this one knows exactly the ten elements of PropertyList-1.0.dtd
 * (dict, array, key, string, integer, real, true, false, date, data) and refuses anything else with
 * TOOL_OUTPUT_UNRECOGNIZED, so a truncated or foreign document never reads as empty facts.
 */
export function parsePlist(tool: string, text: string): PlistValue {
  assertInputSize(tool, text);
  let position = 0;
  const fail = (why: string): never => {
    throw unrecognized(tool, `not an XML property list (${why} at character ${String(position)})`);
  };
  const skipSpace = (): void => {
    while (position < text.length && /\s/.test(text[position] ?? '')) {
      position += 1;
    }
  };
  const skipMisc = (): void => {
    for (;;) {
      skipSpace();
      if (text.startsWith('<?', position)) {
        const end = text.indexOf('?>', position);
        if (end < 0) {
          fail('an unterminated declaration');
        }
        position = end + 2;
      } else if (text.startsWith('<!--', position)) {
        const end = text.indexOf('-->', position);
        if (end < 0) {
          fail('an unterminated comment');
        }
        position = end + 3;
      } else if (text.startsWith('<!DOCTYPE', position)) {
        const end = text.indexOf('>', position);
        if (end < 0) {
          fail('an unterminated DOCTYPE');
        }
        position = end + 1;
      } else {
        return;
      }
    }
  };
  const decode = (raw: string): string =>
    raw.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, name: string) => {
      if (name.startsWith('#')) {
        const code = name.startsWith('#x')
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
        return code <= 0x10ffff ? String.fromCodePoint(code) : fail('a character reference out of range');
      }
      return ENTITIES[name] ?? fail(`an unknown entity ${whole}`);
    });
  /** Reads `<name>` or `<name/>`; returns the name and whether it was empty. */
  const openTag = (): { name: string; empty: boolean } => {
    skipMisc();
    const match = /^<([a-z]+)(\s+[a-z]+="[^"]*")*\s*(\/?)>/.exec(text.slice(position, position + 200));
    if (match === null) {
      return fail('an expected element');
    }
    position += match[0].length;
    return { name: match[1] ?? '', empty: match[3] === '/' };
  };
  const textUntilClose = (name: string): string => {
    const close = `</${name}>`;
    const end = text.indexOf(close, position);
    if (end < 0) {
      fail(`a missing ${close}`);
    }
    const raw = text.slice(position, end);
    if (raw.includes('<')) {
      fail(`markup inside <${name}>`);
    }
    position = end + close.length;
    return decode(raw);
  };
  const closeTag = (name: string): boolean => {
    skipMisc();
    if (text.startsWith(`</${name}>`, position)) {
      position += name.length + 3;
      return true;
    }
    return false;
  };
  const value = (depth: number): PlistValue => {
    if (depth > 64) {
      fail('nesting deeper than 64');
    }
    const tag = openTag();
    switch (tag.name) {
      case 'true':
      case 'false':
        if (!tag.empty && !closeTag(tag.name)) {
          fail(`an unclosed <${tag.name}>`);
        }
        return tag.name === 'true';
      case 'string':
        return tag.empty ? '' : textUntilClose('string');
      case 'integer': {
        const raw = tag.empty ? '' : textUntilClose('integer').trim();
        if (!/^[+-]?\d{1,20}$/.test(raw)) {
          fail('an integer that is not a number');
        }
        return Number(raw);
      }
      case 'real': {
        const raw = tag.empty ? '' : textUntilClose('real').trim();
        const number = Number(raw);
        if (raw === '' || !Number.isFinite(number)) {
          fail('a real that is not a number');
        }
        return number;
      }
      case 'date':
        return new PlistDate(tag.empty ? '' : textUntilClose('date').trim());
      case 'data':
        return new PlistData(tag.empty ? '' : textUntilClose('data').replace(/\s+/g, ''));
      case 'array': {
        const items: PlistValue[] = [];
        if (tag.empty) {
          return items;
        }
        while (!closeTag('array')) {
          if (position >= text.length) {
            fail('an unclosed <array>');
          }
          items.push(value(depth + 1));
        }
        return items;
      }
      case 'dict': {
        const entries: [string, PlistValue][] = [];
        if (tag.empty) {
          return Object.freeze(Object.fromEntries(entries));
        }
        while (!closeTag('dict')) {
          const key = openTag();
          if (key.name !== 'key') {
            fail('a dict entry without <key>');
          }
          const name = key.empty ? '' : textUntilClose('key');
          entries.push([name, value(depth + 1)]);
        }
        // Object.fromEntries never treats "__proto__" as a prototype setter.
        return Object.freeze(Object.fromEntries(entries));
      }
      default:
        return fail(`an element <${tag.name}> the plist DTD does not have`);
    }
  };
  const root = openTag();
  if (root.name !== 'plist' || root.empty) {
    fail('no <plist> root');
  }
  const result = value(1);
  if (!closeTag('plist')) {
    fail('content after the root value');
  }
  skipMisc();
  if (position !== text.length) {
    fail('content after </plist>');
  }
  return result;
}

/** True for a plist dict. */
export function isPlistDict(value: PlistValue | undefined): value is PlistDict {
  return (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof PlistDate) &&
    !(value instanceof PlistData)
  );
}

/** The string at `key`, or null. */
export function plistString(dict: PlistDict | null, key: string): string | null {
  const value = dict?.[key];
  return typeof value === 'string' ? value : null;
}

/** The integer or real at `key`, or null. */
export function plistNumber(dict: PlistDict | null, key: string): number | null {
  const value = dict?.[key];
  return typeof value === 'number' ? value : null;
}

/** The boolean at `key`, or null. */
export function plistBoolean(dict: PlistDict | null, key: string): boolean | null {
  const value = dict?.[key];
  return typeof value === 'boolean' ? value : null;
}

/** The dicts of the array at `key` (other items skipped), or an empty list. */
export function plistDicts(dict: PlistDict | null, key: string): readonly PlistDict[] {
  const value = dict?.[key];
  return Array.isArray(value) ? (value as readonly PlistValue[]).filter(isPlistDict) : [];
}

/** The strings of the array at `key`, or an empty list. */
export function plistStrings(dict: PlistDict | null, key: string): readonly string[] {
  const value = dict?.[key];
  return Array.isArray(value)
    ? (value as readonly PlistValue[]).filter((item): item is string => typeof item === 'string')
    : [];
}
