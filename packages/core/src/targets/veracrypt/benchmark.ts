import type { BackendVerification } from '../../domain/io-benchmark.js';
import { parseMountinfo } from '../../parsers/proc/mountinfo.js';
import { parseVeracryptList } from '../../parsers/veracrypt/parse-veracrypt-list.js';
import {
  FILESYSTEM_OVERHEAD_BYTES,
  makeMountPoint,
  randomPassword,
  runChecked,
  SETUP_TIMEOUT_MS,
  unverified,
  verifyCryptMapping,
  verifyMountedFrom,
  type PreparedTarget,
  type TargetContext,
} from '../container-steps.js';
import { joinPath } from '../posix-paths.js';

/** The VeraCrypt variants: kernel dm-crypt, or its own userspace crypto through FUSE (`nokernelcrypto`). */
export interface VeracryptVariant {
  readonly kernelCrypto: boolean;
}

/** Low PIM because the password is random and thrown away; iterations = 15000 + 1000·PIM (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c). */
const VERACRYPT_BENCH_PIM = '1';

export const veracryptArgs = {
  /** Creates an AES/SHA-512 ext4 container non-interactively; the password arrives on stdin (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c CLI). */
  create: (container: string, sizeBytes: number): string[] => [
    '--text',
    '--create',
    container,
    `--size=${sizeBytes}`,
    '--volume-type=normal',
    '--encryption=AES',
    '--hash=SHA-512',
    '--filesystem=ext4',
    `--pim=${VERACRYPT_BENCH_PIM}`,
    '--keyfiles=',
    '--random-source=/dev/urandom',
    '--non-interactive',
    '--stdin',
  ],
  mount: (container: string, mountPoint: string, variant: VeracryptVariant): string[] => [
    '--text',
    '--mount',
    container,
    mountPoint,
    `--pim=${VERACRYPT_BENCH_PIM}`,
    '--keyfiles=',
    '--protect-hidden=no',
    ...(variant.kernelCrypto ? [] : ['--mount-options=nokernelcrypto']),
    '--non-interactive',
    '--stdin',
  ],
  dismount: (container: string): string[] => ['--text', '--dismount', container, '--non-interactive'],
  list: (): string[] => ['--text', '--list', '--verbose', '--non-interactive'],
};

/**
 * The slowest write rate encplan plans for on a benchmark's scratch filesystem: 2 MB/s, the minimum sequential
 * write of an SD card of Speed Class 2, the lowest class (SD Association, "Speed Class Standards for Video
 * Recording"). A `veracrypt --create` without `--quick` writes every byte of the container once, encrypted.
 */
export const SLOWEST_WRITE_BYTES_PER_SECOND = 2_000_000;

/**
 * Fixed time a `veracrypt --create` takes besides writing: header key derivation (SHA-512 at PIM 1, 16,000
 * iterations: 15000 + 1000·PIM, VeraCrypt documentation "Personal Iterations Multiplier (PIM)"), the random
 * pool and mkfs. Generous: a minute.
 */
const VERACRYPT_CREATE_FIXED_MS = 60_000;

/**
 * The deadline of `veracrypt --create` for a container of `sizeBytes`: its fixed part plus every byte written
 * at SLOWEST_WRITE_BYTES_PER_SECOND (docs/benchmarks-io.md "Deadlines"). A 200 MiB container gets 165 s, not a
 * flat ten minutes; a tool that hangs costs no more than the work could take on the slowest storage.
 */
export function veracryptCreateTimeoutMs(sizeBytes: number): number {
  return VERACRYPT_CREATE_FIXED_MS + Math.ceil((sizeBytes / SLOWEST_WRITE_BYTES_PER_SECOND) * 1000);
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
