import type { StackNode } from '../domain/device.js';
import type { BackendId, IoBenchmarkMode } from '../domain/io-benchmark.js';
import { benchmarkOf } from '../targets/registry.js';
import type { MountEntry } from '../parsers/proc/mountinfo.js';
import { FIO_MODES } from './fio-jobs.js';

import { scratchImageBytes } from '../targets/container-steps.js';

export { FILESYSTEM_OVERHEAD_BYTES } from '../targets/container-steps.js';
export { SLOWEST_WRITE_BYTES_PER_SECOND, veracryptCreateTimeoutMs } from '../targets/veracrypt/benchmark.js';

const MIB = 1024 * 1024;

/** Free space kept beyond what the scratch files need, so the filesystem never runs full (encplan's margin). */
export const FREE_SPACE_MARGIN_BYTES = 256 * MIB;

/** One encrypted container file (LUKS2, VeraCrypt, APFS image): the fio file, ext4 and the LUKS2 header. */
function containerBytes(fileSizeBytes: number): number {
  return fileSizeBytes + 160 * MIB;
}

/** The bytes one encrypted backend's containers take (fscrypt shares the plain filesystem: none). */
function encryptedContainerBytes(backend: BackendId, mode: IoBenchmarkMode): number {
  return (benchmarkOf(backend)?.containers(mode) ?? 0) * containerBytes(FIO_MODES[mode].fileSizeBytes);
}

/**
 * The bytes a benchmark in a directory writes at most (sparse files, so at most): the plain scratch image and
 * each encrypted backend's containers. Every one is removed afterwards (run-io-benchmark's cleanup registry).
 */
export function benchmarkScratchBytes(backends: readonly BackendId[], mode: IoBenchmarkMode): number {
  return (
    scratchImageBytes(FIO_MODES[mode].fileSizeBytes) +
    backends.reduce((sum, backend) => sum + encryptedContainerBytes(backend, mode), 0)
  );
}

/**
 * The folder a benchmark of the disk writes its scratch containers in: the largest mounted filesystem of the
 * disk's stack, at the mount point of the filesystem itself. A filesystem can be mounted at several places,
 * some of them bind mounts of a subfolder (a network-namespace folder under /run, a container's volume): with
 * the mount table (`mountInfo`, /proc/self/mountinfo) the mount whose root is "/" is chosen (proc(5), field 4),
 * the place a person knows the filesystem by; without it, the first mount point lsblk lists.
 */
export function scratchDirectoryOf(
  stack: StackNode,
  mountInfo: readonly MountEntry[] | null = null,
): string | null {
  const mounted: StackNode[] = [];
  const walk = (node: StackNode): void => {
    // A mount point proves a filesystem even when blkid could not name it (no raw access).
    if (node.mountpoints.some((mount) => mount.startsWith('/'))) {
      mounted.push(node);
    }
    node.children.forEach(walk);
  };
  walk(stack);
  const largest = mounted.sort((a, b) => b.sizeBytes - a.sizeBytes)[0];
  const points = largest?.mountpoints.filter((mount) => mount.startsWith('/')) ?? [];
  const ownRoot = points.find((point) =>
    mountInfo?.some((entry) => entry.mountPoint === point && entry.root === '/'),
  );
  return ownRoot ?? points[0] ?? null;
}
