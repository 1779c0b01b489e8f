import { EncplanError } from '../errors.js';

/** Parses a tool's JSON output, failing closed with TOOL_OUTPUT_UNRECOGNIZED. */
export function parseToolJson(tool: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', `${tool} printed output that is not valid JSON.`, {
      cause: error,
      details: { tool, excerpt: text.slice(0, 200) },
    });
  }
}

/** The error for output that parses but does not have the expected shape. */
export function unrecognized(tool: string, what: string): EncplanError {
  return new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', `${tool} output was not understood: ${what}.`, { details: { tool } });
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
