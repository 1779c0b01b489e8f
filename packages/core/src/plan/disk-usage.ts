import { STACK_NODE_TYPES, type StackNode, type StackNodeType } from '../domain/device.js';
import type { DeepPartial, PlanFacts } from '../rules/facts.js';

/** Why something on the disk is in use. */
export type InUseKind = 'mounted' | 'swap' | 'mapped' | 'whole-disk-signature' | 'system-disk';

/** One thing on the disk that is in use: no command may write to it or relabel the disk that holds it. */
export interface InUseItem {
  readonly path: string;
  readonly kind: InUseKind;
  readonly detail: string;
}

/** A byte range [startBytes, endBytes) on the disk. */
export interface ByteRange {
  readonly startBytes: number;
  readonly endBytes: number;
}

/** An existing partition: nothing the plan writes may touch it. */
export interface ExistingPartition extends ByteRange {
  readonly number: number | null;
  readonly path: string | null;
}

/**
 * What the facts say about who uses the disk, read once so the command builder and the invariant checker
 * decide from the same view.
 */
export interface DiskUsage {
  /** The disk as the commands name it; null when the facts name none (a stand-in is used). */
  readonly diskPath: string | null;
  readonly logicalSectorBytes: number | null;
  readonly sizeBytes: number | null;
  /** Everything on the disk that is mounted, swap, a mapped/holder device or a whole-disk signature. */
  readonly inUse: readonly InUseItem[];
  /** False when the facts needed to tell (mount points, the holder stack) are missing. */
  readonly usageKnown: boolean;
  /**
   * True only when the facts show the whole disk never allocated: no partition table, no signature, no
   * holder, not mounted, and the space analysis found the whole disk free (a failed probe never counts).
   */
  readonly wholeDiskFree: boolean;
  /** Never-allocated regions from the space analysis (inside the table's usable LBAs); empty when unknown. */
  readonly freeRegions: readonly ByteRange[];
  /** The disk's partitions; null when not known. */
  readonly partitions: readonly ExistingPartition[] | null;
}

/** Device-mapper, md and loop layers above the disk: a mapped device holds what is below it. */
const NOT_HOLDERS: ReadonlySet<StackNodeType> = new Set(['disk', 'part', 'rom', 'other']);
const HOLDER_TYPES: ReadonlySet<string> = new Set(STACK_NODE_TYPES.filter((type) => !NOT_HOLDERS.has(type)));

function walk(node: DeepPartial<StackNode>): DeepPartial<StackNode>[] {
  return [node, ...(node.children ?? []).flatMap(walk)];
}

function nodeUse(node: DeepPartial<StackNode>, isRoot: boolean): InUseItem[] {
  const path = node.path ?? node.kernelName ?? 'unknown device';
  const items: InUseItem[] = [];
  for (const mount of node.mountpoints ?? []) {
    items.push(
      mount === '[SWAP]'
        ? { path, kind: 'swap', detail: `${path} is active swap` }
        : { path, kind: 'mounted', detail: `${path} is mounted on ${mount}` },
    );
  }
  if (node.filesystem?.type === 'swap' && !(node.mountpoints ?? []).includes('[SWAP]')) {
    items.push({ path, kind: 'swap', detail: `${path} holds a swap signature` });
  }
  if (!isRoot && HOLDER_TYPES.has(node.type ?? '')) {
    items.push({
      path,
      kind: 'mapped',
      detail: `${path} is a mapped ${node.type ?? ''} device${node.mapperName ? ` ("${node.mapperName}")` : ''} on this disk`,
    });
  }
  const holder = node.children?.[0];
  if (!isRoot && node.type === 'part' && holder !== undefined) {
    items.push({
      path,
      kind: 'mapped',
      detail: `${path} is held by ${holder.path ?? holder.kernelName ?? 'a mapped device'}`,
    });
  }
  if (isRoot && node.filesystem !== undefined && node.filesystem !== null) {
    items.push({
      path,
      kind: 'whole-disk-signature',
      detail: `${path} carries ${node.filesystem.type ?? 'a signature'} across the whole disk`,
    });
  }
  return items;
}

/**
 * What uses the disk right now: mounted, swap, held by a mapped device, or the running system's disk. A
 * whole-disk signature alone is data at rest (no relabel may touch it), not a use. On a disk in use no command
 * of the fresh path may run: a partition-table change is a write too, and blkdiscard opens the whole disk
 * exclusively (O_EXCL since util-linux 2.36, blkdiscard(8) --force) and fails "busy" (issue 25 item 5).
 */
export function activeUseOf(usage: DiskUsage): readonly InUseItem[] {
  return usage.inUse.filter((item) => item.kind !== 'whole-disk-signature');
}

/** Reads the disk's usage from the assessment facts (pure). */
export function diskUsageOf(facts: PlanFacts): DiskUsage {
  const disk = facts.disk;
  const inUse: InUseItem[] = [];
  const diskPath = disk?.path ?? null;
  if (disk?.isSystemDisk === true) {
    inUse.push({
      path: diskPath ?? 'the disk',
      kind: 'system-disk',
      detail: `${diskPath ?? 'the disk'} is the system disk (/, /boot or swap)`,
    });
  }
  const seen = new Set(inUse.map((item) => `${item.path} ${item.kind} ${item.detail}`));
  const add = (item: InUseItem): void => {
    const key = `${item.path} ${item.kind} ${item.detail}`;
    if (!seen.has(key)) {
      seen.add(key);
      inUse.push(item);
    }
  };
  if (facts.stack !== undefined && facts.stack !== null) {
    walk(facts.stack).forEach((node, index) => {
      nodeUse(node, index === 0).forEach(add);
    });
    // A holder directly on the whole disk (LVM PV, md member without a table).
    for (const child of facts.stack.children ?? []) {
      if (child.type !== 'part' && facts.disk?.partitionTable === 'none') {
        add({
          path: diskPath ?? 'the disk',
          kind: 'whole-disk-signature',
          detail: `${diskPath ?? 'the disk'} is used whole by ${child.path ?? child.type ?? 'a holder'}`,
        });
      }
    }
  }
  for (const partition of facts.partitions ?? []) {
    nodeUse({ ...partition, type: 'part' }, false).forEach(add);
  }
  // The disk's own list covers mounts anywhere in its stack (lsblk); name them even when the stack is missing.
  for (const mount of disk?.mountpoints ?? []) {
    if (
      !inUse.some(
        (item) => item.detail.endsWith(` on ${mount}`) || (mount === '[SWAP]' && item.kind === 'swap'),
      )
    ) {
      add({
        path: diskPath ?? 'the disk',
        kind: mount === '[SWAP]' ? 'swap' : 'mounted',
        detail: `${mount} is mounted from ${diskPath ?? 'the disk'}`,
      });
    }
  }
  const usageKnown =
    disk?.mountpoints !== undefined && disk.isSystemDisk !== undefined && facts.stack !== undefined;
  const freeRegions = (facts.space?.regions ?? []).flatMap((region) =>
    region.startBytes === undefined || region.sizeBytes === undefined
      ? []
      : [{ startBytes: region.startBytes, endBytes: region.startBytes + region.sizeBytes }],
  );
  const wholeDiskRegion = (facts.space?.regions ?? []).some(
    (region) =>
      region.location === 'whole-disk' &&
      region.startBytes === 0 &&
      disk?.sizeBytes !== undefined &&
      region.sizeBytes === disk.sizeBytes,
  );
  const partitions =
    facts.partitions === undefined || facts.partitions === null
      ? null
      : facts.partitions.map((partition) => ({
          number: partition.number ?? null,
          path: partition.path ?? null,
          startBytes: partition.startBytes ?? 0,
          endBytes:
            partition.startBytes === undefined || partition.sizeBytes === undefined
              ? Number.POSITIVE_INFINITY
              : partition.startBytes + partition.sizeBytes,
        }));
  return {
    diskPath,
    logicalSectorBytes: disk?.logicalSectorBytes ?? null,
    sizeBytes: disk?.sizeBytes ?? null,
    inUse,
    usageKnown,
    wholeDiskFree:
      usageKnown &&
      inUse.length === 0 &&
      disk?.partitionTable === 'none' &&
      (facts.stack?.children ?? []).length === 0 &&
      (partitions?.length ?? 0) === 0 &&
      wholeDiskRegion,
    freeRegions,
    partitions,
  };
}

/**
 * The kernel's name of partition `number` of `diskPath`: "p" between a name ending in a digit and the
 * number (nvme0n1p2, loop0p1, mmcblk0p1), else the number alone (sda2, vda1), as the kernel's
 * disk_name() does.
 */
export function partitionPathOf(diskPath: string, number: number): string {
  return /\d$/.test(diskPath) ? `${diskPath}p${String(number)}` : `${diskPath}${String(number)}`;
}

/** The in-place alternative to wiping a disk that holds data (its commands come with the in-place strategy). */
export const IN_PLACE_ALTERNATIVE =
  'Encrypt in place instead: LUKS2 `cryptsetup reencrypt --encrypt --reduce-device-size` keeps the data (shrink the filesystem first; the root filesystem from a live system), or reinstall onto an encrypted disk.';
