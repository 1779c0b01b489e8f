import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { runCli } from '../support/cli.js';

// Issue 25: on a full filesystem `assess --html FILE` and `collect --out DIR` failed (exit 2) but left a 0-byte
// file, and the retry was refused with "bundle.json: it already exists". Here on a real full filesystem (a
// 64 KiB tmpfs this test mounts), nothing may be left behind, and the retry with room must succeed.

function skipReason(): string | null {
  if (process.getuid?.() !== 0) {
    return 'not root: mounting a tiny tmpfs and attaching a loop device need root';
  }
  if (!existsSync(path.join(REPO_ROOT, 'packages/cli/dist/commands/index.js'))) {
    return 'the CLI is not built (run npm run build first)';
  }
  return null;
}

const reason = skipReason();
if (reason !== null) {
  console.log(`Skipping full-filesystem integration tests: ${reason}.`);
}

function run(tool: string, args: string[]): string {
  const result = spawnSync(tool, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')}: ${result.stderr}`);
  }
  return result.stdout.trim();
}

/** Fills the filesystem holding `file` until it is full (ENOSPC). */
async function fill(file: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const chunk = Buffer.alloc(4096, 1);
    for (;;) {
      await handle.write(chunk);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') {
      throw error;
    }
  } finally {
    await handle.close();
  }
}

describe.skipIf(reason !== null)('writing on a full filesystem leaves nothing behind (issue 25)', () => {
  let scratch = '';
  let full = '';
  let image = '';
  let loop = '';

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'encplan-it-full-'));
    full = path.join(scratch, 'full');
    run('mkdir', [full]);
    run('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'encplan-it-full', full]);
    await fill(path.join(full, 'filler'));
    image = path.join(scratch, 'disk.img');
    run('truncate', ['-s', '64M', image]);
    loop = run('losetup', ['--find', '--show', image]);
  });

  afterAll(async () => {
    if (loop !== '') {
      run('losetup', ['--detach', loop]);
    }
    if (full !== '') {
      spawnSync('umount', [full]);
    }
    await rm(scratch, { recursive: true, force: true });
  });

  it('assess --html FILE: exit 2, no file; with room the same command succeeds', async () => {
    const bundle = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
    const html = path.join(full, 'report.html');
    const failed = runCli(['assess', '--bundle', bundle, '--html', html]);
    expect(failed.status, failed.stderr).toBe(2);
    expect(failed.stderr).toContain('the disk is full');
    expect(await readdir(full)).toEqual(['filler']);
    await rm(path.join(full, 'filler'));
    const retried = runCli(['assess', '--bundle', bundle, '--html', html]);
    expect(retried.status, retried.stderr).not.toBe(2);
    expect((await readdir(full)).sort()).toEqual(['report.html']);
    await rm(html);
    await fill(path.join(full, 'filler'));
  });

  it('collect --out DIR: exit 2, neither bundle.json nor DIR left; the retry is not refused', async () => {
    const out = path.join(full, 'bundle');
    const failed = runCli(['collect', loop, '--out', out, '--json']);
    expect(failed.status, failed.stderr).toBe(2);
    expect(await readdir(full)).toEqual(['filler']);
    await rm(path.join(full, 'filler'));
    run('mount', ['-o', 'remount,size=8m', full]);
    const retried = runCli(['collect', loop, '--out', out, '--json']);
    expect(retried.status, retried.stderr).toBe(0);
    expect(await readdir(out)).toEqual(['bundle.json']);
  });
});
