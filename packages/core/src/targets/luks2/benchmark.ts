import { MIB } from '../../domain/units.js';
import { EncplanError } from '../../errors.js';
import { luks2VariantName, type BackendVerification, type Luks2Variant } from '../../domain/io-benchmark.js';
import {
  FILESYSTEM_OVERHEAD_BYTES,
  dmsetupArgs,
  makeExt4,
  resourceName,
  runChecked,
  createSparseFile,
  verifyCryptMapping,
  verifyMountedFrom,
  writeKeyFile,
  type PreparedTarget,
  type TargetContext,
} from '../container-steps.js';
import { joinPath } from '../posix-paths.js';

export const cryptsetupArgs = {
  /**
   * luksFormat with LUKS2's default cipher and 512-bit key (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc, cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615). The key is a random
   * 64-byte key file, so the KDF protects nothing: PBKDF2 at cryptsetup's minimum of 1000 iterations keeps
   * formatting instant (cryptsetup(8) `--pbkdf-force-iterations`).
   */
  luksFormat: (container: string, keyFile: string, sectorSizeBytes: number): string[] => [
    'luksFormat',
    '--batch-mode',
    '--type',
    'luks2',
    '--cipher',
    'aes-xts-plain64',
    '--key-size',
    '512',
    '--sector-size',
    String(sectorSizeBytes),
    '--pbkdf',
    'pbkdf2',
    '--pbkdf-force-iterations',
    '1000',
    '--key-file',
    keyFile,
    '--',
    container,
  ],
  /** `--perf-no_*_workqueue` need kernel ≥ 5.9 and cryptsetup ≥ 2.3.4 (Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; dm-crypt no_read_workqueue/no_write_workqueue (Linux 5.9); cryptsetup(8) --perf-*). */
  open: (container: string, keyFile: string, mappingName: string, noWorkqueues: boolean): string[] => [
    'open',
    '--type',
    'luks2',
    '--key-file',
    keyFile,
    ...(noWorkqueues ? ['--perf-no_read_workqueue', '--perf-no_write_workqueue'] : []),
    '--',
    container,
    mappingName,
  ],
  close: (mappingName: string): string[] => ['close', mappingName],
};

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
