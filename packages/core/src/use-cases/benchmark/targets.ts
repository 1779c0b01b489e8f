import {
  losetupArgs,
  makeExt4,
  runChecked,
  createSparseFile,
  scratchImageBytes,
  type PreparedTarget,
  type ScratchFilesystem,
  type TargetContext as StepsContext,
} from '../../targets/container-steps.js';
import type { CleanupRegistry } from './cleanup-registry.js';
import { joinPath } from './paths.js';

export type { PreparedTarget, ScratchFilesystem } from '../../targets/container-steps.js';

/** The benchmark run's context: the container steps' context with the run's cleanup registry. */
export type TargetContext = StepsContext<CleanupRegistry>;

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
