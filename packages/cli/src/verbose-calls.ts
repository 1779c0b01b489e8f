import { formatExternalCalls, logExternalCalls, type ErrorCode, type Host } from '@encplan/core';
import { exitCodeFor } from './exit-codes.js';

/**
 * With `--verbose`, the environment's host logs every process it starts; `report()` then writes them to
 * stderr (duration, exit status, command line) so the JSON on stdout stays one document.
 */
export function verboseEnvironment<Environment extends { readonly host: Host }>(
  environment: Environment,
  verbose: boolean,
): { environment: Environment; report: () => void } {
  if (!verbose) {
    return { environment, report: () => undefined };
  }
  const logged = logExternalCalls(environment.host);
  return {
    environment: { ...environment, host: logged.host },
    report: () => process.stderr.write(`${formatExternalCalls(logged.calls()).join('\n')}\n`),
  };
}

/**
 * `assess --all`: the report is printed for every disk; when a disk could not be assessed the run still
 * exits with that disk's error code (the first failed disk's), so scripts notice. Set as the exit code of a
 * normal end, never with process.exit: that would cut a long report still queued for a pipe.
 */
export function exitIfDiskFailed(envelope: {
  readonly result: {
    readonly disks: readonly { readonly error: { readonly code: ErrorCode } | null }[];
  } | null;
}): void {
  const failed = envelope.result?.disks.find((disk) => disk.error !== null)?.error ?? null;
  if (failed !== null) {
    process.exitCode = exitCodeFor(failed.code);
  }
}
