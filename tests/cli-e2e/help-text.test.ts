import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiJson, helpCacheFile, helpConditions } from '../../packages/cli/src/help-fast.js';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';
import { hasScript, onTerminal } from '../support/pseudo-terminal.js';
import { noteSkip } from '../support/skip-reasons.js';

// Help from text oclif rendered (issue 28, packages/cli/src/help-fast.ts): every subject's help, printed by
// the fast path, must be byte for byte what oclif prints, on a pipe and on a terminal, 80 and 120 columns wide;
// every other command line must behave as oclif makes it behave.
noteSkip(import.meta.url, hasScript ? null : 'needs script(1) from util-linux for a pseudo-terminal');

const work = mkdtempSync(path.join(tmpdir(), 'encplan-help-text-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const shipped = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'packages/cli/bundle/help-text.json'), 'utf8'),
) as {
  build: string;
  texts: Record<string, string>;
};
const subjects = Object.keys(shipped.texts);
const hook = pathToFileURL(path.join(REPO_ROOT, 'tests/support/module-trace.mjs')).href;
const cli = path.join(REPO_ROOT, 'packages/cli');

let folders = 0;
/** A home and cache folder of their own (no user theme or plugins, an empty cache), as a user's environment. */
function freshUser(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  folders += 1;
  const home = path.join(work, `user-${String(folders)}`);
  mkdirSync(home, { recursive: true });
  return {
    HOME: home,
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_CONFIG_HOME: undefined,
    XDG_DATA_HOME: undefined,
    NODE_ENV: undefined,
    OCLIF_COLUMNS: undefined,
    COLUMNS: undefined,
    FORCE_COLOR: undefined,
    ...extra,
  };
}

/** The environment that records the module files a run loads into `trace`. */
function traced(env: NodeJS.ProcessEnv, trace: string): NodeJS.ProcessEnv {
  return { ...env, NODE_OPTIONS: `--import ${hook}`, ENCPLAN_MODULE_TRACE: trace };
}
function loadedFiles(trace: string): string[] {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:') && url !== hook)
    .map((url) => path.relative(cli, fileURLToPath(url)));
}

const run = promisify(execFile);
/** `encplan ARGS` with stdout on a pipe: status, stdout and stderr. */
async function onPipe(args: readonly string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(cli, 'bin/run.js'), ...args], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { status: 0, raw: stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { status: failed.code ?? null, raw: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const conditions = [
  { name: 'a pipe, 80 columns', terminal: false, columns: 80 },
  { name: 'a pipe, OCLIF_COLUMNS=120', terminal: false, columns: 120 },
  { name: 'an 80-column terminal', terminal: true, columns: 80 },
  { name: 'a 120-column terminal', terminal: true, columns: 120 },
];

describe('every subject’s help, fast path and oclif alike', () => {
  it.each(conditions)(
    'on $name',
    async ({ terminal, columns }) => {
      if (terminal && !hasScript) {
        return;
      }
      const user = freshUser(terminal || columns === 80 ? {} : { OCLIF_COLUMNS: String(columns) });
      const print = (args: readonly string[], env: NodeJS.ProcessEnv) =>
        terminal ? onTerminal(args, columns, env) : onPipe(args, env);
      // Two subjects at a time: the machine is shared.
      for (let index = 0; index < subjects.length; index += 2) {
        await Promise.all(
          subjects.slice(index, index + 2).map(async (subject, offset) => {
            const words = subject === '' ? [] : subject.split(' ');
            const oclif = await print([...words, '--help'], { ...user, ENCPLAN_HELP_CACHE: '0' });
            expect(oclif.status).toBe(0);
            // On a terminal oclif's section headers are bold; on a pipe nothing is coloured.
            expect({ subject, bold: oclif.raw.includes('\u001b[1m') }).toEqual({ subject, bold: terminal });
            // The first run may be oclif's (and kept in the cache); the next ones are the fast path's.
            const first = await print([...words, '--help'], user);
            const trace = path.join(work, `trace-${String(folders)}-${String(index + offset)}.txt`);
            const viaFlag = await print([...words, '--help'], traced(user, trace));
            const viaHelp = await print(['help', ...words], user);
            expect({ subject, first: first.raw, viaFlag: viaFlag.raw, viaHelp: viaHelp.raw }).toEqual({
              subject,
              first: oclif.raw,
              viaFlag: oclif.raw,
              viaHelp: oclif.raw,
            });
            expect([first.status, viaFlag.status, viaHelp.status]).toEqual([0, 0, 0]);
            const loaded = loadedFiles(trace);
            expect(loaded).toEqual(['bin/run.js', 'bundle/help-fast.js']);
          }),
        );
      }
      // On a pipe 80 columns wide the build's text serves every subject: nothing needed keeping; else one file each.
      const cache = path.join(String(user.XDG_CACHE_HOME), 'encplan');
      expect(existsSync(cache) ? readdirSync(cache).length : 0).toBe(
        !terminal && columns === 80 ? 0 : subjects.length,
      );
    },
    240_000,
  );
});

describe('what oclif answers stays oclif’s', () => {
  it('unknown words, did-you-mean, flags with --help, `--` and the help command’s own flags: same status, stdout and stderr', async () => {
    const user = freshUser();
    for (const args of [
      ['asess', '--help'],
      ['help', 'asess'],
      ['help', 'nonexistent'],
      ['benchmark', 'nope', '--help'],
      ['assess', '--json', '--help'],
      ['--help', 'assess'],
      ['assess', '--', '--help'],
      ['help', 'assess', '--help'],
      ['help', '-h', 'assess'],
      ['benchmark'],
      ['Assess', '--help'],
    ]) {
      const oclif = await onPipe(args, { ...user, ENCPLAN_HELP_CACHE: '0' });
      const now = await onPipe(args, user);
      const again = await onPipe(args, user);
      expect({ args, ...now }).toEqual({ args, ...oclif });
      expect({ args, ...again }).toEqual({ args, ...oclif });
    }
    // None of these was kept: only the known subjects are.
    expect(existsSync(path.join(String(user.XDG_CACHE_HOME), 'encplan'))).toBe(false);
  });

  it('a user theme or user plugins: oclif answers (they may change what it prints)', async () => {
    const theme = freshUser();
    mkdirSync(path.join(String(theme.HOME), '.config/encplan'), { recursive: true });
    writeFileSync(path.join(String(theme.HOME), '.config/encplan/theme.json'), '{"sectionHeader":"red"}');
    const plugins = freshUser();
    mkdirSync(path.join(String(plugins.HOME), '.local/share/encplan'), { recursive: true });
    writeFileSync(path.join(String(plugins.HOME), '.local/share/encplan/package.json'), '{}');
    for (const [name, user] of Object.entries({ theme, plugins })) {
      const trace = path.join(work, `trace-${name}.txt`);
      const help = await onPipe(['assess', '--help'], traced(user, trace));
      expect(help.status).toBe(0);
      expect(help.raw).toBe(shipped.texts.assess);
      expect(loadedFiles(trace)).toContain('bundle/oclif-entry.js');
    }
  });

  it('an unwritable cache folder costs nothing but the speed', async () => {
    const user = freshUser({ OCLIF_COLUMNS: '100' });
    writeFileSync(path.join(String(user.HOME), 'cache'), 'a file where the cache folder would be');
    const oclif = await onPipe(['plan', '--help'], { ...user, ENCPLAN_HELP_CACHE: '0' });
    for (let round = 0; round < 2; round += 1) {
      expect(await onPipe(['plan', '--help'], user)).toEqual(oclif);
    }
    expect(oclif.stderr).toBe('');
  });

  it('keeping a text removes the texts kept for other builds', async () => {
    const user = freshUser({ OCLIF_COLUMNS: '100' });
    const cache = path.join(String(user.XDG_CACHE_HOME), 'encplan');
    mkdirSync(cache, { recursive: true });
    writeFileSync(path.join(cache, 'help-0123456789abcdef-00000000.json'), '{}');
    writeFileSync(path.join(cache, 'tool-versions.json'), '{}');
    expect((await onPipe(['plan', '--help'], user)).status).toBe(0);
    const kept = readdirSync(cache).sort();
    expect(kept).toHaveLength(2);
    expect(kept[0]).toMatch(new RegExp(`^help-${shipped.build}-[0-9a-f]{8}\\.json$`, 'u'));
    expect(kept[1]).toBe('tool-versions.json');
  });

  it('a kept text is served only for its build and its conditions', () => {
    const pipe = { stdoutIsTTY: false, stderrIsTTY: false, columns: undefined };
    /** A user whose cache holds, in the file for this run's conditions, `text` kept for `build` and `kept`. */
    const planted = (build: string | undefined, kept: string | undefined) => {
      const user = freshUser({ OCLIF_COLUMNS: '100' });
      const environment = Object.fromEntries(
        Object.entries({ ...process.env, ...user }).filter(([, value]) => value !== undefined),
      );
      const here = helpConditions(environment, pipe);
      const file = helpCacheFile(environment, shipped.build, here, 'assess');
      mkdirSync(path.dirname(file), { recursive: true });
      const texts = { assess: 'PLANTED\n' };
      writeFileSync(
        file,
        asciiJson({ format: 1, build: build ?? shipped.build, conditions: kept ?? here, texts }),
      );
      return runCli(['assess', '--help'], { env: user }).stdout;
    };
    const oclif = runCli(['assess', '--help'], {
      env: freshUser({ OCLIF_COLUMNS: '100', ENCPLAN_HELP_CACHE: '0' }),
    });
    expect(oclif.stdout).toContain('USAGE');
    expect(planted(undefined, undefined)).toBe('PLANTED\n');
    expect(planted('another-build', undefined)).toBe(oclif.stdout);
    expect(planted(undefined, 'other conditions')).toBe(oclif.stdout);
  });
});
