import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './fake-tools.js';

/** What a run of the built CLI gave back. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the BUILT encplan binary (packages/cli/bin/run.js → bundle/) with this Node, no shell. */
export function runCli(
  args: readonly string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    timeoutMs?: number;
    stdin?: 'pipe' | 'ignore';
    /** What the stdin pipe holds before it ends (a script's `echo … | encplan …`). */
    input?: string;
  } = {},
): CliRun {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'packages/cli/bin/run.js'), ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    // A pipe (the default) that ends at once; 'ignore' is /dev/null, which src/direct.ts knows holds no device.
    stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
    ...(options.input === undefined ? {} : { input: options.input }),
    timeout: options.timeoutMs ?? 60_000,
    // `assess --all --json` over many disks prints more than spawnSync's 1 MiB default.
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
