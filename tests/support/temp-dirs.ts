import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const removers: (() => Promise<void>)[] = [];
/** Every folder the helpers made in this test file, removed when the file ends if its tests did not. */
const madeInThisFile = new Set<string>();

/**
 * Records a folder a helper made, to be removed when its test file ends (afterAll of
 * tests/support/remove-at-file-end.setup.ts, a setup file of every project) should no test remove it first: a
 * folder left behind fails the run (tests/support/temp-root.global.ts). Returns it.
 */
export function removeAtFileEnd(dir: string): string {
  madeInThisFile.add(dir);
  return dir;
}

/** Removes every folder {@link removeAtFileEnd} recorded (already removed ones are skipped). */
export async function removeFolders(): Promise<void> {
  const dirs = [...madeInThisFile].reverse();
  madeInThisFile.clear();
  for (const dir of dirs) {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fresh directory under the system temp dir, removed by {@link removeTempDirs} (at the latest when the file ends). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = removeAtFileEnd(await mkdtemp(path.join(tmpdir(), prefix)));
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
