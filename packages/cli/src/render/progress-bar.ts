import type { ProgressEvent } from '@encplan/core';
import wrapAnsi from 'wrap-ansi';

const BAR_WIDTH = 24;

function duration(ms: number | null): string {
  if (ms === null) {
    return '--:--';
  }
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** One progress line: a bar with ETA for a terminal, or a plain line for logs. */
export function formatProgress(event: ProgressEvent, tty: boolean, columns = 80): string {
  const percent = `${Math.round(event.fraction * 100)}%`.padStart(4);
  const counter = `${event.runIndex}/${event.runCount}`;
  if (!tty) {
    return `[${percent}] ${counter} ETA ${duration(event.etaMs)} ${event.message}\n`;
  }
  const filled = Math.round(event.fraction * BAR_WIDTH);
  const line = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent} ${counter} ETA ${duration(event.etaMs)} ${event.message}`;
  // The line stays within the terminal (a wider one would wrap, and \r would then redraw only its last row): it
  // ends at the last word that fits, measured in terminal columns. \r returns to the start of the line, \x1b[K
  // clears what a longer previous line left behind.
  const fitted = wrapAnsi(line, Math.max(20, columns - 1), { hard: true }).split('\n')[0] ?? '';
  return `\r${fitted}\u001b[K${event.phase === 'done' ? '\n' : ''}`;
}

/** A progress sink writing to stderr: a bar when stderr is a terminal, plain lines (runs and phases) otherwise. */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): (event: ProgressEvent) => void {
  const tty = stream.isTTY;
  let lastMessage = '';
  return (event) => {
    if (!tty && (event.message === lastMessage || event.message.endsWith(' done'))) {
      return;
    }
    lastMessage = event.message;
    stream.write(formatProgress(event, tty, stream.columns));
  };
}

/**
 * One step of a long run (`encplan: reading the drive…`) on stderr. On a terminal it takes the line of the
 * progress bar (\r, the text, clear to the end of the line) and the bar's next event is drawn below it.
 */
export function stderrStep(step: string, stream: NodeJS.WriteStream = process.stderr): void {
  stream.write(stream.isTTY ? `\rencplan: ${step}…\u001b[K\n` : `encplan: ${step}…\n`);
}
