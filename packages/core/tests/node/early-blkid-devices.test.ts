import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blkidDevices } from '../../src/node/early-disk-calls.js';
import { removeAtFileEnd } from '../../../../tests/support/temp-dirs.js';

// Issue 28: the early start asks blkid about the devices the inventory will ask, when it can know them from
// sysfs before lsblk answered (node/early-disk-calls.ts `blkidDevices`). A sysfs and udev folder of our own,
// laid out as the kernel and udev lay them out (a loop disk's partitions are blkext devices, major 259).
interface Device {
  readonly dev: string;
  readonly holders?: readonly string[];
}

function layout(
  disk: string,
  whole: Device,
  partitions: Readonly<Record<string, Device>>,
  udev: string[] = [],
) {
  const root = removeAtFileEnd(mkdtempSync(path.join(tmpdir(), 'encplan-test-early-sysfs-')));
  const roots = { sys: path.join(root, 'sys'), udevData: path.join(root, 'udev') };
  const write = (folder: string, device: Device, partition: boolean) => {
    mkdirSync(path.join(folder, 'holders'), { recursive: true });
    writeFileSync(path.join(folder, 'dev'), `${device.dev}\n`);
    for (const holder of device.holders ?? []) {
      writeFileSync(path.join(folder, 'holders', holder), '');
    }
    if (partition) {
      writeFileSync(path.join(folder, 'partition'), '1\n');
    }
  };
  const diskFolder = path.join(roots.sys, 'block', disk);
  write(diskFolder, whole, false);
  // What else a disk's sysfs folder holds: not partitions.
  mkdirSync(path.join(diskFolder, 'queue'));
  mkdirSync(path.join(diskFolder, `${disk}-not-a-partition`));
  for (const [name, device] of Object.entries(partitions)) {
    write(path.join(diskFolder, name), device, true);
  }
  mkdirSync(roots.udevData, { recursive: true });
  for (const record of udev) {
    writeFileSync(path.join(roots.udevData, record), 'E:ID_FS_TYPE=ext4\n');
  }
  return roots;
}

describe('the devices blkid will be asked about, known before lsblk answers', () => {
  it('the disk, then its partitions in lsblk order (by device number, not by name)', () => {
    const roots = layout(
      'loop9',
      { dev: '7:9' },
      {
        loop9p1: { dev: '259:300' },
        loop9p2: { dev: '259:7' },
        loop9p3: { dev: '259:255' },
        loop9p10: { dev: '259:256' },
      },
    );
    expect(blkidDevices('loop9', roots)).toEqual([
      '/dev/loop9',
      '/dev/loop9p2',
      '/dev/loop9p3',
      '/dev/loop9p10',
      '/dev/loop9p1',
    ]);
  });

  it('a disk without partitions: the disk alone', () => {
    expect(blkidDevices('sdz', layout('sdz', { dev: '8:208' }, {}))).toEqual(['/dev/sdz']);
  });

  it('unknown (null) when udev has a record of the disk or a partition: lsblk may have the types', () => {
    const partitions = { loop9p1: { dev: '259:4' }, loop9p2: { dev: '259:5' } };
    expect(blkidDevices('loop9', layout('loop9', { dev: '7:9' }, partitions, ['b259:5']))).toBeNull();
    expect(blkidDevices('loop9', layout('loop9', { dev: '7:9' }, partitions, ['b7:9']))).toBeNull();
    // A record of another device changes nothing.
    expect(blkidDevices('loop9', layout('loop9', { dev: '7:9' }, partitions, ['b259:6']))).toHaveLength(3);
  });

  it('unknown (null) when something is stacked on the disk or a partition: lsblk lists it too', () => {
    const stacked = { loop9p1: { dev: '259:4', holders: ['dm-0'] }, loop9p2: { dev: '259:5' } };
    expect(blkidDevices('loop9', layout('loop9', { dev: '7:9' }, stacked))).toBeNull();
    expect(blkidDevices('loop9', layout('loop9', { dev: '7:9', holders: ['md0'] }, {}))).toBeNull();
  });

  it('unknown (null) when the disk is not in sysfs', () => {
    const roots = layout('loop9', { dev: '7:9' }, {});
    expect(blkidDevices('loop8', roots)).toBeNull();
  });
});
