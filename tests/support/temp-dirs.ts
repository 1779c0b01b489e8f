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

/** Removes every directory {@link tempDir} made and everything {@link removeAfterTest} got; call it in afterEach. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(removers.splice(0).map((remove) => remove()));
}
