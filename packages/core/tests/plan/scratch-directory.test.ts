import { describe, expect, it } from 'vitest';
import { scratchDirectoryOf } from '../../src/plan/benchmark-footprint.js';
import { parseMountinfo } from '../../src/parsers/proc/mountinfo.js';
import { stackNode } from '../../../../tests/support/stack-node.js';

// The root filesystem as lsblk lists it when a network-namespace folder under /run is a bind mount of one of its
// subfolders and comes first in the mount table (issue 25).
const disk = stackNode('vda', 'disk', {
  sizeBytes: 20e9,
  children: [
    stackNode('vda1', 'part', { sizeBytes: 19e9, mountpoints: ['/run/netns-bench', '/'] }),
    stackNode('vda15', 'part', { sizeBytes: 1e8, mountpoints: ['/boot/efi'] }),
  ],
});
const MOUNTINFO = [
  '29 1 254:1 /var/lib/netns-bench /run/netns-bench rw,relatime shared:1 - ext4 /dev/vda1 rw',
  '30 1 254:1 / / rw,relatime shared:2 - ext4 /dev/vda1 rw',
  '31 30 254:15 / /boot/efi rw,relatime shared:3 - vfat /dev/vda15 rw',
].join('\n');

describe('scratchDirectoryOf: the folder a person expects (issue 25)', () => {
  it("chooses the filesystem's own root mount, not a bind mount of a subfolder listed first", () => {
    expect(scratchDirectoryOf(disk, parseMountinfo(MOUNTINFO))).toBe('/');
  });

  it('reads the root of each mount from mountinfo field 4', () => {
    expect(parseMountinfo(MOUNTINFO).map((entry) => [entry.mountPoint, entry.root])).toEqual([
      ['/run/netns-bench', '/var/lib/netns-bench'],
      ['/', '/'],
      ['/boot/efi', '/'],
    ]);
  });

  it('without the mount table (a wizard view of JSON facts), the first mount point lsblk lists', () => {
    expect(scratchDirectoryOf(disk)).toBe('/run/netns-bench');
  });
});
