import { spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { EncplanError, cancelled, toolNotFound } from '../../errors.js';
import type { CommandOutput, CommandSpec, RunCommand, ToolName } from '../../ports.js';

/** Directories searched for tools after the user's PATH: smartctl, hdparm and friends live in sbin. */
const SYSTEM_DIRECTORIES = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Debian packages that provide each tool, for the hint of TOOL_NOT_FOUND. */
export const DEBIAN_PACKAGES: Readonly<Record<ToolName, string>> = {
  lsblk: 'util-linux',
  blkid: 'util-linux',
  findmnt: 'util-linux',
  smartctl: 'smartmontools',
  nvme: 'nvme-cli',
  hdparm: 'hdparm',
  cryptsetup: 'cryptsetup-bin',
  dmsetup: 'dmsetup',
  fio: 'fio',
  openssl: 'openssl',
  veracrypt: 'veracrypt (from veracrypt.fr)',
  fscrypt: 'fscrypt',
  'sedutil-cli': 'sedutil (from the Drive Trust Alliance)',
  systemctl: 'systemd',
  losetup: 'mount',
  mount: 'mount',
  umount: 'mount',
  'mkfs.ext4': 'e2fsprogs',
  tune2fs: 'e2fsprogs',
  sgdisk: 'gdisk',
  sfdisk: 'fdisk',
  blkdiscard: 'util-linux',
  fstrim: 'util-linux',
  diskutil: 'macOS',
  hdiutil: 'macOS',
  pkexec: 'pkexec (polkit)',
  system_profiler: 'macOS',
  sysctl: 'macOS',
  fdesetup: 'macOS',
  powershell: 'Windows',
  fsutil: 'Windows',
  'manage-bde': 'Windows',
  diskspd: 'DiskSpd (from github.com/microsoft/diskspd)',
};

/** How the runner is set up. */
export interface RunnerOptions {
  /** The PATH to search, before the system directories. */
  readonly searchPath: string;
  /** Whether to search the usual sbin/bin directories after `searchPath` (default true; tests turn it off). */
  readonly includeSystemDirectories?: boolean;
  /** Explicit tool locations that win over the search. */
  readonly toolPaths?: Partial<Record<ToolName, string>>;
  /** Output cap when a spec sets none. */
  readonly defaultMaxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL when a child must be stopped. */
  readonly killGraceMs?: number;
}

/** A runner plus the tool lookup it uses, so `doctor` reports exactly what the runner would run. */
export interface Runner {
  readonly run: RunCommand;
  resolveTool(tool: ToolName): Promise<string | null>;
}

const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_BYTES = 8 * 1024;

async function exists(file: string): Promise<boolean> {
  try {
    await access(file, fsConstants.F_OK);
    return true;
  } catch {
    return false;
  }
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates the one process runner. Tools are looked up once over a fixed search path; children run with
 * `shell: false`, an argument array and an explicit `LC_ALL=C` environment so parsers see stable output.
 */
export function createRunner(options: RunnerOptions): Runner {
  const directories = [
    ...options.searchPath.split(path.delimiter).filter((entry) => path.isAbsolute(entry)),
    ...(options.includeSystemDirectories === false ? [] : SYSTEM_DIRECTORIES),
  ];
  const uniqueDirectories = [...new Set(directories)];
  const childPath = uniqueDirectories.join(path.delimiter);
  const cache = new Map<ToolName, Promise<string | null>>();

  function resolveTool(tool: ToolName): Promise<string | null> {
    let pending = cache.get(tool);
    if (pending === undefined) {
      pending = (async () => {
        const explicit = options.toolPaths?.[tool];
        if (explicit !== undefined) {
          // An explicit path is used as given: if it is not executable, spawning it says EACCES.
          return (await exists(explicit)) ? explicit : null;
        }
        for (const directory of uniqueDirectories) {
          const candidate = path.join(directory, tool);
          if (await isExecutable(candidate)) {
            return candidate;
          }
        }
        return null;
      })();
      cache.set(tool, pending);
    }
    return pending;
  }

  const run: RunCommand = async (spec: CommandSpec, signal?: AbortSignal): Promise<CommandOutput> => {
    if (!Number.isFinite(spec.timeoutMs) || spec.timeoutMs <= 0) {
      throw new EncplanError('INTERNAL_ERROR', `A timeout is required to run ${spec.tool}.`);
    }
    if (signal?.aborted === true) {
      throw cancelled(`Running ${spec.tool}`);
    }
    const executable = await resolveTool(spec.tool);
    if (executable === null) {
      throw toolNotFound(spec.tool, DEBIAN_PACKAGES[spec.tool]);
    }
    const maxOutputBytes = spec.maxOutputBytes ?? options.defaultMaxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const killGraceMs = options.killGraceMs ?? 2000;
    const started = performance.now();

    return new Promise<CommandOutput>((resolve, reject) => {
      const child = spawn(executable, [...spec.args], {
        shell: false,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { PATH: childPath, LC_ALL: 'C', LANG: 'C', ...spec.env },
        windowsHide: true,
      });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let outputBytes = 0;
      let failure: EncplanError | null = null;
      let killTimer: NodeJS.Timeout | undefined;

      function stop(reason: EncplanError): void {
        if (failure !== null) {
          return;
        }
        failure = reason;
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), killGraceMs);
        killTimer.unref();
      }

      const timer = setTimeout(() => {
        stop(
          new EncplanError('TOOL_TIMED_OUT', `${spec.tool} did not finish within ${spec.timeoutMs} ms.`, {
            details: { tool: spec.tool, timeoutMs: spec.timeoutMs },
          }),
        );
      }, spec.timeoutMs);
      const onAbort = (): void => {
        stop(cancelled(`Running ${spec.tool}`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      function collect(into: Buffer[]) {
        return (chunk: Buffer) => {
          outputBytes += chunk.length;
          if (outputBytes > maxOutputBytes) {
            stop(
              new EncplanError('TOOL_OUTPUT_TOO_LARGE', `${spec.tool} printed more than ${maxOutputBytes} bytes.`, {
                details: { tool: spec.tool, maxOutputBytes },
              }),
            );
            return;
          }
          into.push(chunk);
        };
      }
      child.stdout.on('data', collect(stdout));
      child.stderr.on('data', collect(stderr));
      // A child that exits before reading stdin gives EPIPE; its exit status tells the story.
      child.stdin.on('error', () => undefined);
      if (spec.stdin !== undefined) {
        child.stdin.end(spec.stdin);
      } else {
        child.stdin.end();
      }

      function finish(): void {
        clearTimeout(timer);
        if (killTimer !== undefined) {
          clearTimeout(killTimer);
        }
        signal?.removeEventListener('abort', onAbort);
      }

      child.on('error', (error: NodeJS.ErrnoException) => {
        finish();
        if (error.code === 'ENOENT') {
          reject(toolNotFound(spec.tool, DEBIAN_PACKAGES[spec.tool]));
        } else if (error.code === 'EACCES' || error.code === 'EPERM') {
          reject(
            new EncplanError('PERMISSION_DENIED', `${executable} could not be started: permission denied.`, {
              details: { tool: spec.tool },
              cause: error,
            }),
          );
        } else {
          reject(new EncplanError('TOOL_FAILED', `${spec.tool} could not be started: ${error.message}`, { cause: error }));
        }
      });
      child.on('close', (code, killedBy) => {
        finish();
        if (failure !== null) {
          reject(failure);
          return;
        }
        const stderrText = Buffer.concat(stderr).toString('utf8');
        resolve({
          // A child killed by a signal it did not get from us reports 128 + signal, as a shell would.
          exitCode: code ?? 128 + signalNumber(killedBy),
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: stderrText.length > STDERR_TAIL_BYTES * 8 ? stderrText.slice(-STDERR_TAIL_BYTES * 8) : stderrText,
          durationMs: Math.round(performance.now() - started),
        });
      });
    });
  };

  return { run, resolveTool };
}

function signalNumber(signal: NodeJS.Signals | null): number {
  switch (signal) {
    case 'SIGKILL':
      return 9;
    case 'SIGTERM':
      return 15;
    case 'SIGINT':
      return 2;
    case 'SIGSEGV':
      return 11;
    case 'SIGABRT':
      return 6;
    default:
      return 0;
  }
}
