import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli, type CliRun } from './cli.js';
import { REPO_ROOT } from './fake-tools.js';

/**
 * One command line run twice, stdin on /dev/null unless `stdin` says 'pipe': as a user runs it (the direct path of packages/cli/src/
 * direct.ts where it applies) and with ENCPLAN_DIRECT=0 (oclif always). `direct` says whether the first run
 * loaded oclif's entry (tests/support/module-trace.mjs); the outputs are masked where they name the clock.
 */
export function bothPaths(
  args: readonly string[],
  traceFile: string,
  env: NodeJS.ProcessEnv = {},
  stdin: 'pipe' | 'ignore' = 'ignore',
): { direct: boolean; user: CliRun; oclif: CliRun } {
  const hook = pathToFileURL(path.join(REPO_ROOT, 'tests/support/module-trace.mjs')).href;
  const user = runCli(args, {
    stdin,
    env: { ...env, NODE_OPTIONS: `--import ${hook}`, ENCPLAN_MODULE_TRACE: traceFile },
  });
  const loaded = readFileSync(traceFile, 'utf8');
  rmSync(traceFile, { force: true });
  const oclif = runCli(args, { stdin, env: { ...env, ENCPLAN_DIRECT: '0' } });
  return { direct: !loaded.includes('bundle/oclif-entry.js'), user: masked(user), oclif: masked(oclif) };
}

/** A run with its clock readings replaced: ISO timestamps, and the durations and order of `--verbose`'s calls. */
function masked(run: CliRun): CliRun {
  const clock = (text: string) =>
    text
      .replaceAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, 'TIME')
      .replaceAll(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, 'TIME')
      .replaceAll(/ +\d+ ms\b/g, ' N ms')
      .replaceAll(/^\(node:\d+\)/gm, '(node:PID)');
  return {
    status: run.status,
    stdout: clock(run.stdout),
    stderr: clock(run.stderr).split('\n').sort().join('\n'),
  };
}
