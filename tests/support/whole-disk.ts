import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { runCli, type CliRun } from './cli.js';
import { createFakeTools, type FakeCase, type FakeTools } from './fake-tools.js';

/**
 * A whole disk with data that this user may read (as /dev/NAME), or undefined: a fixed disk first, loop devices
 * (others' too) come and go. Tests that answer for it with fake tools only read it (stat, sysfs).
 */
export function readableWholeDisk(): string | undefined {
  if (process.platform !== 'linux') {
    return undefined;
  }
  const names = readdirSync('/sys/block').sort((a, b) => Number(/^loop/.test(a)) - Number(/^loop/.test(b)));
  const name = names.find((candidate) => {
    try {
      accessSync(`/dev/${candidate}`, constants.R_OK);
      return (
        statSync(`/dev/${candidate}`).isBlockDevice() &&
        readFileSync(`/sys/block/${candidate}/size`, 'utf8').trim() !== '0'
      );
    } catch {
      return false;
    }
  });
  return name === undefined ? undefined : `/dev/${name}`;
}

/** Why a test that needs {@link readableWholeDisk} is skipped where there is none. */
export const NO_READABLE_WHOLE_DISK =
  'needs a whole disk with data (in /sys/block, size not 0) whose /dev node this user may read (root)';

let runs = 0;
/**
 * One `encplan assess ARGS --json` of the bundled CLI as users run it, with fake tools answering `cases` first on
 * PATH and `trace.hook` preloaded, which writes its record to the file the `trace.variable` environment variable
 * names; its own tool-version cache in `work`. Returns the run, the record's lines and the fake tools, which the
 * caller removes (after looking at what is left of them, if it needs to).
 */
export async function assessWithFakeTools(
  args: readonly string[],
  cases: Readonly<Record<string, readonly FakeCase[]>>,
  trace: { readonly work: string; readonly hook: string; readonly variable: string },
  env: NodeJS.ProcessEnv = {},
): Promise<{ run: CliRun; lines: string[]; fakes: FakeTools }> {
  runs += 1;
  const fakes = await createFakeTools(cases);
  const file = path.join(trace.work, `trace-${String(runs)}.txt`);
  const run = runCli(['assess', ...args, '--json'], {
    stdin: 'ignore',
    env: {
      PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
      NODE_OPTIONS: `--import ${trace.hook}`,
      [trace.variable]: file,
      XDG_CACHE_HOME: path.join(trace.work, `cache-${String(runs)}`),
      NODE_ENV: 'production',
      ...env,
    },
  });
  return { run, lines: readFileSync(file, 'utf8').split('\n'), fakes };
}
