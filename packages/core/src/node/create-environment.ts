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
 * Tools that are not on PATH where their installer puts them: VeraCrypt's Windows installer puts VeraCrypt.exe
 * (and VeraCrypt Format.exe beside it) in %ProgramFiles%\VeraCrypt, a folder PATH does not normally hold.
 */
function platformToolPaths(): RunnerOptions['toolPaths'] {
  if (process.platform !== 'win32') {
    return {};
  }
  return { veracrypt: `${process.env.ProgramFiles ?? 'C:\\Program Files'}\\VeraCrypt\\VeraCrypt.exe` };
}
