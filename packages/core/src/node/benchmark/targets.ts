import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EncplanError } from '../../errors.js';
import type { BackendId } from '../../domain/io-benchmark.js';
import type { Host, ToolName } from '../../ports.js';
import {
  cryptsetupArgs,
  diskutilArgs,
  fscryptArgs,
  hdiutilArgs,
  losetupArgs,
  luks2VariantName,
  mkfsExt4Args,
  mountArgs,
  resourceName,
  veracryptArgs,
  type Luks2Variant,
  type VeracryptVariant,
} from '../../plan/encrypted-backends.js';
import { parseDiskutilEncryption } from '../../parsers/diskutil/parse-diskutil-encryption.js';
import type { CleanupRegistry } from './cleanup-registry.js';

/** What every backend needs: the host, the registry, the run's private directory and sizes. */
export interface TargetContext {
  readonly host: Host;
  readonly registry: CleanupRegistry;
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
  /** The registry mark before this target was prepared: `releaseTo(mark)` tears it down. */
  readonly mark: number;
}

const MIB = 1024 * 1024;
/** mkfs, luksFormat and mounts on a sparse file take seconds; a minute is generous. */
const SETUP_TIMEOUT_MS = 120_000;
/** Room for the ext4 metadata and journal around the fio file (mke2fs reserves ~5% plus the journal). */
const FILESYSTEM_OVERHEAD_BYTES = 128 * MIB;

/** Runs a setup tool and throws TOOL_FAILED (with its stderr) on a non-zero exit. Secrets go in `stdin`. */
export async function runChecked(
  context: Pick<TargetContext, 'host' | 'signal'>,
  tool: ToolName,
  args: string[],
  options: { stdin?: string; timeoutMs?: number } = {},
): Promise<string> {
  const output = await context.host.run(
    {
      tool,
      args,
      timeoutMs: options.timeoutMs ?? SETUP_TIMEOUT_MS,
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
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

async function createSparseFile(file: string, sizeBytes: number): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.truncate(sizeBytes);
  } finally {
    await handle.close();
  }
}

/** Writes random key material to a 0600 file in the private work directory, registered before it exists. */
async function writeKeyFile(context: TargetContext, name: string, sizeBytes: number): Promise<string> {
  const file = path.join(context.workDir, `${name}.key`);
  await context.registry.register({ kind: 'file', path: file });
  await writeFile(file, randomBytes(sizeBytes), { mode: 0o600, flag: 'wx' });
  return file;
}

async function makeMountPoint(context: TargetContext, name: string): Promise<string> {
  const mountPoint = path.join(context.workDir, name);
  await context.registry.register({ kind: 'directory', path: mountPoint });
  await mkdir(mountPoint, { mode: 0o700 });
  return mountPoint;
}

/** mkfs.ext4 on a device and mount it at a new directory in the work directory. */
async function makeExt4(context: TargetContext, device: string, name: string): Promise<string> {
  await runChecked(context, 'mkfs.ext4', mkfsExt4Args(device));
  const mountPoint = await makeMountPoint(context, name);
  await context.registry.register({ kind: 'mount', mountPoint });
  await runChecked(context, 'mount', mountArgs.mount(device, mountPoint));
  return mountPoint;
}

/** Whether the kernel accepts O_DIRECT on files in `directory` (tmpfs does not, for example). */
export async function directIoAllowed(directory: string): Promise<boolean> {
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
}

/** The filesystem the plain run (and fscrypt) uses: ext4 on a loop device over a sparse file, or on a raw device. */
export interface ScratchFilesystem {
  readonly mountPoint: string;
  readonly device: string;
}

/** Size of the sparse image for the shared plain + fscrypt filesystem: two fio files plus ext4 overhead. */
export function scratchImageBytes(fileSizeBytes: number): number {
  return 2 * fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES;
}

/** Creates the scratch ext4 (with the encrypt feature) on `rawDevice`, or on a loop device over a sparse image. */
export async function prepareScratchFilesystem(
  context: TargetContext,
  rawDevice: string | null,
): Promise<ScratchFilesystem> {
  let device = rawDevice;
  if (device === null) {
    const image = path.join(context.workDir, 'plain.img');
    await context.registry.register({ kind: 'file', path: image });
    await createSparseFile(image, scratchImageBytes(context.fileSizeBytes));
    await context.registry.register({ kind: 'loop-device', backingFile: image });
    device = (await runChecked(context, 'losetup', losetupArgs.attach(image))).trim();
  }
  return { mountPoint: await makeExt4(context, device, 'plain'), device };
}

/** The plain target: a directory on the scratch filesystem. */
export async function preparePlain(
  context: TargetContext,
  scratch: ScratchFilesystem,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const directory = path.join(scratch.mountPoint, 'plain');
  await mkdir(directory, { mode: 0o700 });
  return { backend: 'plain', variant: 'plain', directory, notes: [`ext4 on ${scratch.device}`], mark };
}

/** fscrypt's global config and metadata directory: created for the run only when missing. */
const FSCRYPT_GLOBAL_PATHS = ['/etc/fscrypt.conf', '/.fscrypt'];

/**
 * An fscrypt (v2 policy, raw 256-bit key) directory on the SAME filesystem as the plain run, so the only
 * difference is encryption. The key file is deleted as soon as the kernel holds the key.
 */
export async function prepareFscrypt(
  context: TargetContext,
  scratch: ScratchFilesystem,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const missing: string[] = [];
  for (const global of FSCRYPT_GLOBAL_PATHS) {
    if ((await context.host.stat(global)) === null) {
      missing.push(global);
    }
  }
  if (missing.length > 0) {
    for (const global of missing) {
      await context.registry.register({ kind: 'global-path', path: global });
    }
    await runChecked(context, 'fscrypt', fscryptArgs.setupGlobal(), { stdin: 'y\n' });
  }
  await runChecked(context, 'fscrypt', fscryptArgs.setupFilesystem(scratch.mountPoint));
  const directory = path.join(scratch.mountPoint, 'fscrypt');
  await mkdir(directory, { mode: 0o700 });
  // fscrypt raw keys are exactly 32 bytes (fscrypt README, "--source=raw_key").
  const keyFile = await writeKeyFile(context, 'fscrypt', 32);
  await context.registry.register({ kind: 'fscrypt-policy', directory });
  await runChecked(
    context,
    'fscrypt',
    fscryptArgs.encryptWithRawKey(directory, resourceName(context.pid, 'fscrypt'), keyFile),
  );
  await rm(keyFile, { force: true });
  return {
    backend: 'fscrypt',
    variant: 'fscrypt',
    directory,
    notes: [
      'fscrypt v2 policy, AES-256-XTS contents, same ext4 as the plain run.',
      'Without inline-encryption hardware the kernel serves O_DIRECT on encrypted files through the page cache (kernel fscrypt.rst, "Direct I/O support").',
    ],
    mark,
  };
}

function isDeviceMapperMissing(error: unknown): boolean {
  return (
    error instanceof EncplanError &&
    error.code === 'TOOL_FAILED' &&
    /device-mapper|dm_mod/i.test(error.message)
  );
}

/** A LUKS2 container file (or the raw device) opened with cryptsetup, with ext4 on the mapping. */
export async function prepareLuks2(
  context: TargetContext,
  variant: Luks2Variant,
  rawDevice: string | null,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const tag = `luks2-s${variant.sectorSizeBytes}${variant.noWorkqueues ? '-nowq' : ''}`;
  let container = rawDevice;
  if (container === null) {
    container = path.join(context.workDir, `${tag}.img`);
    await context.registry.register({ kind: 'file', path: container });
    // LUKS2's default header takes 16 MiB (cryptsetup(8) "--luks2-metadata-size"); the rest holds ext4.
    await createSparseFile(container, context.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES + 16 * MIB);
  }
  const keyFile = await writeKeyFile(context, tag, 64);
  await runChecked(
    context,
    'cryptsetup',
    cryptsetupArgs.luksFormat(container, keyFile, variant.sectorSizeBytes),
  );
  const mapping = resourceName(context.pid, tag);
  if (rawDevice === null) {
    // cryptsetup attaches a loop device itself for a container file.
    await context.registry.register({ kind: 'loop-device', backingFile: container });
  }
  await context.registry.register({ kind: 'dm-mapping', name: mapping });
  try {
    await runChecked(
      context,
      'cryptsetup',
      cryptsetupArgs.open(container, keyFile, mapping, variant.noWorkqueues),
    );
  } catch (error) {
    if (isDeviceMapperMissing(error)) {
      throw new EncplanError(
        'KERNEL_FEATURE_MISSING',
        'cryptsetup cannot open LUKS2 here: the kernel has no usable device-mapper.',
        {
          hint: 'Load dm_mod and dm_crypt (modprobe dm_crypt) or run on a kernel with device-mapper.',
          details: { backend: 'luks2' },
          cause: error,
        },
      );
    }
    throw error;
  }
  const mountPoint = await makeExt4(context, `/dev/mapper/${mapping}`, tag);
  return {
    backend: 'luks2',
    variant: luks2VariantName(variant),
    directory: mountPoint,
    notes: ['aes-xts-plain64, 512-bit key, ext4 on the mapping.'],
    mark,
  };
}

function randomPassword(): string {
  return randomBytes(24).toString('base64url');
}

/** A VeraCrypt container file, mounted with kernel crypto (dm-crypt) or VeraCrypt's own (FUSE). */
export async function prepareVeracrypt(
  context: TargetContext,
  variant: VeracryptVariant,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const tag = variant.kernelCrypto ? 'veracrypt-kernel' : 'veracrypt-fuse';
  const container = path.join(context.workDir, `${tag}.hc`);
  const password = randomPassword();
  await context.registry.register({ kind: 'file', path: container });
  await runChecked(
    context,
    'veracrypt',
    veracryptArgs.create(container, context.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES),
    {
      stdin: `${password}\n`,
      timeoutMs: 600_000,
    },
  );
  const mountPoint = await makeMountPoint(context, tag);
  await context.registry.register({ kind: 'veracrypt-volume', container });
  await runChecked(context, 'veracrypt', veracryptArgs.mount(container, mountPoint, variant), {
    stdin: `${password}\n`,
  });
  return {
    backend: 'veracrypt',
    variant: variant.kernelCrypto ? 'veracrypt kernel crypto' : 'veracrypt userspace crypto',
    directory: mountPoint,
    notes: ['AES, SHA-512, ext4 inside the container.'],
    mark,
  };
}

/** An AES-256 encrypted APFS disk image (macOS), attached at a private mount point. */
export async function prepareApfs(context: TargetContext): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const image = path.join(context.workDir, 'apfs.dmg');
  const passphrase = randomPassword();
  await context.registry.register({ kind: 'file', path: image });
  await runChecked(
    context,
    'hdiutil',
    hdiutilArgs.create(
      image,
      context.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES,
      resourceName(context.pid, 'apfs'),
    ),
    {
      stdin: passphrase,
    },
  );
  const mountPoint = await makeMountPoint(context, 'apfs');
  await context.registry.register({ kind: 'disk-image', mountPoint });
  await runChecked(context, 'hdiutil', hdiutilArgs.attach(image, mountPoint), { stdin: passphrase });
  const info = parseDiskutilEncryption(await runChecked(context, 'diskutil', diskutilArgs.info(mountPoint)));
  if (info.encrypted !== true) {
    throw new EncplanError(
      'TOOL_OUTPUT_UNRECOGNIZED',
      'diskutil does not report the benchmark image as encrypted.',
      {
        details: { tool: 'diskutil', mountPoint },
      },
    );
  }
  return {
    backend: 'apfs',
    variant: 'apfs',
    directory: mountPoint,
    notes: ['AES-256 encrypted APFS disk image (hdiutil).'],
    mark,
  };
}
