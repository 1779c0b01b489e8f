import { MIB } from '../../domain/units.js';
import type { BackendVerification } from '../../domain/io-benchmark.js';
import { parseHdiutilIsEncrypted } from '../../parsers/hdiutil/parse-hdiutil-isencrypted.js';
import type { CommandSpec } from '../../ports.js';
import {
  FILESYSTEM_OVERHEAD_BYTES,
  makeMountPoint,
  randomPassword,
  resourceName,
  runChecked,
  unverified,
  type PreparedTarget,
  type TargetContext,
} from '../container-steps.js';
import { joinPath } from '../posix-paths.js';
import { hdiutilAttach, hdiutilCreateImage, hdiutilIsEncrypted } from './hdiutil.js';

/** hdiutil(1) `detach`; the scratch images are made by hdiutil.ts. */
export const hdiutilArgs = {
  detach: (mountPoint: string): string[] => ['detach', mountPoint],
  /** "-force: ignore open files on mounted volumes" (hdiutil(1)): for encplan's own scratch image only. */
  forceDetach: (mountPoint: string): string[] => ['detach', mountPoint, '-force'],
};

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
