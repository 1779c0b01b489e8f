/**
 * Runs `work` with an AbortSignal that SIGINT (Ctrl-C) and SIGTERM trigger. The core then stops its child
 * processes and removes what it created before rejecting with CANCELLED (exit 130). Further signals while it
 * cleans up are ignored, so a second Ctrl-C cannot interrupt the cleanup.
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
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
