import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { assessmentSchemaErrors } from '../support/schema.js';
import { noteSkip } from '../support/skip-reasons.js';

// The Debian package made by `npm run pack:release` (scripts/deb-package.mjs), installed the way its users
// install it, `apt install ./encplan_VERSION_ARCH.deb`, then run as a user runs it: encplan on PATH, its man
// page through man(1), an assessment from a bundle. Removed again (purge) afterwards. Root and apt only.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-deb-'));
const bundle = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
const SBIN_PATH = `/usr/sbin:/sbin:/usr/bin:/bin:${process.env.PATH ?? ''}`;
const environment = { ...process.env, PATH: SBIN_PATH, DEBIAN_FRONTEND: 'noninteractive' };

function has(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { env: environment }).status === 0;
}
function whySkip(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    return 'installing a Debian package needs Linux and root';
  }
  const missing = ['dpkg-deb', 'apt-get', 'dpkg', 'man'].filter((tool) => !has(tool));
  if (missing.length > 0) {
    return `needs ${missing.join(', ')} (Debian's dpkg, apt and man-db)`;
  }
  // Never replace a copy the machine's owner installed: this test installs and purges its own.
  if (spawnSync('dpkg-query', ['-W', 'encplan'], { env: environment }).status === 0) {
    return 'a package named encplan is installed on this machine already; the test would replace it';
  }
  return null;
}
const skipReason = whySkip();
if (skipReason !== null && process.env.CI === 'true' && process.getuid?.() === 0) {
  throw new Error(`the Debian package test cannot run in CI: ${skipReason}`);
}
noteSkip(import.meta.url, skipReason);

function run(
  command: string,
  args: readonly string[],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd: work,
    encoding: 'utf8',
    env: environment,
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(skipReason !== null)('the .deb, installed with apt (root)', () => {
  let deb = '';
  let installed = false;

  beforeAll(() => {
    const made = execFileSync(
      process.execPath,
      [path.join(REPO_ROOT, 'scripts/pack-release.mjs'), '--deb', path.join(work, 'out')],
      { encoding: 'utf8' },
    );
    deb = made.split('\n').find((line) => line.endsWith('.deb')) ?? '';
    expect(path.basename(deb)).toMatch(/^encplan_\d+\.\d+\.\d+_[a-z0-9]+\.deb$/);
    // apt-get takes a local package only as a path with a slash (apt-get(8)).
    const install = run('apt-get', ['install', '-y', '-q', `./${path.relative(work, deb)}`]);
    installed = true;
    expect(install.status, install.stderr).toBe(0);
  }, 600_000);
  afterAll(() => {
    if (installed) {
      run('apt-get', ['purge', '-y', '-q', 'encplan']);
    }
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it('depends on the Debian packages whose tools encplan runs', () => {
    const depends = run('dpkg-query', ['-W', '-f=${Depends}', 'encplan']).stdout;
    for (const name of ['util-linux', 'smartmontools', 'cryptsetup-bin', 'fio', 'e2fsprogs', 'openssl']) {
      expect(depends.split(', ')).toContain(name);
    }
    expect(run('dpkg-query', ['-W', '-f=${Status}', 'encplan']).stdout).toBe('install ok installed');
  });

  it('puts encplan on PATH with its own Node, and answers --version', () => {
    expect(run('sh', ['-c', 'command -v encplan']).stdout.trim()).toBe('/usr/bin/encplan');
    const version = run('encplan', ['--version']);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/^encplan\/\d+\.\d+\.\d+ /);
  });

  it('assesses a bundle and prints a schema-valid document', () => {
    const result = run('encplan', ['assess', '--bundle', bundle, '--json']);
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as { status: string };
    expect(assessmentSchemaErrors(document)).toBeNull();
    // partial: the bundle's loop disk has no SMART (a SMART_UNAVAILABLE warning), as on the machine it came from.
    expect(document.status).toBe('partial');
  });

  it('has a man page that man(1) finds and renders', () => {
    expect(run('man', ['-w', 'encplan']).stdout.trim()).toBe('/usr/share/man/man1/encplan.1.gz');
    const page = run('man', ['-P', 'cat', 'encplan']);
    expect(page.status, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/encplan/);
    expect(page.stdout).toMatch(/assess/);
  });

  it('leaves nothing behind when purged', () => {
    const purge = run('apt-get', ['purge', '-y', '-q', 'encplan']);
    expect(purge.status, purge.stderr).toBe(0);
    installed = false;
    expect(existsSync('/usr/bin/encplan')).toBe(false);
    expect(existsSync('/usr/lib/encplan')).toBe(false);
  });
});
