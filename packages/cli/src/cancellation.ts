import { cancelled } from '@encplan/core';

/** How many pieces of work handle SIGINT/SIGTERM themselves; bin/run.js exits 130 at once when none does. */
const SIGNAL_OWNERS = Symbol.for('encplan.signal-owners');
const owners = globalThis as { [SIGNAL_OWNERS]?: number };

function ownSignals(): () => void {
  owners[SIGNAL_OWNERS] = (owners[SIGNAL_OWNERS] ?? 0) + 1;
  let released = false;
  return () => {
    if (!released) {
      released = true;
      owners[SIGNAL_OWNERS] = (owners[SIGNAL_OWNERS] ?? 1) - 1;
    }
  };
}

/**
 * Runs `work` with an AbortSignal that SIGINT (Ctrl-C) and SIGTERM trigger. The core then stops its child
 * processes (their whole process groups) and removes what it created before rejecting with CANCELLED (exit
 * 130). Further signals while it cleans up are ignored, so a second Ctrl-C cannot interrupt the cleanup.
 * Work that finishes although the signal fired still ends as CANCELLED: a run the user stopped never
 * prints a result as if nothing had happened. Outside this window, bin/run.js exits 130 at once (SIGNAL_OWNERS tells it whether a window is open).
 */
export async function withCancellation<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) {
      process.stderr.write(`\nencplan: ${signal} received, removing what this run created…\n`);
      controller.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const release = ownSignals();
  try {
    const result = await work(controller.signal);
    if (controller.signal.aborted) {
      throw cancelled('The run');
    }
    return result;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    release();
  }
}

/**
 * Resolves with the signal's name when SIGINT or SIGTERM arrives (for `encplan ui`, which runs until stopped).
 * The caller stops its work and exits; further signals meanwhile are ignored, as in withCancellation.
 */
export function untilStopped(): Promise<NodeJS.Signals> {
  ownSignals();
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.on('SIGINT', () => undefined);
      process.on('SIGTERM', () => undefined);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
