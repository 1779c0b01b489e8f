import { expect } from 'vitest';
import { isEncplanError } from '@encplan/core';

/** Asserts that `run` throws TOOL_OUTPUT_UNRECOGNIZED (a parser failing closed). */
export function expectUnrecognized(run: () => unknown): void {
  let thrown: unknown = null;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(isEncplanError(thrown, 'TOOL_OUTPUT_UNRECOGNIZED'), String(thrown)).toBe(true);
}
