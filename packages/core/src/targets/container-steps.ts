import { MIB } from '../domain/units.js';
import { EncplanError } from '../errors.js';
import type { Resource } from '../domain/cleanup.js';
import type { BackendId, BackendVerification } from '../domain/io-benchmark.js';
import { parseDmsetupTable } from '../parsers/dmsetup/table.js';
import { parseMountinfo } from '../parsers/proc/mountinfo.js';
import type { CommandSpec, Host, ToolName } from '../ports.js';
import { joinPath, randomToken } from './posix-paths.js';

/*
 * What every target's benchmark container (targets/<id>/benchmark.ts) shares: the run's context, the argv of the
 * shared tools (losetup, mkfs.ext4, mount, dmsetup) and the steps that make and prove a container. Pure argv
 * builders, so tests and a dry run see the same arrays the adapters execute. Secrets never appear here: keys go
 * in a 0600 key file in a private temp directory, passphrases on stdin.
 */

/** Every file, directory, mount and mapping encplan creates starts with this, so `encplan cleanup` finds it. */
export const ENCPLAN_RESOURCE_PREFIX = 'encplan-bench-';

/** The recognisable name of a run's resources: `encplan-bench-<pid>-<suffix>`. */
export function resourceName(pid: number, suffix: string): string {
  return `${ENCPLAN_RESOURCE_PREFIX}${pid}-${suffix}`;
}

/** The pid a resource name was made for, or null when the name is not encplan's. */
export function pidOfResourceName(name: string): number | null {
  const match = new RegExp(`${ENCPLAN_RESOURCE_PREFIX}(\\d+)-`).exec(name);
  return match === null ? null : Number(match[1]);
}

export const losetupArgs = {
  /**
   * `--direct-io=on` so the plain run measures the disk under the sparse image, not the host's page cache
   * (losetup(8) "--direct-io"; on this VM plain SEQ1M reads fell from ~8500 MiB/s of cached data to ~1300).
   */
  attach: (file: string): string[] => ['--find', '--show', '--direct-io=on', '--', file],
  detach: (device: string): string[] => ['--detach', device],
  list: (): string[] => ['--list', '--json', '--output', 'NAME,BACK-FILE'],
};

/**
 * ext4 with the `encrypt` feature (so the plain and the fscrypt directory share one filesystem), inode tables
 * and journal initialised now: lazy init would write in the background during the measurement (mke2fs(8)
 * `-E lazy_itable_init`, `lazy_journal_init`).
 */
export function mkfsExt4Args(device: string): string[] {
  return ['-q', '-F', '-O', 'encrypt', '-E', 'lazy_itable_init=0,lazy_journal_init=0', '--', device];
}

export const mountArgs = {
  mount: (source: string, mountPoint: string): string[] => ['--', source, mountPoint],
  unmount: (mountPoint: string): string[] => ['--', mountPoint],
};

export const dmsetupArgs = {
  /** One mapping's table; dmsetup prints crypt keys only with --showkeys (dmsetup(8)), and the parser drops them. */
  table: (mappingName: string): string[] => ['table', mappingName],
};

/** Room for the ext4 metadata and journal around the fio file (mke2fs reserves ~5% plus the journal). */
export const FILESYSTEM_OVERHEAD_BYTES = 128 * MIB;

/** Size of the sparse image for the shared plain + fscrypt filesystem: two fio files plus ext4 overhead. */
export function scratchImageBytes(fileSizeBytes: number): number {
  return 2 * fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES;
}

/** Where a container registers what it makes, before it exists, so encplan cleanup can remove it after a crash. */
export interface ContainerRegistry {
  register(resource: Resource): Promise<void>;
  /** The position to release back to: everything registered after it belongs to one container. */
  mark(): number;
}

/** What every backend needs: the host, the registry, the run's private directory and sizes. */
export interface TargetContext<Registry extends ContainerRegistry = ContainerRegistry> {
  readonly host: Host;
  /** Where every resource is registered before it exists (use-cases/benchmark/cleanup-registry.ts). */
  readonly registry: Registry;
  /** The run's private 0700 directory on the target's filesystem. */
  readonly workDir: string;
  readonly pid: number;
  /** Size of the file fio measures. */
  readonly fileSizeBytes: number;
  readonly signal?: AbortSignal;
}

/** A directory ready for fio, and how to undo everything made for it. */
export interface PreparedTarget {
  readonly backend: BackendId;
  readonly variant: string;
  readonly directory: string;
  readonly notes: readonly string[];
  /** How the target was proven encrypted; null for the plain target only. */
  readonly verification: BackendVerification | null;
  /** The registry mark before this target was prepared: `releaseTo(mark)` tears it down. */
  readonly mark: number;
}

/** mkfs, luksFormat and mounts on a sparse file take seconds; a minute is generous. */
export const SETUP_TIMEOUT_MS = 120_000;

/** Runs a setup tool and throws TOOL_FAILED (with its stderr) on a non-zero exit. Secrets go in `stdin`. */
export async function runChecked(
  context: Pick<TargetContext, 'host' | 'signal'>,
  tool: ToolName,
  args: string[],
  options: { stdin?: string; timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<string> {
  const output = await context.host.run(
    {
      tool,
      args,
      timeoutMs: options.timeoutMs ?? SETUP_TIMEOUT_MS,
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      ...(options.env === undefined ? {} : { env: options.env }),
    },
    context.signal,
  );
  if (output.exitCode !== 0) {
    throw new EncplanError(
      'TOOL_FAILED',
      `${tool} ${args[0] ?? ''} failed with exit code ${output.exitCode}: ${output.stderr.trim().slice(-500)}`,
      {
        details: { tool, args, exitCode: output.exitCode },
      },
    );
  }
  return output.stdout;
}

export function createSparseFile(
  context: Pick<TargetContext, 'host'>,
  file: string,
  sizeBytes: number,
): Promise<void> {
  return context.host.effects.createFile(file, { mode: 0o600, content: { kind: 'sparse', sizeBytes } });
}

/** Writes random key material to a 0600 file in the private work directory, registered before it exists. */
export async function writeKeyFile(context: TargetContext, name: string, sizeBytes: number): Promise<string> {
  const file = joinPath(context.workDir, `${name}.key`);
  await context.registry.register({ kind: 'file', path: file });
  // The key is made on the host and never passes through encplan's memory or a bundle.
  await context.host.effects.createFile(file, { mode: 0o600, content: { kind: 'random', sizeBytes } });
  return file;
}

export async function makeMountPoint(context: TargetContext, name: string): Promise<string> {
  const mountPoint = joinPath(context.workDir, name);
  await context.registry.register({ kind: 'directory', path: mountPoint });
  await context.host.effects.makeDirectory(mountPoint, { mode: 0o700 });
  return mountPoint;
}

/** mkfs.ext4 on a device and mount it at a new directory in the work directory. */
export async function makeExt4(context: TargetContext, device: string, name: string): Promise<string> {
  await runChecked(context, 'mkfs.ext4', mkfsExt4Args(device));
  const mountPoint = await makeMountPoint(context, name);
  await context.registry.register({ kind: 'mount', mountPoint });
  await runChecked(context, 'mount', mountArgs.mount(device, mountPoint));
  return mountPoint;
}

/** The filesystem the plain run (and fscrypt) uses: ext4 on a loop device over a sparse file, or on a raw device. */
export interface ScratchFilesystem {
  readonly mountPoint: string;
  readonly device: string;
}

/**
 * Refuses to measure: the backend reported success, but its own status tools do not show an encrypted target.
 * A lying or broken tool must never turn a measurement of plain storage into an "encrypted" result.
 */
export function unverified(
  backend: BackendId,
  reason: string,
  details: Record<string, unknown>,
): EncplanError {
  return new EncplanError(
    'TOOL_OUTPUT_UNRECOGNIZED',
    `The ${backend} target is not proven encrypted: ${reason}`,
    {
      hint: 'The backend tool reported success without an encrypted target; encplan does not measure it.',
      details: { backend, ...details },
    },
  );
}

/**
 * Proves the filesystem mounted at `mountPoint` is the one on `device` (/proc/self/mountinfo, proc(5): the
 * mount's source, or its major:minor against the device's): a tool that mounted something else there (a tmpfs)
 * is refused before anything is measured.
 */
export async function verifyMountedFrom(
  context: Pick<TargetContext, 'host'>,
  backend: BackendId,
  mountPoint: string,
  device: string,
): Promise<void> {
  const entries = parseMountinfo((await context.host.readText('/proc/self/mountinfo')) ?? '').filter(
    (entry) => entry.mountPoint === mountPoint,
  );
  // The last mount at a path is the one that is seen there.
  const entry = entries.at(-1);
  const deviceNumber = (await context.host.stat(device))?.deviceNumber ?? null;
  if (
    entry === undefined ||
    (entry.source !== device && (deviceNumber === null || entry.deviceNumber !== deviceNumber))
  ) {
    throw unverified(
      backend,
      `${mountPoint} holds ${entry === undefined ? 'no mount' : `${entry.source} (${entry.deviceNumber})`}, not the filesystem on ${device}.`,
      { mountPoint, device },
    );
  }
}

/** Proves `/dev/mapper/NAME` is a dm-crypt mapping whose cipher matches `cipher` (`dmsetup table NAME`). */
export async function verifyCryptMapping(
  context: Pick<TargetContext, 'host' | 'signal'>,
  backend: BackendId,
  name: string,
  cipher: RegExp,
  container?: string,
): Promise<string> {
  const output = await context.host.run(
    { tool: 'dmsetup', args: dmsetupArgs.table(name), timeoutMs: SETUP_TIMEOUT_MS },
    context.signal,
  );
  const lines = output.exitCode === 0 ? parseDmsetupTable(output.stdout) : [];
  const crypt = lines.length === 1 ? lines[0]?.crypt : null;
  if (crypt === null || crypt === undefined || !cipher.test(crypt.cipher)) {
    throw unverified(
      backend,
      `dmsetup shows no dm-crypt (crypt) mapping ${name} with a ${cipher.source} cipher.`,
      {
        mapping: name,
        ...(container === undefined ? {} : { container }),
      },
    );
  }
  return crypt.cipher;
}

export function randomPassword(): string {
  return randomToken(24);
}

/** One PowerShell script run without the user's profile and without prompts (the Windows containers' tool). */
export function powershellScript(script: string, timeoutMs: number): CommandSpec {
  return { tool: 'powershell', args: ['-NoProfile', '-NonInteractive', '-Command', script], timeoutMs };
}
