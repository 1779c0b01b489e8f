import { EncplanError } from '../errors.js';
import type { Clock, Host } from '../ports.js';
import { createNodeHost } from './host.js';
import { createRunner, type RunnerOptions } from './process/run-command.js';

/** The composition root: the real host (runner, files, systeminformation, effects) and the clock. */
export interface NodeEnvironment {
  readonly host: Host;
  readonly clock: Clock;
}

/** Wires the ports to the real adapters. `searchPath` defaults to the process's PATH. */
export function createEnvironment(options: Partial<RunnerOptions> & { cwd?: string } = {}): NodeEnvironment {
  const runner = createRunner({
    searchPath: options.searchPath ?? process.env.PATH ?? '',
    deadlineScale: deadlineScaleOf(process.env.ENCPLAN_DEADLINE_SCALE),
    ...options,
    toolPaths: { ...platformToolPaths(), ...options.toolPaths },
  });
  const host = createNodeHost(runner, options.cwd ?? process.cwd());
  return {
    host,
    clock: { now: () => new Date() },
  };
}

/**
 * `ENCPLAN_DEADLINE_SCALE`: every tool's deadline times this positive number (docs/benchmarks-io.md "Deadlines"),
 * e.g. 3 on a machine three times slower than the deadlines allow for. Unset: 1. Anything else is refused.
 */
function deadlineScaleOf(text: string | undefined): number {
  if (text === undefined || text === '') {
    return 1;
  }
  const scale = /^\s*\d+(?:\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `ENCPLAN_DEADLINE_SCALE ${JSON.stringify(text)} is not accepted.`,
      {
        hint: 'Accepted: a number above 0 that every tool deadline is multiplied by, e.g. 2 or 0.5.',
      },
    );
  }
  return scale;
}

/**
 * Tools that are not on PATH where their installer puts them: VeraCrypt's Windows installer puts VeraCrypt.exe
 * (and VeraCrypt Format.exe beside it) in %ProgramFiles%\VeraCrypt, a folder PATH does not normally hold.
 */
function platformToolPaths(): RunnerOptions['toolPaths'] {
  if (process.platform !== 'win32') {
    return {};
  }
  return { veracrypt: `${process.env.ProgramFiles ?? 'C:\\Program Files'}\\VeraCrypt\\VeraCrypt.exe` };
}
