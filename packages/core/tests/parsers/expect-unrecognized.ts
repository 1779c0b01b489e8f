import { expect } from 'vitest';
import { isEncplanError } from '@encplan/core';

/** Asserts that `run` throws TOOL_OUTPUT_UNRECOGNIZED (a parser failing closed); `input` names the case. */
export function expectUnrecognized(run: () => unknown, input?: string): void {
  let thrown: unknown = null;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  const label = input === undefined ? '' : `${JSON.stringify(input)}: `;
  expect(isEncplanError(thrown, 'TOOL_OUTPUT_UNRECOGNIZED'), `${label}${String(thrown)}`).toBe(true);
}

/** Asserts that `parse` refuses every one of `inputs` with TOOL_OUTPUT_UNRECOGNIZED. */
export function expectEachUnrecognized(parse: (text: string) => unknown, inputs: readonly string[]): void {
  for (const input of inputs) {
    expectUnrecognized(() => parse(input), input);
  }
}
