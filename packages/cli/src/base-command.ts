import { Command, Errors, Flags, type Interfaces } from '@oclif/core';
import {
  EncplanError,
  renderDocumentText,
  type DocumentResult,
  type JsonDocument,
  type Warning,
} from '@encplan/core';
import { emitJson, reportCommandError, reportDeadlinesFired } from './command-outcome.js';
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
    emitJson(document);
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
    if ((error as { code?: string }).code === 'EEXIT') {
      throw error;
    }
    reportCommandError(error, { usage: isUsage, jsonWanted, document: this.document });
  }

  /** A tool's deadline that fired makes the run's exit code 3 (command-outcome.ts). */
  protected override async finally(error: Error | undefined): Promise<unknown> {
    reportDeadlinesFired(error);
    return super.finally(error);
  }
}
