import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolVersionCacheFile, withToolVersionCache } from '../../src/node/tool-version-cache.js';
import type { CommandOutput, CommandSpec, ToolName } from '../../src/ports.js';

const work = mkdtempSync(path.join(tmpdir(), 'encplan-version-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Fake binaries (files whose identity the cache reads) and a run that counts what it was asked. */
function setUp(name: string) {
  const folder = path.join(work, name);
  mkdirSync(folder, { recursive: true });
  const binaries: Partial<Record<ToolName, string>> = {};
  for (const tool of ['lsblk', 'blkid', 'smartctl'] as const) {
    binaries[tool] = path.join(folder, tool);
    writeFileSync(path.join(folder, tool), '#!/bin/sh\n');
  }
  const asked: string[] = [];
  const run = (spec: CommandSpec): Promise<CommandOutput> => {
    asked.push([spec.tool, ...spec.args].join(' '));
    return Promise.resolve({
      exitCode: spec.tool === 'smartctl' ? 1 : 0,
      stdout: `${spec.tool} 2.38.1\n`,
      stderr: '',
      durationMs: 5,
    });
  };
  const resolve = (tool: ToolName): Promise<string | null> => Promise.resolve(binaries[tool] ?? null);
  return { binaries, asked, run, resolve };
}

describe('tool versions asked once per binary', () => {
  it('answers the second run from the cache, asks again when the binary changed, and keeps concurrent answers', async () => {
    const { binaries, asked, run, resolve } = setUp('a');
    const file = path.join(work, 'cache-a', 'encplan', 'tool-versions.json');
    const first = withToolVersionCache(run, resolve, file);
    const answers = await Promise.all(
      (['lsblk', 'blkid'] as const).map((tool) => first({ tool, args: ['--version'], timeoutMs: 5000 })),
    );
    expect(answers.map((answer) => answer.stdout)).toEqual(['lsblk 2.38.1\n', 'blkid 2.38.1\n']);
    // Asked concurrently: each once, in whichever order the two lookups finish.
    expect([...asked].sort()).toEqual(['blkid --version', 'lsblk --version']);

    // A new process (a new wrapper) over the same cache file asks neither again; other commands still run.
    const second = withToolVersionCache(run, resolve, file);
    expect((await second({ tool: 'lsblk', args: ['--version'], timeoutMs: 5000 })).stdout).toBe(
      'lsblk 2.38.1\n',
    );
    expect((await second({ tool: 'blkid', args: ['--version'], timeoutMs: 5000 })).durationMs).toBe(0);
    await second({ tool: 'lsblk', args: ['--json'], timeoutMs: 5000 });
    expect(asked).toHaveLength(3);
    expect(asked.at(-1)).toBe('lsblk --json');

    // An upgraded binary (other size) is asked again.
    writeFileSync(binaries.lsblk ?? '', '#!/bin/sh\n# upgraded\n');
    await withToolVersionCache(run, resolve, file)({ tool: 'lsblk', args: ['--version'], timeoutMs: 5000 });
    expect(asked.at(-1)).toBe('lsblk --version');
    expect(asked).toHaveLength(4);
  });

  it('never keeps a failed answer, and works without a writable cache folder', async () => {
    const { asked, run, resolve } = setUp('b');
    const blocked = path.join(work, 'not-a-folder');
    writeFileSync(blocked, '');
    chmodSync(blocked, 0o400);
    const file = path.join(blocked, 'encplan', 'tool-versions.json');
    for (let round = 0; round < 2; round += 1) {
      const wrapped = withToolVersionCache(run, resolve, file);
      expect((await wrapped({ tool: 'smartctl', args: ['--version'], timeoutMs: 5000 })).exitCode).toBe(1);
      expect((await wrapped({ tool: 'lsblk', args: ['--version'], timeoutMs: 5000 })).exitCode).toBe(0);
    }
    expect(asked).toEqual(['smartctl --version', 'lsblk --version', 'smartctl --version', 'lsblk --version']);
  });

  it('ignores a corrupt cache file', async () => {
    const { asked, run, resolve } = setUp('c');
    const file = path.join(work, 'cache-c.json');
    writeFileSync(file, '{not json');
    await withToolVersionCache(run, resolve, file)({ tool: 'lsblk', args: ['--version'], timeoutMs: 5000 });
    expect(asked).toEqual(['lsblk --version']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('lives under XDG_CACHE_HOME when it is set to an absolute path, else under ~/.cache', () => {
    expect(toolVersionCacheFile({ XDG_CACHE_HOME: '/var/cache/me' })).toBe(
      '/var/cache/me/encplan/tool-versions.json',
    );
    expect(toolVersionCacheFile({ XDG_CACHE_HOME: 'relative' })).toMatch(
      /\/\.cache\/encplan\/tool-versions\.json$/,
    );
  });
});
