import { readFileSync, readdirSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';

// The node host reads the kernel's pseudo-filesystems (/proc, /sys) synchronously and everything else through
// node:fs/promises (host.ts IN_MEMORY_PATH, issue 28). The promise API is spied on to see which way each read
// went; the answers must be the same either way.
const promises = vi.hoisted(() => ({ calls: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const spied = <F extends (...args: never[]) => unknown>(name: string, fn: F) =>
    ((...args: Parameters<F>) => {
      promises.calls.push(`${name} ${String(args[0])}`);
      return fn(...args);
    }) as F;
  return {
    ...real,
    readFile: spied('readFile', real.readFile),
    readdir: spied('readdir', real.readdir),
    realpath: spied('realpath', real.realpath),
    stat: spied('stat', real.stat),
    access: spied('access', real.access),
  };
});

const { createNodeHost, createRunner } = await import('../../src/node/index.js');

afterEach(async () => {
  promises.calls.length = 0;
  await removeTempDirs();
});

const onLinux = process.platform === 'linux';
const host = () => createNodeHost(createRunner({ searchPath: '', includeSystemDirectories: false }));

describe.skipIf(!onLinux)('node host reads of /proc and /sys (Linux)', () => {
  it('reads /proc and /sys without the thread pool, with the same answers', async () => {
    const h = host();
    expect(await h.readText('/proc/version')).toBe(readFileSync('/proc/version', 'utf8'));
    expect(await h.listDir('/sys/block')).toEqual(readdirSync('/sys/block').sort());
    const [first] = readdirSync('/sys/block');
    expect(first).toBeDefined();
    expect(await h.realPath(`/sys/block/${first ?? ''}`)).toBe(
      realpathSync.native(`/sys/block/${first ?? ''}`),
    );
    const devNull = await h.stat('/dev/null');
    expect(devNull).toMatchObject({ kind: 'character-device', deviceNumber: '1:3', readable: true });
    expect(promises.calls).toEqual([]);
  });

  it('answers null for a missing /proc or /sys path, as for any missing path', async () => {
    const h = host();
    expect(await h.readText('/sys/class/block/encplan-none/queue/rotational')).toBeNull();
    expect(await h.listDir('/proc/encplan-none')).toBeNull();
    expect(await h.realPath('/sys/encplan-none')).toBeNull();
    expect(await h.stat('/dev/encplan-none')).toBeNull();
    expect(promises.calls).toEqual([]);
  });

  it('still reads a sysfs error as an error: a directory is not text', async () => {
    await expect(host().readText('/sys/block')).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });
});

describe('node host reads of other files', () => {
  it('go through node:fs/promises, so a slow disk never stops the event loop', async () => {
    const folder = await tempDir('encplan-host-reads-');
    await mkdir(path.join(folder, 'sub'));
    await writeFile(path.join(folder, 'sub', 'file'), 'text');
    const h = host();
    expect(await h.readText(path.join(folder, 'sub', 'file'))).toBe('text');
    expect(await h.listDir(folder)).toEqual(['sub']);
    expect(await h.stat(path.join(folder, 'sub', 'file'))).toMatchObject({ kind: 'file', readable: true });
    expect(await h.realPath(path.join(folder, 'sub'))).toBe(realpathSync.native(path.join(folder, 'sub')));
    expect(promises.calls.map((call) => call.split(' ')[0])).toEqual([
      'readFile',
      'readdir',
      'stat',
      'access',
      'realpath',
    ]);
  });
});
