import fc from 'fast-check';
import { expect } from 'vitest';
import { isEncplanError } from '@encplan/core';

/** The error codes a parser may throw on bad input: typed, never a TypeError or RangeError. */
const PARSER_ERROR_CODES = ['TOOL_OUTPUT_UNRECOGNIZED', 'TOOL_OUTPUT_TOO_LARGE'] as const;

/** Runs `parse` and returns the result, or asserts that it threw a typed parser error and returns null. */
function parseOrTypedError<T>(parse: () => T): T | null {
  try {
    return parse();
  } catch (error) {
    expect(
      isEncplanError(error, ...PARSER_ERROR_CODES),
      `expected a typed parser error, got ${String(error)}`,
    ).toBe(true);
    return null;
  }
}

/** Every prefix of `text` (truncated output) either parses or gives a typed error. */
export function checkTruncations<T>(
  text: string,
  parse: (input: string) => T,
  check: (result: T) => void = () => undefined,
): void {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: Math.max(0, text.length - 1) }), (cut) => {
      const result = parseOrTypedError(() => parse(text.slice(0, cut)));
      if (result !== null) {
        check(result);
      }
    }),
    { numRuns: 200 },
  );
}

/** Arbitrary strings, JSON-ish values and byte soup never crash the parser. */
export function checkHostileInputs<T>(
  parse: (input: string) => T,
  check: (result: T) => void = () => undefined,
): void {
  const hostile = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.json(),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.constantFrom('', '\u0000', '{}', '[]', 'null', '{"__proto__":{"polluted":1}}', '\r\n\r\n', '\uFEFF{}'),
  );
  fc.assert(
    fc.property(hostile, (input) => {
      const result = parseOrTypedError(() => parse(input));
      if (result !== null) {
        check(result);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }),
    { numRuns: 300 },
  );
}

/** A 10 MB input is refused with a typed error quickly instead of being parsed. */
export function checkHugeInput<T>(parse: (input: string) => T, unit = 'x'): void {
  const huge = unit.repeat(Math.ceil((10 * 1024 * 1024) / unit.length));
  const started = Date.now();
  const result = parseOrTypedError(() => parse(huge));
  expect(result).toBeNull();
  expect(Date.now() - started).toBeLessThan(2000);
}

/** What a test asserts on the results that do parse: of truncations of the sample, of hostile input. */
export interface ParserChecks<T> {
  readonly truncated?: (result: T) => void;
  readonly hostile?: (result: T) => void;
}

/**
 * The three properties of a parser at once: every truncation of `sample` (a real capture; null when the corpus
 * has none) parses or fails typed, hostile input never crashes it, and a 10 MB input is refused.
 */
export function checkParserProperties<T>(
  parse: (input: string) => T,
  sample: string | null,
  checks: ParserChecks<T> = {},
): void {
  if (sample !== null) {
    checkTruncations(sample, parse, checks.truncated);
  }
  checkHostileInputs(parse, checks.hostile);
  checkHugeInput(parse);
}
