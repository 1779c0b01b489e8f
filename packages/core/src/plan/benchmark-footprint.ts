import type { StackNode } from '../domain/device.js';
import type { BackendId, IoBenchmarkMode } from '../domain/io-benchmark.js';
import { benchmarkOf } from '../targets/registry.js';
import type { MountEntry } from '../parsers/proc/mountinfo.js';
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
