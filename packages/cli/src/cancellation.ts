import { cancelled } from '@encplan/core';

/**
 * Runs `work` with an AbortSignal that SIGINT (Ctrl-C) and SIGTERM trigger. The core then stops its child
 * processes (their whole process groups) and removes what it created before rejecting with CANCELLED (exit
 * 130). Further signals while it cleans up are ignored, so a second Ctrl-C cannot interrupt the cleanup.
 * Work that finishes although the signal fired still ends as CANCELLED: a run the user stopped never
 * prints a result as if nothing had happened. Outside this window, bin/run.js exits 130 at once.
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
  try {
    const result = await work(controller.signal);
    if (controller.signal.aborted) {
      throw cancelled('The run');
    }
    return result;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Resolves with the signal's name when SIGINT or SIGTERM arrives (for `encplan ui`, which runs until stopped). */
export function untilStopped(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
