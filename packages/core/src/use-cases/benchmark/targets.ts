import { joinPath, randomToken } from './paths.js';
import { EncplanError } from '../../errors.js';
import type { BackendId } from '../../domain/io-benchmark.js';
import type { CommandSpec, Host, ToolName } from '../../ports.js';
import {
  cryptsetupArgs,
  dmsetupArgs,
  fscryptArgs,
  fscryptEnvironment,
  losetupArgs,
  luks2VariantName,
  mkfsExt4Args,
  mountArgs,
  resourceName,
  veracryptArgs,
  type Luks2Variant,
  type VeracryptVariant,
} from '../../plan/encrypted-backends.js';
import { hdiutilAttach, hdiutilCreateImage, hdiutilIsEncrypted } from '../../benchmark-commands/darwin.js';
import { parseHdiutilIsEncrypted } from '../../parsers/hdiutil/parse-hdiutil-isencrypted.js';
import { parseDmsetupTable } from '../../parsers/dmsetup/table.js';
import { parseFscryptStatus } from '../../parsers/fscrypt/parse-fscrypt-status.js';
import { parseMountinfo } from '../../parsers/proc/mountinfo.js';
import { parseVeracryptList } from '../../parsers/veracrypt/parse-veracrypt-list.js';
import type { BackendVerification } from '../../domain/io-benchmark.js';
import type { CleanupRegistry } from './cleanup-registry.js';
import {
  FILESYSTEM_OVERHEAD_BYTES,
  scratchImageBytes,
  veracryptCreateTimeoutMs,
} from '../../plan/benchmark-footprint.js';

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
  /** How the target was proven encrypted; null for the plain target only. */
  readonly verification: BackendVerification | null;
  /** The registry mark before this target was prepared: `releaseTo(mark)` tears it down. */
  readonly mark: number;
}

const MIB = 1024 * 1024;
/** mkfs, luksFormat and mounts on a sparse file take seconds; a minute is generous. */
const SETUP_TIMEOUT_MS = 120_000;

/** Runs a setup tool and throws TOOL_FAILED (with its stderr) on a non-zero exit. Secrets go in `stdin`. */
async function runChecked(
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

function createSparseFile(
  context: Pick<TargetContext, 'host'>,
  file: string,
  sizeBytes: number,
): Promise<void> {
  return context.host.effects.createFile(file, { mode: 0o600, content: { kind: 'sparse', sizeBytes } });
}

/** Writes random key material to a 0600 file in the private work directory, registered before it exists. */
async function writeKeyFile(context: TargetContext, name: string, sizeBytes: number): Promise<string> {
  const file = joinPath(context.workDir, `${name}.key`);
  await context.registry.register({ kind: 'file', path: file });
  // The key is made on the host and never passes through encplan's memory or a bundle.
  await context.host.effects.createFile(file, { mode: 0o600, content: { kind: 'random', sizeBytes } });
  return file;
}

async function makeMountPoint(context: TargetContext, name: string): Promise<string> {
  const mountPoint = joinPath(context.workDir, name);
  await context.registry.register({ kind: 'directory', path: mountPoint });
  await context.host.effects.makeDirectory(mountPoint, { mode: 0o700 });
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

/** The filesystem the plain run (and fscrypt) uses: ext4 on a loop device over a sparse file, or on a raw device. */
export interface ScratchFilesystem {
  readonly mountPoint: string;
  readonly device: string;
}

/** Creates the scratch ext4 (with the encrypt feature) on `rawDevice`, or on a loop device over a sparse image. */
export async function prepareScratchFilesystem(
  context: TargetContext,
  rawDevice: string | null,
): Promise<ScratchFilesystem> {
  let device = rawDevice;
  if (device === null) {
    const image = joinPath(context.workDir, 'plain.img');
    await context.registry.register({ kind: 'file', path: image });
    await createSparseFile(context, image, scratchImageBytes(context.fileSizeBytes));
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
  const directory = joinPath(scratch.mountPoint, 'plain');
  await context.registry.register({ kind: 'directory', path: directory });
  await context.host.effects.makeDirectory(directory, { mode: 0o700 });
  return {
    backend: 'plain',
    variant: 'plain',
    directory,
    notes: [`ext4 on ${scratch.device}`],
    verification: null,
    mark,
  };
}

/**
 * Refuses to measure: the backend reported success, but its own status tools do not show an encrypted target.
 * A lying or broken tool must never turn a measurement of plain storage into an "encrypted" result.
 */
function unverified(backend: BackendId, reason: string, details: Record<string, unknown>): EncplanError {
  return new EncplanError(
    'TOOL_OUTPUT_UNRECOGNIZED',
    `The ${backend} target is not proven encrypted: ${reason}`,
    {
      hint: 'The backend tool reported success without an encrypted target; encplan does not measure it.',
      details: { backend, ...details },
    },
  );
}

/** Proves a directory carries an unlocked fscrypt policy with AES-256-XTS contents, via `fscrypt status`. */
export async function verifyFscrypt(
  context: Pick<TargetContext, 'host' | 'signal'>,
  directory: string,
  env: Readonly<Record<string, string>>,
): Promise<BackendVerification> {
  const args = fscryptArgs.status(directory);
  const output = await context.host.run(
    { tool: 'fscrypt', args, timeoutMs: SETUP_TIMEOUT_MS, env },
    context.signal,
  );
  const status = parseFscryptStatus(output.exitCode === 0 ? output.stdout : '');
  if (
    !status.encrypted ||
    status.policyId === null ||
    status.unlocked !== true ||
    status.contentsMode !== 'AES_256_XTS'
  ) {
    throw unverified('fscrypt', `fscrypt status ${directory} shows no unlocked AES_256_XTS policy.`, {
      directory,
    });
  }
  return {
    method: `fscrypt ${args.join(' ')}`,
    identity: `policy ${status.policyId}`,
    cipher: status.contentsMode,
  };
}

/**
 * An fscrypt (v2 policy, raw 256-bit key) directory on the SAME filesystem as the plain run, so the only
 * difference is encryption. fscrypt's config lives in the run's private directory and its metadata on the
 * scratch filesystem (`fscryptEnvironment`): nothing of the user's /etc/fscrypt.conf or /.fscrypt is created,
 * read or removed, and two runs never share fscrypt state. The key file is deleted once the kernel holds the key.
 */
export async function prepareFscrypt(
  context: TargetContext,
  scratch: ScratchFilesystem,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const state = { configFile: joinPath(context.workDir, 'fscrypt.conf'), rootMount: scratch.mountPoint };
  const env = fscryptEnvironment(state);
  await context.registry.register({ kind: 'file', path: state.configFile });
  await runChecked(context, 'fscrypt', fscryptArgs.setupGlobal(), { stdin: 'y\n', env });
  const directory = joinPath(scratch.mountPoint, 'fscrypt');
  await context.host.effects.makeDirectory(directory, { mode: 0o700 });
  // fscrypt raw keys are exactly 32 bytes (fscrypt README, "--source=raw_key").
  const keyFile = await writeKeyFile(context, 'fscrypt', 32);
  await context.registry.register({ kind: 'fscrypt-policy', directory, ...state });
  await runChecked(
    context,
    'fscrypt',
    fscryptArgs.encryptWithRawKey(directory, resourceName(context.pid, 'fscrypt'), keyFile),
    { env },
  );
  await context.host.effects.remove(keyFile, { recursive: false });
  const verification = await verifyFscrypt(context, directory, env);
  return {
    backend: 'fscrypt',
    variant: 'fscrypt',
    directory,
    notes: [
      'fscrypt v2 policy, AES-256-XTS contents, same ext4 as the plain run.',
      'Without inline-encryption hardware the kernel serves O_DIRECT on encrypted files through the page cache (kernel fscrypt.rst, "Direct I/O support").',
    ],
    verification,
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
    container = joinPath(context.workDir, `${tag}.img`);
    await context.registry.register({ kind: 'file', path: container });
    // LUKS2's default header takes 16 MiB (cryptsetup(8) "--luks2-metadata-size"); the rest holds ext4.
    await createSparseFile(context, container, context.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES + 16 * MIB);
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
  const verification = await verifyLuks2(context, mapping, container);
  const mountPoint = await makeExt4(context, `/dev/mapper/${mapping}`, tag);
  await verifyMountedFrom(context, 'luks2', mountPoint, `/dev/mapper/${mapping}`);
  return {
    backend: 'luks2',
    variant: luks2VariantName(variant),
    directory: mountPoint,
    notes: ['aes-xts-plain64, 512-bit key, ext4 on the mapping.'],
    verification,
    mark,
  };
}

/**
 * Proves the mapping exists as a dm-crypt target with aes-xts-plain64 (`dmsetup table NAME`; dm-crypt.rst
 * gives the table format). The key column is dropped by the parser and never recorded.
 */
export async function verifyLuks2(
  context: Pick<TargetContext, 'host' | 'signal'>,
  mapping: string,
  container: string,
): Promise<BackendVerification> {
  const cipher = await verifyCryptMapping(context, 'luks2', mapping, /^aes-xts-plain64$/, container);
  return {
    method: `dmsetup ${dmsetupArgs.table(mapping).join(' ')}`,
    identity: `/dev/mapper/${mapping}`,
    cipher,
  };
}

/**
 * Proves the container is mounted by VeraCrypt at the mount point (`veracrypt --list`), with AES, kernel crypto
 * through a device-mapper device when asked for, and that the mount point really is a mount (mountinfo).
 */
async function verifyVeracrypt(
  context: Pick<TargetContext, 'host' | 'signal'>,
  container: string,
  mountPoint: string,
  variant: VeracryptVariant,
): Promise<BackendVerification> {
  const args = veracryptArgs.list();
  const output = await context.host.run(
    { tool: 'veracrypt', args, timeoutMs: SETUP_TIMEOUT_MS },
    context.signal,
  );
  const volume = (output.exitCode === 0 ? parseVeracryptList(output.stdout) : []).find(
    (entry) => entry.volume === container && entry.mountDirectory === mountPoint,
  );
  const mounted = parseMountinfo((await context.host.readText('/proc/self/mountinfo')) ?? '').some(
    (entry) => entry.mountPoint === mountPoint,
  );
  const cipher = volume?.encryptionAlgorithm ?? null;
  const device = volume?.virtualDevice ?? null;
  // veracrypt's kernel crypto is a dm-crypt mapping (/dev/mapper/veracryptN); nokernelcrypto uses a loop device.
  const deviceMatches = device !== null && device.startsWith('/dev/mapper/') === variant.kernelCrypto;
  if (volume === undefined || !mounted || cipher === null || !/^AES\b/.test(cipher) || !deviceMatches) {
    throw unverified(
      'veracrypt',
      `veracrypt --list shows no AES volume ${container} mounted at ${mountPoint}.`,
      {
        container,
        mountPoint,
      },
    );
  }
  // What veracrypt says is not proof: the filesystem at the mount point must come from its device, and with
  // kernel crypto that device must be a dm-crypt mapping with an AES cipher (dm-crypt.rst table format).
  await verifyMountedFrom(context, 'veracrypt', mountPoint, device);
  if (variant.kernelCrypto) {
    await verifyCryptMapping(context, 'veracrypt', device.slice('/dev/mapper/'.length), /^aes-/);
  }
  return { method: `veracrypt ${args.join(' ')}`, identity: device, cipher };
}

/**
 * Proves the filesystem mounted at `mountPoint` is the one on `device` (/proc/self/mountinfo, proc(5): the
 * mount's source, or its major:minor against the device's): a tool that mounted something else there (a tmpfs)
 * is refused before anything is measured.
 */
async function verifyMountedFrom(
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
async function verifyCryptMapping(
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

function randomPassword(): string {
  return randomToken(24);
}

/** A VeraCrypt container file, mounted with kernel crypto (dm-crypt) or VeraCrypt's own (FUSE). */
export async function prepareVeracrypt(
  context: TargetContext,
  variant: VeracryptVariant,
): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const tag = variant.kernelCrypto ? 'veracrypt-kernel' : 'veracrypt-fuse';
  const container = joinPath(context.workDir, `${tag}.hc`);
  const password = randomPassword();
  await context.registry.register({ kind: 'file', path: container });
  const containerSizeBytes = context.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES;
  await runChecked(context, 'veracrypt', veracryptArgs.create(container, containerSizeBytes), {
    stdin: `${password}\n`,
    timeoutMs: veracryptCreateTimeoutMs(containerSizeBytes),
  });
  const mountPoint = await makeMountPoint(context, tag);
  await context.registry.register({ kind: 'veracrypt-volume', container });
  await runChecked(context, 'veracrypt', veracryptArgs.mount(container, mountPoint, variant), {
    stdin: `${password}\n`,
  });
  const verification = await verifyVeracrypt(context, container, mountPoint, variant);
  return {
    backend: 'veracrypt',
    variant: variant.kernelCrypto ? 'veracrypt kernel crypto' : 'veracrypt userspace crypto',
    directory: mountPoint,
    notes: ['AES, SHA-512, ext4 inside the container.'],
    verification,
    mark,
  };
}

/**
 * A scratch APFS disk image (macOS) attached at a private mount point: plain, or AES-256 encrypted with a
 * random passphrase that only ever goes to hdiutil's stdin. The encrypted image is proven encrypted by
 * `hdiutil isencrypted` before it is attached (Apple's disk-image driver encrypts the image, not APFS, so the
 * image itself is asked); a plain answer is refused.
 */
export async function prepareApfsImage(context: TargetContext, encrypted: boolean): Promise<PreparedTarget> {
  const mark = context.registry.mark();
  const tag = encrypted ? 'apfs' : 'plain';
  const image = joinPath(context.workDir, `${tag}.dmg`);
  const passphrase = encrypted ? randomPassword() : null;
  const run = async (spec: CommandSpec) =>
    runChecked(context, spec.tool, [...spec.args], {
      ...(spec.stdin === undefined ? {} : { stdin: spec.stdin }),
      ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    });
  await context.registry.register({ kind: 'file', path: image });
  await run(
    hdiutilCreateImage({
      imagePath: image,
      volumeName: resourceName(context.pid, tag),
      sizeMebibytes: Math.ceil((context.fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES) / MIB),
      encryption: passphrase === null ? null : { keyBits: 256, passphrase },
    }),
  );
  let verification: BackendVerification | null = null;
  if (encrypted) {
    const check = hdiutilIsEncrypted(image);
    if (!parseHdiutilIsEncrypted(await run(check)).encrypted) {
      throw unverified('apfs', 'hdiutil isencrypted says the benchmark image is not encrypted.', {
        tool: 'hdiutil',
        image,
      });
    }
    // isencrypted names no cipher; AES-256 is what `hdiutil create -encryption` was asked for.
    verification = { method: `hdiutil ${check.args.join(' ')}`, identity: image, cipher: 'AES-256' };
  }
  const mountPoint = await makeMountPoint(context, `${tag}-volume`);
  await context.registry.register({ kind: 'disk-image', mountPoint });
  await run(hdiutilAttach({ imagePath: image, mountPoint, passphrase }));
  return {
    backend: encrypted ? 'apfs' : 'plain',
    variant: tag,
    directory: mountPoint,
    notes: [
      encrypted
        ? 'APFS in an AES-256 encrypted disk image (hdiutil): the disk-image driver encrypts on the CPU, so its cost is an upper bound of APFS encryption, not what FileVault costs on an internal SSD whose storage controller encrypts (Apple Platform Security guide).'
        : 'APFS in a plain disk image (hdiutil), the same size and layout as the encrypted one.',
    ],
    verification,
    mark,
  };
}
