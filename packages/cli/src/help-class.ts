import { Help, type Config, type Interfaces } from '@oclif/core';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { installTerminalSink, keepOwnSgr } from './terminal-sink.js';

/**
 * The width oclif's help may fill on this terminal. oclif wraps a flag's multi-line description to the width
 * less 4 but indents it by 6 (4 in the list, 2 for the section: `renderList` in @oclif/core's
 * help/formatter.js), so its lines came out 2 columns too wide and the terminal broke words ("predictio/n" at
 * 80 columns). Asking for 2 columns less keeps every line inside the terminal.
 */
export function helpWidth(columns: number | undefined): number {
  const terminal = Number.parseInt(process.env.OCLIF_COLUMNS ?? '', 10) || columns || 80;
  return Math.max(40, terminal - 2);
}

/**
 * Wraps each line wider than `width` at word boundaries, continuing at the line's own indentation: oclif leaves
 * a command's summary line unwrapped ("Plan encryption settings, … (runs nothing)." was 89 columns).
 */
export function fitLines(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      // Printable ASCII is one column a character: no width table needed for the common line.
      if ((/^[\x20-\x7e]*$/u.test(line) ? line.length : stringWidth(line)) <= width) {
        return line;
      }
      const indent = /^ */u.exec(line)?.[0] ?? '';
      return wrapAnsi(line.slice(indent.length), width - indent.length, { hard: true })
        .split('\n')
        .map((part) => `${indent}${part}`)
        .join('\n');
    })
    .join('\n');
}

/**
 * oclif's help, printed through encplan's sink: its bold section headers (ANSI SGR from oclif's own theme,
 * text from encplan's command definitions) are kept as encplan's own colours instead of being escaped as text
 * (`\u001b[1mUSAGE\u001b[22m` on a terminal, issue 27); NO_COLOR and pipes already make oclif print none.
 */
export class EncplanHelp extends Help {
  constructor(config: Config, options: Partial<Interfaces.HelpOptions> = {}) {
    super(config, {
      ...options,
      maxWidth: helpWidth(process.stdout.isTTY ? process.stdout.columns : undefined),
    });
  }

  protected override log(...args: string[]): void {
    installTerminalSink();
    const stream = this.opts.sendToStderr === true ? process.stderr : process.stdout;
    stream.write(`${keepOwnSgr(fitLines(args.join('\n'), this.opts.maxWidth))}\n`);
  }
}
