import { verdictMeetsThreshold, type HealthVerdict } from '@encplan/core';
import { ExitCode } from './exit-codes.js';

/**
 * Sets the exit code {@link ExitCode.gateFailed} when `verdict` meets the user's `--fail-on` threshold (or is
 * unknown under `--fail-on-unknown`), saying why on stderr. It never calls process.exit: the process ends when
 * stdout has drained, so a long report written to a slow pipe arrives whole.
 */
export function exitIfVerdictFails(
  verdict: HealthVerdict,
  flags: { readonly 'fail-on'?: string | undefined; readonly 'fail-on-unknown': boolean },
  what: string,
): void {
  const threshold =
    flags['fail-on'] === 'warning' || flags['fail-on'] === 'failing' ? flags['fail-on'] : null;
  if (!verdictMeetsThreshold(verdict, threshold, { unknownFails: flags['fail-on-unknown'] })) {
    return;
  }
  const why = verdict === 'unknown' ? '--fail-on-unknown' : `--fail-on ${threshold ?? ''}`;
  process.stderr.write(`encplan: ${what}: the drive is ${verdict} (${why}).\n`);
  process.exitCode = ExitCode.gateFailed;
}
