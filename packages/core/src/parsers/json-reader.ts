import type { Counter } from '../domain/counter.js';
import { EncplanError } from '../errors.js';

/**
 * The largest tool output a parser accepts. `smartctl -x --json` of a busy SATA SSD is ~50 KB and
 * `nvme id-ctrl -o json` ~3 KB (fixtures/); 4 MiB leaves ample room while refusing runaway input.
 */
export const MAX_PARSER_INPUT_BYTES = 4 * 1024 * 1024;

/** A JSON object as tools print it: keys to unknown values. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Throws TOOL_OUTPUT_UNRECOGNIZED for `tool` with `why`. */
export function unrecognized(tool: string, why: string, cause?: unknown): EncplanError {
  return new EncplanError(
    'TOOL_OUTPUT_UNRECOGNIZED',
    `${tool} printed output encplan does not understand: ${why}`,
    {
      hint: `Run ${tool} by hand and report its output; encplan reads only formats it was tested on.`,
      details: { tool },
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/** Refuses input over {@link MAX_PARSER_INPUT_BYTES} with TOOL_OUTPUT_TOO_LARGE. */
export function assertInputSize(tool: string, text: string): void {
  // String length counts UTF-16 units, never fewer than a third of the UTF-8 bytes: a cheap upper bound test.
  if (text.length > MAX_PARSER_INPUT_BYTES) {
    throw new EncplanError(
      'TOOL_OUTPUT_TOO_LARGE',
      `${tool} output is larger than ${MAX_PARSER_INPUT_BYTES} bytes.`,
      {
        details: { tool, maxBytes: MAX_PARSER_INPUT_BYTES },
      },
    );
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a tool's JSON document, which must be an object. Fails closed with a typed error. */
export function parseJsonObject(tool: string, text: string): JsonObject {
  assertInputSize(tool, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw unrecognized(tool, 'not valid JSON', error);
  }
  if (!isJsonObject(value)) {
    throw unrecognized(tool, 'the JSON document is not an object');
  }
  return value;
}

/** The object at `key`, or null when absent or not an object. */
export function objectAt(source: JsonObject | null | undefined, key: string): JsonObject | null {
  const value = source?.[key];
  return isJsonObject(value) ? value : null;
}

/** A finite number at `key`, or null. */
export function numberAt(source: JsonObject | null | undefined, key: string): number | null {
  const value = source?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A string at `key`, or null. */
export function stringAt(source: JsonObject | null | undefined, key: string): string | null {
  const value = source?.[key];
  return typeof value === 'string' ? value : null;
}

/** A boolean at `key`, or null. */
export function booleanAt(source: JsonObject | null | undefined, key: string): boolean | null {
  const value = source?.[key];
  return typeof value === 'boolean' ? value : null;
}

/** An array at `key`, or an empty array. */
export function arrayAt(source: JsonObject | null | undefined, key: string): readonly unknown[] {
  const value = source?.[key];
  return Array.isArray(value) ? value : [];
}

/** The objects of the array at `key`, skipping any other items; an empty array when there is none. */
export function objectsAt(source: JsonObject | null | undefined, key: string): readonly JsonObject[] {
  return arrayAt(source, key).filter(isJsonObject);
}

/** Reads a counter, preferring the exact `KEY_s` string form (smartctl(8) `--json=v`). */
export function counterAt(source: JsonObject | null | undefined, key: string): Counter | null {
  const safe = source?.[`${key}_s`];
  if (typeof safe === 'string' && /^\d{1,40}$/.test(safe)) {
    const exact = BigInt(safe);
    return { value: Number(exact), exact };
  }
  const value = source?.[key];
  if (typeof value === 'string' && /^\d{1,40}$/.test(value)) {
    const exact = BigInt(value);
    return { value: Number(exact), exact };
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    // Above 2^53 without a `_s` twin the double is already rounded; exact keeps what JSON.parse gave us.
    return { value, exact: BigInt(value) };
  }
  return null;
}
