import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { assessmentSchemaErrors } from '../support/schema.js';

// The packed release, installed the way a user installs it: `npm install -g` of the tarball into an empty
// prefix, offline (the tarball must need nothing from a registry), then run from a folder outside the repo.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-release-'));
const prefix = path.join(work, 'prefix');
const bin = path.join(prefix, 'bin/encplan');
const bundle = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
let tarball = '';

function installed(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(bin, args, {
    cwd: work,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  tarball = execFileSync(
    process.execPath,
    [path.join(REPO_ROOT, 'scripts/pack-release.mjs'), path.join(work, 'out')],
    { encoding: 'utf8' },
  ).trim();
  execFileSync(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      prefix,
      '--offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      tarball,
    ],
    {
      cwd: work,
      encoding: 'utf8',
    },
  );
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed release, installed into an empty prefix', () => {
  it('is one tarball with no dependencies to fetch, holding the CLI bundle, the wizard and the man page', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(prefix, 'lib/node_modules/encplan/package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'encplan', bin: { encplan: './bin/run.js' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(existsSync(path.join(prefix, 'lib/node_modules/encplan/renderer/index.html'))).toBe(true);
    expect(existsSync(path.join(prefix, 'share/man/man1/encplan.1'))).toBe(true);
  });

  it('answers --version, help and a mistyped command', () => {
    const version = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(installed(['--version']).stdout).toBe(
      `encplan/${version} ${process.platform}-${process.arch} node-${process.version}\n`,
    );
    expect(installed(['help']).stdout).toContain('assess');
    expect(installed(['asess']).stderr).toContain('Did you mean "encplan assess"?');
  });

  it('prints the help oclif rendered for the release, as oclif prints it (src/help-fast.ts)', () => {
    const texts = JSON.parse(
      readFileSync(path.join(prefix, 'lib/node_modules/encplan/bundle/help-text.json'), 'utf8'),
    ) as { texts: Record<string, string> };
    const user = { XDG_CACHE_HOME: path.join(work, 'cache'), NODE_ENV: undefined, COLUMNS: undefined };
    for (const words of [[], ['assess'], ['benchmark', 'io']]) {
      const oclif = installed([...words, '--help'], { ...user, ENCPLAN_HELP_CACHE: '0' });
      expect(oclif.status).toBe(0);
      expect(installed([...words, '--help'], user)).toEqual(oclif);
      expect(texts.texts[words.join(' ')]).toBe(oclif.stdout);
    }
  });

  it('assesses a bundle and prints an envelope valid against the committed schema', () => {
    const run = installed(['assess', '--bundle', bundle, '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(assessmentSchemaErrors(JSON.parse(run.stdout))).toBeNull();
  });

  it('ships a man page that documents every command and that groff reads without a warning', () => {
    const page = readFileSync(path.join(prefix, 'share/man/man1/encplan.1'), 'utf8');
    for (const command of [
      'assess',
      'plan',
      'health',
      'collect',
      'doctor',
      'cleanup',
      'benchmark io',
      'benchmark ciphers',
      'ui',
      'completion',
      'help',
      'schema',
      'version',
    ]) {
      expect(page).toContain(`.SS "encplan ${command}`);
    }
    expect(page).not.toContain('.SS "encplan man');
    const groff = spawnSync(
      'groff',
      ['-man', '-Tutf8', '-ww', '-z', path.join(prefix, 'share/man/man1/encplan.1')],
      { encoding: 'utf8' },
    );
    if (groff.error === undefined) {
      expect(groff.stderr).toBe('');
      expect(groff.status).toBe(0);
    } else {
      console.warn(`[release] groff not installed (${groff.error.message}): the man page was not rendered.`);
    }
  });

  it('serves the wizard with encplan ui and stops on SIGINT', async () => {
    const child = spawn(bin, ['ui', '--json'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!stdout.trimEnd().endsWith('}') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { result } = JSON.parse(stdout) as { result: { url: string } };
      const page = await fetch(result.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<!doctype html>');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(130);
  });
});
