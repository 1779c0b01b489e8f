import { constants as fsConstants } from 'node:fs';
import { access, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { EncplanError } from '../errors.js';
import type { Host, PathKind, PathStat, SystemInfoSnapshot } from '../ports.js';
import type { Runner } from './process/run-command.js';
import { userPathError } from './user-files.js';

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENXIO' || code === 'ENODEV';
}

function rethrow(error: unknown, path: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') {
    throw new EncplanError('PERMISSION_DENIED', `Permission denied reading ${path}.`, { cause: error, details: { path } });
  }
  if (code === 'ENAMETOOLONG' || code === 'ELOOP') {
    // A path the user typed (a device, a target) that Linux refuses: the user's error, not encplan's.
    throw userPathError(error, path, 'path');
  }
  throw new EncplanError('INTERNAL_ERROR', `Could not read ${path}: ${(error as Error).message}`, { cause: error });
}

function deviceNumber(value: number | bigint): string {
  // Linux encodes dev_t as major in bits 8-19 and 32-43, minor in bits 0-7 and 20-31 (see <sys/sysmacros.h>).
  const dev = BigInt(value);
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major.toString()}:${minor.toString()}`;
}

async function readableBy(path: string): Promise<boolean> {
  try {
    await access(path, fsConstants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The real host: files through node:fs, processes through the one runner, facts from systeminformation. */
export function createNodeHost(runner: Runner, cwd: string = process.cwd()): Host {
  const platform = process.platform === 'linux' || process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'other';
  return {
    platform,
    cwd,
    privileged: process.getuid?.() === 0,
    run: runner.run,
    async readText(path) {
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        if (isMissing(error)) {
          return null;
        }
        return rethrow(error, path);
      }
    },
    async listDir(path) {
      try {
        return (await readdir(path)).sort();
      } catch (error) {
        if (isMissing(error)) {
          return null;
        }
        return rethrow(error, path);
      }
    },
    async realPath(path) {
      try {
        return await realpath(path);
      } catch (error) {
        if (isMissing(error)) {
          return null;
        }
        return rethrow(error, path);
      }
    },
    async stat(path): Promise<PathStat | null> {
      try {
        const info = await stat(path, { bigint: true });
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
          readable: await readableBy(path),
        };
      } catch (error) {
        if (isMissing(error)) {
          return null;
        }
        return rethrow(error, path);
      }
    },
    whichTool: (tool) => runner.resolveTool(tool),
    async systemInfo(): Promise<SystemInfoSnapshot> {
      // systeminformation starts its own processes (lscpu, lsblk): the one documented exception to the
      // single runner (docs/architecture.md). Its disk guesses are cross-checked against sysfs, not trusted.
      // Loaded on first use: it is a large module, and most commands never need it.
      const { default: si } = await import('systeminformation');
      const [cpu, cpuFlags, mem, os, disks] = await Promise.all([si.cpu(), si.cpuFlags(), si.mem(), si.osInfo(), si.diskLayout()]);
      return {
        cpu: { ...cpu },
        cpuFlags,
        mem: { total: mem.total, available: mem.available },
        os: { platform: os.platform, distro: os.distro, release: os.release, kernel: os.kernel, arch: os.arch, hostname: 'REDACTED' },
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
