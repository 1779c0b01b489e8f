import { readFile, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { EncplanError, toolNotFound, type Host, type HostEffects } from '@encplan/core';

/** Effects of a host that may change nothing: every call is refused (a read-only snapshot, a guard test). */
export function refusedEffects(reason: string): HostEffects {
  const refuse = (): Promise<never> =>
    Promise.reject(new EncplanError('INTERNAL_ERROR', `This test host changes nothing: ${reason}.`));
  return {
    runIdentity: refuse,
    monotonicMs: refuse,
    makeDirectory: refuse,
    createFile: refuse,
    writeTextAtomic: refuse,
    remove: refuse,
    freeBytes: refuse,
    directIoAllowed: refuse,
    processAlive: refuse,
  };
}

/**
 * A read-only host over a snapshot directory: `/sys/...`, `/proc/...` and `/etc/...` are read from
 * `<root>/sys/...` and so on. No tool exists on it (every run is TOOL_NOT_FOUND).
 */
export function createDirectoryHost(root: string): Host {
  const inside = (file: string): string => path.join(root, file);
  const missing = (error: unknown): boolean =>
    ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
  return {
    platform: 'linux',
    cwd: '/',
    privileged: true,
    effects: refusedEffects('a snapshot directory'),
    run: (spec) => Promise.reject(toolNotFound(spec.tool)),
    async readText(file) {
      try {
        return await readFile(inside(file), 'utf8');
      } catch (error) {
        if (missing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') {
          return null;
        }
        throw error;
      }
    },
    async listDir(directory) {
      try {
        return (await readdir(inside(directory))).sort();
      } catch (error) {
        if (missing(error)) {
          return null;
        }
        throw error;
      }
    },
    async realPath(file) {
      try {
        return path.join('/', path.relative(root, await realpath(inside(file))));
      } catch (error) {
        if (missing(error)) {
          return null;
        }
        throw error;
      }
    },
    stat: () => Promise.resolve(null),
    whichTool: () => Promise.resolve(null),
    systemInfo: () => Promise.reject(new Error('no system info in a directory snapshot')),
  };
}
