import { EncplanError } from '../errors.js';

/** Largest text output a parser accepts: a benchmark or /proc/crypto is a few KiB; this leaves ample room. */
const MAX_TEXT_OUTPUT_CHARS = 1024 * 1024;

/** The error every text parser throws for input it does not understand (fail closed). */
export function unrecognizedOutput(tool: string, reason: string, line?: string): EncplanError {
  return new EncplanError(
    'TOOL_OUTPUT_UNRECOGNIZED',
    `The output of ${tool} was not recognised: ${reason}.`,
    {
      hint: `Run it with LC_ALL=C, or report the output (encplan collect) so the parser can learn this format.`,
      details: { tool, ...(line === undefined ? {} : { line: line.slice(0, 200) }) },
    },
  );
}

/** Splits tool output into lines (LF or CRLF), refusing input too large to be what the parser expects. */
export function splitOutputLines(tool: string, text: string): string[] {
  if (text.length > MAX_TEXT_OUTPUT_CHARS) {
    throw unrecognizedOutput(
      tool,
      `it is ${String(text.length)} characters long, far more than this tool prints`,
    );
  }
  return text.split(/\r?\n/);
}
