import { parseWithoutCompiling } from '@encplan/core';
import { runAssess, type AssessFlags } from './assess-run.js';
import { reportCommandError, reportDeadlinesFired } from './command-outcome.js';
import { diskDocument } from './disk-reading.js';
import { installTerminalSink } from './terminal-sink.js';

/**
 * Runs `encplan assess` as its oclif command does once oclif has parsed (direct.ts decided it parses the same):
 * main.ts's choice of parsers, oclif's `Command._run` (it removes `ENCPLAN_REDIRECTED` from the environment),
 * EncplanCommand's `init` (the terminal sink), the command's one body (assess-run.ts), then EncplanCommand's
 * `catch` (the error envelope or line, the exit code) and `finally` (a tool deadline that fired).
 */
export async function runAssessDirect(
  parsed: {
    readonly args: Readonly<Record<string, string>>;
    readonly flags: Readonly<Record<string, unknown>>;
  },
  argv: readonly string[],
): Promise<void> {
  parseWithoutCompiling();
  delete process.env.ENCPLAN_REDIRECTED;
  installTerminalSink();
  let failure: Error | undefined;
  try {
    await runAssess(parsed.args, parsed.flags as unknown as AssessFlags);
  } catch (error) {
    failure = error as Error;
    reportCommandError(failure, {
      usage: false,
      jsonWanted: parsed.flags.json === true || argv.includes('--json'),
      document: diskDocument(argv),
    });
  } finally {
    reportDeadlinesFired(failure);
  }
}
