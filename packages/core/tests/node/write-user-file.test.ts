import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import {
  writeFileAtomic,
  writeUserFile,
  type AtomicWriteFs,
  type AtomicWriteHandle,
} from '../../src/node/write-user-file.js';
import { writeBundleDirectory } from '../../src/node/bundle-files.js';
import { removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';

afterEach(removeTempDirs);

type Step = 'none' | 'open' | 'write' | 'sync' | 'link' | 'rename';

/** The real calls, with one step failing as a full disk does (ENOSPC), and a log of what was called. */
async function failingFs(failAt: Step): Promise<{ fs: AtomicWriteFs; calls: string[] }> {
  const real = await import('node:fs/promises');
  const calls: string[] = [];
  const enospc = (call: string) => {
    calls.push(`${call} ENOSPC`);
    return Object.assign(new Error(`ENOSPC: no space left on device, ${call}`), { code: 'ENOSPC' });
  };
  const fs: AtomicWriteFs = {
    async open(file, flags, mode) {
      if (failAt === 'open') {
        throw enospc('open');
      }
      calls.push('open');
      const handle = await real.open(file, flags, mode);
      const wrapped: AtomicWriteHandle = {
        async writeFile(content) {
          if (failAt === 'write') {
            // A full disk takes part of the data, then fails.
            await handle.writeFile(content.slice(0, 3));
            throw enospc('write');
          }
          calls.push('write');
          await handle.writeFile(content);
        },
        async sync() {
          if (failAt === 'sync') {
            throw enospc('fsync');
          }
          calls.push('fsync');
          await handle.sync();
        },
        close: () => handle.close(),
      };
      return wrapped;
    },
    async link(from, to) {
      if (failAt === 'link') {
        throw enospc('link');
      }
      calls.push('link');
      await real.link(from, to);
    },
    async rename(from, to) {
      if (failAt === 'rename') {
        throw enospc('rename');
      }
      calls.push('rename');
      await real.rename(from, to);
    },
    unlink: (file) => real.unlink(file),
    mkdir: (folder, mode) => real.mkdir(folder, { recursive: true, mode }),
    rmdir: (folder) => real.rmdir(folder),
    exists: (file) =>
      real.stat(file).then(
        () => true,
        () => false,
      ),
  };
  return { fs, calls };
}

describe('writeFileAtomic: a file is complete or absent (issue 25)', () => {
  it('fsyncs before the file gets its name, and leaves no temporary file', async () => {
    const dir = await tempDir('encplan-test-write-');
    const { fs, calls } = await failingFs('none');
    await writeFileAtomic(path.join(dir, 'report.html'), '<html></html>', { mode: 0o644, fs });
    expect(calls).toEqual(['open', 'write', 'fsync', 'rename']);
    expect(await readdir(dir)).toEqual(['report.html']);
    expect(await readFile(path.join(dir, 'report.html'), 'utf8')).toBe('<html></html>');
  });

  it.each(['open', 'write', 'sync', 'rename'] as const)(
    'a failure at %s leaves nothing behind, and the retry succeeds',
    async (failAt) => {
      const dir = await tempDir('encplan-test-write-');
      const file = path.join(dir, 'report.html');
      const { fs } = await failingFs(failAt);
      const error = await writeUserFile(file, 'complete report', { what: 'HTML report', fs }).catch(
        (e: unknown) => e,
      );
      expect(isEncplanError(error, 'INVALID_ARGUMENT')).toBe(true);
      expect((error as Error).message).toContain('the disk is full');
      expect(await readdir(dir)).toEqual([]);
      await writeUserFile(file, 'complete report', { what: 'HTML report' });
      expect(await readFile(file, 'utf8')).toBe('complete report');
    },
  );

  it.each(['write', 'link'] as const)(
    'a bundle whose write fails at %s leaves neither bundle.json nor the folder it made: the retry is not refused',
    async (failAt) => {
      const parent = await tempDir('encplan-test-bundle-');
      const out = path.join(parent, 'new', 'bundle');
      const { fs } = await failingFs(failAt);
      const error = await writeUserFile(path.join(out, 'bundle.json'), '{}\n', {
        what: 'bundle',
        exclusive: true,
        createFolder: true,
        fs,
      }).catch((e: unknown) => e);
      expect(isEncplanError(error, 'INVALID_ARGUMENT')).toBe(true);
      expect(await readdir(parent)).toEqual([]);
      await writeUserFile(path.join(out, 'bundle.json'), '{}\n', {
        what: 'bundle',
        exclusive: true,
        createFolder: true,
      });
      expect(await readFile(path.join(out, 'bundle.json'), 'utf8')).toBe('{}\n');
    },
  );

  it('a process that exits while the content is written (Ctrl-C: process.exit) removes the temporary file', async () => {
    const dir = await tempDir('encplan-test-write-');
    const { fs } = await failingFs('none');
    const before = new Set(process.listeners('exit'));
    let leftAtExit: string[] | null = null;
    const exiting: AtomicWriteFs = {
      ...fs,
      async open(file, flags, mode) {
        const handle = await fs.open(file, flags, mode);
        return {
          ...handle,
          async writeFile(content) {
            await handle.writeFile(content);
            // What process.exit(130) runs now: every 'exit' listener, synchronously.
            for (const listener of process.listeners('exit').filter((entry) => !before.has(entry))) {
              listener(130);
            }
            leftAtExit = await readdir(dir);
          },
        };
      },
    };
    await writeFileAtomic(path.join(dir, 'report.html'), '<html></html>', { mode: 0o644, fs: exiting }).catch(
      () => undefined,
    );
    expect(leftAtExit).toEqual([]);
    // Once the write is over, the listener is gone.
    expect(process.listeners('exit').filter((entry) => !before.has(entry))).toEqual([]);
  });

  it('exclusive: an existing file is refused and kept as it was, with no temporary file left', async () => {
    const dir = await tempDir('encplan-test-write-');
    await mkdir(path.join(dir, 'out'));
    await writeFile(path.join(dir, 'out', 'bundle.json'), 'earlier\n');
    const error = await writeUserFile(path.join(dir, 'out', 'bundle.json'), 'new\n', {
      what: 'bundle',
      exclusive: true,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain('it already exists');
    expect(await readdir(path.join(dir, 'out'))).toEqual(['bundle.json']);
    expect(await readFile(path.join(dir, 'out', 'bundle.json'), 'utf8')).toBe('earlier\n');
  });

  it('writes a bundle 0600 and replaces a report in place (rename)', async () => {
    const dir = await tempDir('encplan-test-write-');
    const file = await writeBundleDirectory(path.join(dir, 'b'), { version: 1 } as never);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeUserFile(path.join(dir, 'r.html'), 'one', { what: 'HTML report' });
    await writeUserFile(path.join(dir, 'r.html'), 'two', { what: 'HTML report' });
    expect(await readFile(path.join(dir, 'r.html'), 'utf8')).toBe('two');
    expect((await readdir(dir)).sort()).toEqual(['b', 'r.html']);
  });
});
