import {
  constants as fsConstants,
  readFileSync,
  readdirSync,
  realpathSync,
  statSync,
  type BigIntStats,
} from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  readFile,
  readdir,
  readlink,
  realpath,
  rm,
  rmdir,
  stat,
  statfs,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EncplanError } from '../errors.js';
import type { Host, HostEffects, PathKind, PathStat, SystemInfoSnapshot } from '../ports.js';
import type { Runner } from './process/run-command.js';
import { withToolVersionCache } from './tool-version-cache.js';
import { canAccess, canAccessSync } from './can-access.js';
import { monotonicNowMs } from './clock.js';
import { currentPlatform } from './platform.js';
import { userPathError } from './user-files.js';
import { writeFileAtomic } from './write-user-file.js';
import { parseProcStartTime } from '../parsers/proc/parse-proc-stat.js';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENXIO' || code === 'ENODEV';
}

function rethrow(error: unknown, path: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    throw new EncplanError('PERMISSION_DENIED', `Permission denied reading ${path}.`, {
      cause: error,
      details: { path },
    });
  }
  if (code === 'ENAMETOOLONG' || code === 'ELOOP') {
    // A path the user typed (a device, a target) that Linux refuses: the user's error, not encplan's.
    throw userPathError(error, path, 'path');
  }
  throw new EncplanError('INTERNAL_ERROR', `Could not read ${path}: ${(error as Error).message}`, {
    cause: error,
  });
}

/**
 * Files of the kernel's pseudo-filesystems, read synchronously: proc(5) and sysfs(5) are "an interface to kernel
 * data structures", generated in memory when read, and a /dev node's metadata (stat, access) is devtmpfs's, in
 * memory too: none waits on a disk. Read through the thread pool instead, each of an assessment's ~80 reads of
 * /sys and /proc cost four round trips of the event loop (open, fstat, read, close) with the main thread idle
 * in between, ~6 ms of a one-disk run (issue 28, docs/performance.md). Everything else (a file on a disk, a
 * device's contents) stays asynchronous.
 */
const IN_MEMORY_PATH = /^\/(?:proc|sys)\//;
const IN_MEMORY_METADATA = /^\/(?:proc|sys|dev)\//;

/** `fromMemory` for an in-memory path (IN_MEMORY_PATH or `pattern`), else `fromDisk`. */
function byPath<T>(
  path: string,
  fromMemory: () => T,
  fromDisk: () => Promise<T>,
  pattern: RegExp = IN_MEMORY_PATH,
): () => Promise<T> {
  return pattern.test(path) ? () => Promise.resolve().then(fromMemory) : fromDisk;
}

/** Whether this process may reach `path` as `mode` asks: access(2), synchronously for /dev, /proc, /sys. */
function mayAccess(path: string, mode: number): Promise<boolean> {
  return byPath(
    path,
    () => canAccessSync(path, mode),
    () => canAccess(path, mode),
    IN_MEMORY_METADATA,
  )();
}

/** What `read` answers; null when the path does not exist; typed errors for the rest. */
async function unlessMissing<T>(path: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isMissing(error)) {
      return null;
    }
    return rethrow(error, path);
  }
}

function deviceNumber(value: number | bigint): string {
  // Linux encodes dev_t as major in bits 8-19 and 32-43, minor in bits 0-7 and 20-31 (see <sys/sysmacros.h>).
  const dev = BigInt(value);
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major.toString()}:${minor.toString()}`;
}

function writeFailed(error: unknown, target: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    throw new EncplanError('PERMISSION_DENIED', `Permission denied writing ${target}.`, {
      cause: error,
      details: { path: target },
    });
  }
  throw new EncplanError('INTERNAL_ERROR', `Could not change ${target}: ${(error as Error).message}`, {
    cause: error,
    details: { path: target },
  });
}

async function guarded<T>(target: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    return writeFailed(error, target);
  }
}

/** Where state files live: /run/encplan for root (tmpfs, gone after reboot like the mounts), else the temp dir. */
export function defaultStateDirectory(): string {
  return process.getuid?.() === 0 ? '/run/encplan' : path.join(tmpdir(), 'encplan-state');
}

/** Random bytes; node:crypto is loaded on first use, by the runs that need it (benchmarks), not at start-up. */
function randomBytesOf(size: number): Buffer {
  return process.getBuiltinModule('node:crypto').randomBytes(size);
}

/** The text of a /proc file or link, or null where there is none (not Linux, hidepid, a sandbox). */
async function procText(read: () => Promise<string>): Promise<string | null> {
  try {
    return await read();
  } catch {
    return null;
  }
}

/** The real effects: node:fs, the process table, the monotonic clock. */
function createNodeEffects(): HostEffects {
  return {
    runIdentity: async () => {
      const stat = await procText(() => readFile('/proc/self/stat', 'utf8'));
      return {
        pid: process.pid,
        nonce: randomBytesOf(4).toString('hex'),
        tempDirectory: tmpdir(),
        stateDirectory: defaultStateDirectory(),
        startedAt: new Date().toISOString(),
        pidNamespace: await procText(() => readlink('/proc/self/ns/pid')),
        processStartTime: stat === null ? null : parseProcStartTime(stat),
      };
    },
    monotonicMs: () => Promise.resolve(Math.round(monotonicNowMs())),
    makeDirectory: (target, options) =>
      guarded(target, async () => {
        await mkdir(target, { mode: options.mode, recursive: options.recursive === true });
      }),
    createFile: (target, options) =>
      guarded(target, async () => {
        if (options.content.kind === 'random') {
          await writeFile(target, randomBytesOf(options.content.sizeBytes), {
            mode: options.mode,
            flag: 'wx',
          });
          return;
        }
        const handle = await open(target, 'wx', options.mode);
        try {
          await handle.truncate(options.content.sizeBytes);
        } finally {
          await handle.close();
        }
      }),
    writeTextAtomic: (target, text, mode) => guarded(target, () => writeFileAtomic(target, text, { mode })),
    remove: (target, options) =>
      guarded(target, async () => {
        if (options.recursive) {
          await rm(target, { recursive: true, force: true });
          return;
        }
        // Without `recursive` a directory is removed only when empty (rmdir(2)), never with what is in it.
        const info = await lstat(target).catch(() => null);
        await (info?.isDirectory() === true ? rmdir(target) : rm(target, { force: true }));
      }),
    freeBytes: (target) =>
      guarded(target, async () => {
        const info = await statfs(target);
        return info.bavail * info.bsize;
      }),
    async directIoAllowed(directory) {
      const direct = (fsConstants as Record<string, number | undefined>).O_DIRECT;
      if (direct === undefined) {
        // macOS has no O_DIRECT flag; fio's direct=1 uses fcntl(F_NOCACHE) there (fio HOWTO "direct").
        return true;
      }
      const probe = path.join(directory, '.encplan-direct-probe');
      try {
        const handle = await open(probe, fsConstants.O_CREAT | fsConstants.O_WRONLY | direct, 0o600);
        await handle.close();
        return true;
      } catch {
        return false;
      } finally {
        await rm(probe, { force: true });
      }
    },
    processAlive(pid) {
      try {
        process.kill(pid, 0);
        return Promise.resolve(true);
      } catch (error) {
        // EPERM: it exists but belongs to someone else.
        return Promise.resolve((error as NodeJS.ErrnoException).code === 'EPERM');
      }
    },
  };
}

/** The real host: files through node:fs, processes through the one runner, facts from systeminformation. */
export function createNodeHost(runner: Runner, cwd: string = process.cwd()): Host {
  const privileged = process.getuid?.() === 0;
  const platform = currentPlatform();
  return {
    platform,
    cwd,
    privileged,
    effects: createNodeEffects(),
    // A tool's version is asked once per binary, not once per run (tool-version-cache.ts).
    run: withToolVersionCache(runner.run, (tool) => runner.resolveTool(tool)),
    readText: (path) =>
      unlessMissing(
        path,
        byPath(
          path,
          () => readFileSync(path, 'utf8'),
          () => readFile(path, 'utf8'),
        ),
      ),
    listDir: (path) =>
      unlessMissing(
        path,
        byPath(
          path,
          () => readdirSync(path).sort(),
          async () => (await readdir(path)).sort(),
        ),
      ),
    realPath: (path) =>
      unlessMissing(
        path,
        byPath(
          path,
          () => realpathSync.native(path),
          () => realpath(path),
        ),
      ),
    stat: (path) =>
      unlessMissing(path, async (): Promise<PathStat> => {
        const info = await byPath(
          path,
          (): BigIntStats => statSync(path, { bigint: true }),
          () => stat(path, { bigint: true }),
          IN_MEMORY_METADATA,
        )();
        let kind: PathKind = 'other';
        if (info.isBlockDevice()) {
          kind = 'block-device';
        } else if (info.isCharacterDevice()) {
          kind = 'character-device';
        } else if (info.isFile()) {
          kind = 'file';
        } else if (info.isDirectory()) {
          kind = 'directory';
        }
        const isDevice = kind === 'block-device' || kind === 'character-device';
        return {
          kind,
          deviceNumber: isDevice ? deviceNumber(info.rdev) : null,
          containingDeviceNumber: deviceNumber(info.dev),
          sizeBytes: Number(info.size),
          readable: await mayAccess(path, fsConstants.R_OK),
        };
      }),
    whichTool: (tool) => runner.resolveTool(tool),
    async systemInfo(): Promise<SystemInfoSnapshot> {
      // systeminformation starts its own processes (lscpu, lsblk): the one documented exception to the
      // single runner (docs/architecture.md). Its disk guesses are cross-checked against sysfs, not trusted.
      // Loaded on first use: it is a large module, and most commands never need it.
      const { default: si } = await import('systeminformation');
      const [cpu, cpuFlags, mem, os, disks] = await Promise.all([
        si.cpu(),
        si.cpuFlags(),
        si.mem(),
        si.osInfo(),
        si.diskLayout(),
      ]);
      return {
        cpu: { ...cpu },
        cpuFlags,
        mem: { total: mem.total, available: mem.available },
        os: {
          platform: os.platform,
          distro: os.distro,
          release: os.release,
          kernel: os.kernel,
          arch: os.arch,
          hostname: 'REDACTED',
        },
        diskLayout: disks.map((disk) => ({
          device: disk.device,
          type: disk.type,
          interfaceType: disk.interfaceType,
          vendor: disk.vendor,
          name: disk.name,
          sizeBytes: disk.size,
        })),
      };
    },
  };
}
