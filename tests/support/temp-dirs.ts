import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const removers: (() => Promise<void>)[] = [];

/** A fresh directory under the system temp dir, removed by {@link removeTempDirs}. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  removers.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Registers something with a `remove()` (fake tools) to be removed by {@link removeTempDirs}; returns it. */
export function removeAfterTest<T extends { remove(): Promise<void> }>(resource: T): T {
  removers.push(() => resource.remove());
  return resource;
}

/**
 * Removes everything {@link removeAfterTest} got and every directory {@link tempDir} made, newest first and
 * one at a time (a mount inside a temp dir must be gone before the dir is removed); every remover runs even
 * when one fails, and the first failure is rethrown. Call it in afterEach.
 */
export async function removeTempDirs(): Promise<void> {
  const failures: unknown[] = [];
  for (const remove of removers.splice(0).reverse()) {
    try {
      await remove();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) {
    throw failures[0];
  }
}
