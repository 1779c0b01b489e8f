import { Command, Errors, Flags, type Interfaces } from '@oclif/core';
import { deadlinesFired, fileSystemErrorOf } from '@encplan/core/node';
import {
  EncplanError,
  renderDocumentText,
  toErrorBody,
  type DocumentResult,
  type JsonDocument,
  type Warning,
} from '@encplan/core';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { installTerminalSink } from './terminal-sink.js';
import { terminalTextOptions } from './terminal-style.js';

/**
 * The base of every encplan command: `--json` prints exactly one envelope, errors become an error envelope
 * (or one clear line on stderr) with a documented exit code, and never a stack trace.
 */
export abstract class EncplanCommand extends Command {
  static override baseFlags = {
    json: Flags.boolean({
      summary: 'Print exactly one JSON document (a versioned envelope) on stdout.',
      default: false,
    }),
  };

  /** The JSON document this command prints with --json (contract/documents.ts); errors use its name too. */
  abstract readonly document: JsonDocument;

  private jsonOutput = false;

  /** Every command's output goes through the sanitising terminal sink (terminal-sink.ts), before anything prints. */
  override async init(): Promise<void> {
    installTerminalSink();
    await super.init();
  }

  /** oclif's parse, noting --json at once: an error from here on is printed as this command's error envelope. */
  protected override async parse<
    F extends Record<string, unknown>,
    B extends Record<string, unknown>,
    A extends Record<string, unknown>,
  >(options?: Interfaces.Input<F, B, A>, argv?: string[]): Promise<Interfaces.ParserOutput<F, B, A>> {
    const parsed = await super.parse(options, argv);
    this.jsonOutput = (parsed.flags as { json?: unknown }).json === true;
    return parsed;
  }

  protected emitJson(document: unknown): void {
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }

  /** Prints this command's ok (or partial, with warnings) envelope around `result`. */
  protected emitOkEnvelope(
    result: DocumentResult<this['document']>,
    warnings: readonly Warning[] = [],
  ): void {
    this.emitJson(this.document.ok(result, warnings));
  }

  /** Prints a document's text (health, benchmarks, plan) as `encplan assess` prints those sections. */
  protected logDocumentText(view: Parameters<typeof renderDocumentText>[0]): void {
    this.log(renderDocumentText(view, terminalTextOptions(false)));
  }

  /**
   * Prints the error and sets the exit code. It returns instead of calling this.exit (oclif's handler ends with
   * process.exit, which drops what is still queued for a pipe): the process ends when stdout has drained.
   */
  // eslint-disable-next-line @typescript-eslint/require-await -- oclif's catch hook must return a promise
  protected override async catch(
    error: Error & { exitCode?: number; oclif?: { exit?: number } },
  ): Promise<void> {
    const jsonWanted = this.jsonOutput || this.argv.includes('--json');
    // oclif's own parse errors (unknown flag, missing argument) are usage errors.
    const isUsage =
      error instanceof Errors.CLIError && !(error instanceof EncplanError) && error.oclif?.exit !== 0;
    const normalised =
      isUsage && !(error instanceof EncplanError)
        ? new EncplanError('INVALID_ARGUMENT', stripAnsi(error.message))
        : // A raw ENAMETOOLONG, EACCES, ENOENT… on a path the user gave (an output file) is the user's path, not a bug.
          (fileSystemErrorOf(error) ?? error);
    if ((error as { code?: string }).code === 'EEXIT') {
      throw error;
    }
    const body = toErrorBody(normalised);
    const exitCode = normalised instanceof EncplanError ? exitCodeFor(normalised.code) : ExitCode.internal;
    if (jsonWanted) {
      this.emitJson(this.document.error(normalised));
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
  protected override async finally(error: Error | undefined): Promise<unknown> {
    const fired = deadlinesFired();
    if (error === undefined && fired.length > 0 && (process.exitCode ?? 0) === 0) {
      const tools = [...new Set(fired.map((entry) => `${entry.tool} (${entry.timeoutMs / 1000} s)`))];
      process.stderr.write(
        `encplan: ${tools.join(', ')} did not finish within its deadline; the result is partial (see its warnings).\n`,
      );
      process.exitCode = exitCodeFor('TOOL_TIMED_OUT');
    }
    return super.finally(error);
  }
}

function stripAnsi(text: string): string {
  // oclif colours its parse errors; the JSON and the log want plain text.
  // eslint-disable-next-line no-control-regex -- ESC starts the ANSI colour sequences we remove
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
