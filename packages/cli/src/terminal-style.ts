import type { TextRenderOptions, TextStyle } from '@encplan/core';
import { sgr } from './terminal-sink.js';

/**
 * Whether to colour output, by the conventions of https://no-color.org and Node's own tty.getColorDepth():
 * FORCE_COLOR (other than "0" or "false") turns colour on, then NO_COLOR (non-empty) turns it off, then a dumb
 * terminal or a stream that is no terminal (a pipe, a file) gets none.
 */
export function colourEnabled(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    return force !== '0' && force !== 'false';
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') {
    return false;
  }
  return isTty && env.TERM !== 'dumb';
}

/** SGR codes per style: bold headings, faint details, green/yellow/red tones (ECMA-48 §8.3.117). */
const SGR_CODES: Readonly<Record<TextStyle, string>> = {
  heading: '1',
  dim: '2',
  good: '32',
  attention: '33',
  bad: '1;31',
  unknown: '35',
  info: '36',
};

/** Text options for stdout: wrapped to the terminal's width and coloured there; plain and unwrapped in a pipe. */
export function terminalTextOptions(
  verbose: boolean,
  stream: { readonly isTTY?: boolean; readonly columns?: number } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): TextRenderOptions {
  const isTty = stream.isTTY === true;
  const columns = Number(env.COLUMNS);
  const width = isTty ? (stream.columns ?? 80) : Number.isInteger(columns) && columns > 0 ? columns : null;
  return {
    verbose,
    width,
    ...(colourEnabled(env, isTty)
      ? { paint: (style: TextStyle, text: string) => sgr(SGR_CODES[style], text) }
      : {}),
  };
}
