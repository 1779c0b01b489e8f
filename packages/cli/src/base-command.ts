import { Command, Errors, Flags } from '@oclif/core';
import { EncplanError, errorEnvelope, okEnvelope, toErrorBody, TOOL_VERSION, type Warning } from '@encplan/core';
import { ExitCode, exitCodeFor } from './exit-codes.js';

/**
 * The base of every encplan command: `--json` prints exactly one envelope, errors become an error envelope
 * (or one clear line on stderr) with a documented exit code, and never a stack trace.
 */
export abstract class EncplanCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({ summary: 'Print exactly one JSON document (a versioned envelope) on stdout.', default: false }),
  };

  /** The schema name of this command's envelope, for error envelopes. */
  protected abstract readonly schemaName: string;
  /** The version of this command's document; a command whose result gained a field bumps the minor. */
  protected readonly schemaVersion: readonly [number, number] = [1, 0];

  protected jsonOutput = false;


  protected emitJson(document: unknown): void {
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }

  /** Prints this command's ok (or partial, with warnings) envelope around `result`, at this command's schema version. */
  protected emitOkEnvelope(result: unknown, warnings: readonly Warning[]): void {
    this.emitJson(okEnvelope({ schema: this.schemaName, schemaVersion: [this.schemaVersion[0], this.schemaVersion[1]], toolVersion: TOOL_VERSION, generatedAt: new Date() }, result, warnings));
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- oclif's catch hook must return a promise
  protected override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<never> {
    const jsonWanted = this.jsonOutput || this.argv.includes('--json');
    // oclif's own parse errors (unknown flag, missing argument) are usage errors.
    const isUsage = error instanceof Errors.CLIError && !(error instanceof EncplanError) && error.oclif?.exit !== 0;
    const normalised =
      isUsage && !(error instanceof EncplanError) ? new EncplanError('INVALID_ARGUMENT', stripAnsi(error.message)) : error;
    if ((error as { code?: string }).code === 'EEXIT') {
      throw error;
    }
    const body = toErrorBody(normalised);
    const exitCode = normalised instanceof EncplanError ? exitCodeFor(normalised.code) : ExitCode.internal;
    if (jsonWanted) {
      this.emitJson(
        errorEnvelope({ schema: this.schemaName, schemaVersion: [this.schemaVersion[0], this.schemaVersion[1]], toolVersion: TOOL_VERSION, generatedAt: new Date() }, normalised),
      );
    } else {
      process.stderr.write(`encplan: ${body.message}\n${body.hint === null ? '' : `hint: ${body.hint}\n`}`);
      if (exitCode === ExitCode.internal && process.env.ENCPLAN_DEBUG === '1') {
        process.stderr.write(`${String(error.stack)}\n`);
      }
    }
    return this.exit(exitCode);
  }
}

function stripAnsi(text: string): string {
  // oclif colours its parse errors; the JSON and the log want plain text.
  // eslint-disable-next-line no-control-regex -- ESC starts the ANSI colour sequences we remove
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
