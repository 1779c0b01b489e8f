import { deadlinesFired, fileSystemErrorOf } from '@encplan/core/node';
import { EncplanError, toErrorBody, type JsonDocument } from '@encplan/core';
import { ExitCode, exitCodeFor } from './exit-codes.js';

/**
 * How a command's run ends, without oclif: its JSON document on stdout, an error as an error envelope (or one
 * clear line on stderr) with a documented exit code, a tool deadline that fired as exit 3. The oclif commands
 * (base-command.ts) and the direct path of `assess` (direct-run.ts) both end through these functions.
 */

/** Prints one JSON document on stdout, as every command's `--json` does. */
export function emitJson(document: unknown): void {
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}

/**
 * Prints `error` as the command's error envelope (with `--json`) or on stderr, and sets the exit code. `usage`:
 * the error is oclif's own parse error (unknown flag, missing argument), which is an INVALID_ARGUMENT (exit 2).
 */
export function reportCommandError(
  error: Error & { stack?: string },
  options: { usage: boolean; jsonWanted: boolean; document: JsonDocument },
): void {
  const normalised = options.usage
    ? new EncplanError('INVALID_ARGUMENT', stripAnsi(error.message))
    : // A raw ENAMETOOLONG, EACCES, ENOENT… on a path the user gave (an output file) is the user's path, not a bug.
      (fileSystemErrorOf(error) ?? error);
  const body = toErrorBody(normalised);
  const exitCode = normalised instanceof EncplanError ? exitCodeFor(normalised.code) : ExitCode.internal;
  if (options.jsonWanted) {
    emitJson(options.document.error(normalised));
  } else {
    process.stderr.write(`encplan: ${body.message}\n${body.hint === null ? '' : `hint: ${body.hint}\n`}`);
    if (exitCode === ExitCode.internal && process.env.ENCPLAN_DEBUG === '1') {
      process.stderr.write(`${String(error.stack)}\n`);
    }
  }
  process.exitCode = exitCode;
}

/**
 * A tool's deadline that fired is an error of the run even where a probe carried on without that fact (a
 * TOOL_TIMED_OUT warning in a partial result): the command never exits 0 after one (exit 3, as the error
 * TOOL_TIMED_OUT would), and says so on stderr.
 */
export function reportDeadlinesFired(error: Error | undefined): void {
  const fired = deadlinesFired();
  if (error === undefined && fired.length > 0 && (process.exitCode ?? 0) === 0) {
    const tools = [...new Set(fired.map((entry) => `${entry.tool} (${entry.timeoutMs / 1000} s)`))];
    process.stderr.write(
      `encplan: ${tools.join(', ')} did not finish within its deadline; the result is partial (see its warnings).\n`,
    );
    process.exitCode = exitCodeFor('TOOL_TIMED_OUT');
  }
}

function stripAnsi(text: string): string {
  // oclif colours its parse errors; the JSON and the log want plain text.
  // eslint-disable-next-line no-control-regex -- ESC starts the ANSI colour sequences we remove
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
