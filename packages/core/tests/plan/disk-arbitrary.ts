import fc from 'fast-check';
import type { PlanFacts } from '../../src/rules/facts.js';

const MIB = 1_048_576;

/** Random disks: a table or none, partitions, mounts, swap, holders, whole-disk filesystems, free regions. */
export const diskArbitrary = fc
  .record({
    sizeMiB: fc.integer({ min: 256, max: 4 * 1024 * 1024 }),
    table: fc.constantFrom('gpt', 'dos', 'none', 'unknown', undefined),
    partitionSharesPermille: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 5 }),
    mounted: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    swap: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    holder: fc.constantFrom(null, 'crypt', 'lvm', 'raid1'),
    wholeDiskFs: fc.constantFrom(null, 'ext4', 'crypto_LUKS', 'LVM2_member'),
    systemDisk: fc.boolean(),
    stackKnown: fc.boolean(),
    workload: fc.constantFrom('desktop', 'server', 'write-heavy'),
    targetTool: fc.constantFrom('luks2', 'veracrypt'),
    trim: fc.constantFrom(true, false, undefined),
    ssd: fc.boolean(),
  })
  .map((shape): PlanFacts => {
    const size = shape.sizeMiB * MIB;
    const path = '/dev/sdz';
    const table = shape.wholeDiskFs !== null ? 'none' : shape.table;
    let cursor = MIB;
    const partitions =
      table === 'none'
        ? []
        : shape.partitionSharesPermille.flatMap((permille, index) => {
            const sizeBytes = Math.floor((size * permille) / 1000 / MIB) * MIB;
            if (sizeBytes < MIB || cursor + sizeBytes > size - MIB) {
              return [];
            }
            const start = cursor;
            cursor += sizeBytes;
            const mountpoints = shape.swap[index]
              ? ['[SWAP]']
              : shape.mounted[index]
                ? [`/m${String(index)}`]
                : [];
            return [
              {
                path: `${path}${String(index + 1)}`,
                number: index + 1,
                startBytes: start,
                sizeBytes,
                filesystem: { type: shape.swap[index] ? 'swap' : 'ext4' },
                mountpoints,
              },
            ];
          });
    const usableEnd = size - 34 * 512;
    const regions =
      table === 'none'
        ? shape.wholeDiskFs === null && shape.holder === null && !shape.systemDisk
          ? [{ startBytes: 0, sizeBytes: size, location: 'whole-disk' as const }]
          : []
        : cursor + MIB <= usableEnd
          ? [{ startBytes: cursor, sizeBytes: usableEnd - cursor, location: 'tail' as const }]
          : [];
    const mountpoints = [
      ...partitions.flatMap((partition) => partition.mountpoints),
      ...(shape.wholeDiskFs === 'ext4' && shape.mounted[0] ? ['/'] : []),
    ];
    const holderNode =
      shape.holder === null
        ? []
        : [{ path: '/dev/dm-0', type: shape.holder, mapperName: 'held', mountpoints: [], children: [] }];
    return {
      provenance: { platform: 'linux 6.1' },
      disk: {
        path,
        sizeBytes: size,
        logicalSectorBytes: 512,
        transport: 'sata',
        ...(table === undefined ? {} : { partitionTable: table }),
        isSystemDisk: shape.systemDisk,
        mountpoints,
      },
      media: { kind: shape.ssd ? 'ssd' : 'hdd' },
      ...(shape.trim === undefined ? {} : { trim: { deviceSupportsTrim: shape.trim } }),
      partitions,
      ...(shape.stackKnown
        ? {
            stack: {
              path,
              type: 'disk',
              filesystem: shape.wholeDiskFs === null ? null : { type: shape.wholeDiskFs },
              mountpoints: shape.wholeDiskFs === 'ext4' && shape.mounted[0] ? ['/'] : [],
              children: [
                ...partitions.map((partition) => ({ ...partition, type: 'part' as const, children: [] })),
                ...(table === 'none' ? holderNode : []),
              ],
            },
          }
        : {}),
      space: { regions },
    };
  });
