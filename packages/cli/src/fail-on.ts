import { Flags } from '@oclif/core';
import { verdictMeetsThreshold, type HealthVerdict } from '@encplan/core';
import { ExitCode } from './exit-codes.js';

/** `--fail-on` and `--fail-on-unknown`, shared by `encplan health`, `assess` and `plan`. */
export const failOnFlags = {
  'fail-on': Flags.string({
    summary: 'Exit 5 when the drive health is at or past this verdict.',
    options: ['warning', 'failing'],
  }),
  'fail-on-unknown': Flags.boolean({
    summary: 'Exit 5 when the drive health cannot be known (no SMART data), too.',
    default: false,
  }),
};

/**
 * Exits with {@link ExitCode.gateFailed} when `verdict` meets the user's `--fail-on` threshold (or is unknown
 * under `--fail-on-unknown`), saying why on stderr. Returns normally otherwise.
 */
export function exitIfVerdictFails(
  verdict: HealthVerdict,
  flags: { readonly 'fail-on'?: string | undefined; readonly 'fail-on-unknown': boolean },
  what: string,
  exit: (code: number) => never,
): void {
  const threshold =
    flags['fail-on'] === 'warning' || flags['fail-on'] === 'failing' ? flags['fail-on'] : null;
  if (!verdictMeetsThreshold(verdict, threshold, { unknownFails: flags['fail-on-unknown'] })) {
    return;
  }
  const why = verdict === 'unknown' ? '--fail-on-unknown' : `--fail-on ${threshold ?? ''}`;
  process.stderr.write(`encplan: ${what}: the drive is ${verdict} (${why}).\n`);
  exit(ExitCode.gateFailed);
}
