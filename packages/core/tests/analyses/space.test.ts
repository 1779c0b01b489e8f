import { describe, expect, it } from 'vitest';
import { computeSpace } from '../../src/analyses/space.js';
import { parseSfdiskJson } from '../../src/parsers/sfdisk/parse-sfdisk-json.js';
import { fixture } from '../support/fixtures.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('computeSpace', () => {
  it('finds the never-allocated tail behind a partition that covers 78 % of a 1 GiB loop disk', () => {
    const table = parseSfdiskJson(fixture('sfdisk/loop-gpt-one-partition/stdout'));
    const space = computeSpace({
      diskSizeBytes: GiB,
      table,
      partitions: table.partitions.map((part) => ({
        startBytes: part.startSectors * 512,
        sizeBytes: part.sizeSectors * 512,
      })),
      wholeDiskInUse: false,
    });
    // Usable area ends at LBA 2097118 (the backup GPT takes the last 33 sectors).
    const tail = (2_097_118 + 1) * 512 - (2048 + 1_634_304) * 512;
    expect(space.regions).toEqual([
      { startBytes: (2048 + 1_634_304) * 512, sizeBytes: tail, location: 'tail' },
    ]);
    expect(space.unallocatedBytes).toBe(tail);
    expect(space.unallocatedPercent).toBeCloseTo((tail / GiB) * 100, 1);
    expect(space.partitionTableOverheadBytes).toBe(34 * 512 + 33 * 512);
  });

  it.each([
    {
      name: 'a hole between two partitions is a gap',
      partitions: [
        { startBytes: MiB, sizeBytes: 100 * MiB },
        { startBytes: 301 * MiB, sizeBytes: GiB - 302 * MiB },
      ],
      expected: [{ startBytes: 101 * MiB, sizeBytes: 200 * MiB, location: 'gap' }],
    },
    {
      name: 'space before the first partition beyond the 1 MiB alignment is the head',
      partitions: [{ startBytes: 64 * MiB, sizeBytes: GiB - 65 * MiB }],
      expected: [{ startBytes: 34 * 512, sizeBytes: 64 * MiB - 34 * 512, location: 'head' }],
    },
    {
      name: 'alignment slack under 1 MiB is not counted',
      partitions: [{ startBytes: MiB, sizeBytes: GiB - MiB - 33 * 512 - 4096 }],
      expected: [],
    },
    {
      name: 'a table without partitions leaves the whole usable area free',
      partitions: [],
      expected: [{ startBytes: 34 * 512, sizeBytes: GiB - 67 * 512, location: 'whole-disk' }],
    },
  ])('$name', ({ partitions, expected }) => {
    const space = computeSpace({
      diskSizeBytes: GiB,
      table: { label: 'gpt', sectorBytes: 512, firstUsableSector: 34, lastUsableSector: GiB / 512 - 34 },
      partitions,
      wholeDiskInUse: false,
    });
    expect(space.regions).toEqual(expected);
  });

  it('counts a disk with no partition table and nothing on it as entirely free', () => {
    expect(
      computeSpace({ diskSizeBytes: GiB, table: null, partitions: [], wholeDiskInUse: false }),
    ).toMatchObject({ unallocatedBytes: GiB, unallocatedPercent: 100 });
  });

  it('counts nothing free on a disk used whole by a filesystem or LUKS without a table', () => {
    expect(
      computeSpace({ diskSizeBytes: GiB, table: null, partitions: [], wholeDiskInUse: true }),
    ).toMatchObject({ unallocatedBytes: 0, regions: [] });
  });

  it('for an MBR disk only the first sector belongs to the table', () => {
    const space = computeSpace({
      diskSizeBytes: GiB,
      table: { label: 'dos', sectorBytes: 512, firstUsableSector: null, lastUsableSector: null },
      partitions: [{ startBytes: MiB, sizeBytes: GiB / 2 }],
      wholeDiskInUse: false,
    });
    expect(space.partitionTableOverheadBytes).toBe(512);
    expect(space.regions).toEqual([
      { startBytes: MiB + GiB / 2, sizeBytes: GiB / 2 - MiB, location: 'tail' },
    ]);
  });
});
