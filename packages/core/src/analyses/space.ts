import type { Space, SpaceInput, UnallocatedRegion } from '../domain/space.js';

/** 1 MiB: partitioning tools align to it, so smaller holes are alignment slack, not usable spare area. */
const MINIMUM_REGION_BYTES = 1024 * 1024;

/**
 * Finds the never-allocated space of a disk: holes between partitions, before the first and after the
 * last, inside the area the partition table allows. Pure.
 */
export function computeSpace(input: SpaceInput): Omit<Space, 'nvme' | 'hostProtectedArea'> {
  const size = input.diskSizeBytes;
  if (input.table === null) {
    const regions: UnallocatedRegion[] =
      input.wholeDiskInUse || size === 0 ? [] : [{ startBytes: 0, sizeBytes: size, location: 'whole-disk' }];
    return summarise(size, regions, 0);
  }
  const sector = input.table.sectorBytes;
  // GPT: LBA 0-33 and the backup header and entries at the end are the table's (UEFI spec §5.3);
  // sfdisk reports the usable LBAs. MBR: only sector 0 is the table's.
  const usableStart =
    input.table.firstUsableSector === null ? sector : input.table.firstUsableSector * sector;
  const usableEnd =
    input.table.lastUsableSector === null ? size : (input.table.lastUsableSector + 1) * sector;
  const overhead = Math.max(0, usableStart) + Math.max(0, size - usableEnd);

  const covered = [...input.partitions]
    .map((part) => ({ start: part.startBytes, end: part.startBytes + part.sizeBytes }))
    .sort((a, b) => a.start - b.start);
  const holes: { start: number; end: number }[] = [];
  let cursor = usableStart;
  for (const part of covered) {
    if (part.start > cursor) {
      holes.push({ start: cursor, end: Math.min(part.start, usableEnd) });
    }
    cursor = Math.max(cursor, part.end);
  }
  if (cursor < usableEnd) {
    holes.push({ start: cursor, end: usableEnd });
  }
  const firstPartitionStart = covered[0]?.start ?? usableEnd;
  const regions = holes
    .filter((hole) => hole.end - hole.start >= MINIMUM_REGION_BYTES)
    .map((hole): UnallocatedRegion => {
      let location: UnallocatedRegion['location'] = 'gap';
      if (covered.length === 0) {
        location = 'whole-disk';
      } else if (hole.end >= usableEnd) {
        location = 'tail';
      } else if (hole.end <= firstPartitionStart) {
        location = 'head';
      }
      return { startBytes: hole.start, sizeBytes: hole.end - hole.start, location };
    });
  return summarise(size, regions, overhead);
}

function summarise(
  size: number,
  regions: UnallocatedRegion[],
  overhead: number,
): Omit<Space, 'nvme' | 'hostProtectedArea'> {
  const unallocated = regions.reduce((sum, region) => sum + region.sizeBytes, 0);
  return {
    diskSizeBytes: size,
    unallocatedBytes: unallocated,
    unallocatedPercent: size === 0 ? 0 : Math.round((unallocated / size) * 10_000) / 100,
    regions,
    partitionTableOverheadBytes: overhead,
  };
}
