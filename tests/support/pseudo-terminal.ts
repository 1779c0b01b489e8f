import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';
import { REPO_ROOT } from './fake-tools.js';

/** Whether util-linux script(1) is here to give a run a pseudo-terminal. */
export const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0;

/**
 * The user cache folder of these runs (help texts, tool versions): a temporary one, removed after the test
 * file, so a test never writes into the real home's ~/.cache.
 */
const cacheHome = mkdtempSync(path.join(tmpdir(), 'encplan-terminal-cache-'));
afterAll(() => rmSync(cacheHome, { recursive: true, force: true }));

/** A person's terminal: no CI variable (oclif's colour library, ansis, prints no colour under CI=true). */
const PERSON_TERMINAL: NodeJS.ProcessEnv = {
  XDG_CACHE_HOME: cacheHome,
  CI: undefined,
  NO_COLOR: undefined,
  FORCE_COLOR: undefined,
  TERM: 'xterm-256color',
};

/** `encplan ARGS` as one shell command line, each word single-quoted. */
function commandLine(args: readonly string[]): string {
  return [process.execPath, path.join(REPO_ROOT, 'packages/cli/bin/run.js'), ...args]
    .map((word) => `'${word.replaceAll("'", String.raw`'\''`)}'`)
    .join(' ');
}

/** The bytes `encplan ARGS` prints in a pseudo-terminal `columns` wide (CR LF as LF), and its exit status. */
export async function onTerminal(
  args: readonly string[],
  columns: number,
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; raw: string }> {
  const run = promisify(execFile);
  const script = ['-qec', `stty cols ${String(columns)} rows 50; ${commandLine(args)}`, '/dev/null'];
  try {
    const { stdout } = await run('script', script, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, ...PERSON_TERMINAL, ...env },
    });
    return { status: 0, raw: stdout.replaceAll('\r\n', '\n') };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { status: failed.code ?? null, raw: (failed.stdout ?? '').replaceAll('\r\n', '\n') };
  }
}
