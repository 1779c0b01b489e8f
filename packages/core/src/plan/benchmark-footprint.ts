import type { StackNode } from '../domain/device.js';
import type { BackendId, IoBenchmarkMode } from '../domain/io-benchmark.js';
import { benchmarkOf } from '../targets/registry.js';
import { FIO_MODES } from './fio-jobs.js';

const MIB = 1024 * 1024;

/** Room for the ext4 metadata and journal around the fio file (mke2fs reserves ~5% plus the journal). */
export const FILESYSTEM_OVERHEAD_BYTES = 128 * MIB;

/** Free space kept beyond what the scratch files need, so the filesystem never runs full (encplan's margin). */
export const FREE_SPACE_MARGIN_BYTES = 256 * MIB;

/** Size of the sparse image for the shared plain + fscrypt filesystem: two fio files plus ext4 overhead. */
export function scratchImageBytes(fileSizeBytes: number): number {
  return 2 * fileSizeBytes + FILESYSTEM_OVERHEAD_BYTES;
}

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

/** The largest mounted filesystem of the disk's stack: where scratch containers can go without writing the device. */
export function scratchDirectoryOf(stack: StackNode): string | null {
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
  return largest?.mountpoints.find((mount) => mount.startsWith('/')) ?? null;
}
