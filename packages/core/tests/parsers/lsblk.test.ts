import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { parseLsblkJson } from '../../src/parsers/lsblk/parse-lsblk-json.js';
import { fixture } from '../support/fixtures.js';
import { expectEachUnrecognized } from './expect-unrecognized.js';

describe('parseLsblkJson', () => {
  it('reads a loop device with a GPT partition as captured by util-linux 2.38 on Debian 12', () => {
    const [loop] = parseLsblkJson(fixture('lsblk/loop-gpt-ext4-78pct-debian12/stdout'));
    expect(loop).toMatchObject({
      kernelName: 'loop0',
      path: '/dev/loop0',
      type: 'loop',
      sizeBytes: 1_073_741_824,
      deviceNumber: '7:0',
      rotational: true,
      logicalSectorBytes: 512,
      physicalSectorBytes: 512,
      transport: null,
      serial: null,
      mountpoints: [],
    });
    expect(loop?.children).toHaveLength(1);
    expect(loop?.children[0]).toMatchObject({
      kernelName: 'loop0p1',
      type: 'part',
      sizeBytes: 836_763_648,
      startSectors: 2048,
    });
  });

  it('reads typed JSON without --bytes, turning human sizes into approximate bytes', () => {
    const devices = parseLsblkJson(fixture('lsblk/virtio-4kphys-partitions-oci-lkml/stdout'));
    expect(devices.map((device) => device.kernelName)).toEqual(['sda4', 'sdb2']);
    const [sda4] = devices;
    expect(sda4).toMatchObject({
      type: 'part',
      filesystemType: 'xfs',
      partitionTableType: 'gpt',
      partitionLabel: 'SCRATCH_DEV',
      physicalSectorBytes: 4096,
      logicalSectorBytes: 512,
      minimumIoBytes: 4096,
      optimalIoBytes: 1_048_576,
      subsystems: 'block:scsi:virtio:pci',
      wwn: '0x6024f38ce0184097914648e6d5e1ac3a',
    });
    // "33.3G" is all this capture says; 33.3 × 2^30 rounded.
    expect(sda4?.sizeBytes).toBe(Math.round(33.3 * 1024 ** 3));
  });

  it('reads a real kernel’s dm stacks as a tree: crypt, LVM inside crypt, crypt inside LVM (kernel lane)', () => {
    const [disk] = parseLsblkJson(fixture('lsblk/qemu-debian12-kernel6.1-stacks-luks2-lvm-tcrypt/stdout'));
    type Node = { kernelName: string; type: string; children: readonly Node[] };
    const shape = (node: Node): unknown => [
      `${node.kernelName}:${node.type}`,
      ...node.children.map((child) => shape(child)),
    ];
    expect(disk && shape(disk)).toEqual([
      'vda:disk',
      ['vda1:part', ['dm-0:crypt']],
      ['vda2:part', ['dm-1:crypt']],
      ['vda3:part', ['dm-2:crypt', ['dm-3:lvm']]],
      ['vda4:part', ['dm-4:lvm', ['dm-5:crypt']]],
      ['vda5:part', ['dm-6:crypt']],
    ]);
    const luksInLvm = disk?.children[3]?.children[0]?.children[0];
    expect(luksInLvm).toMatchObject({
      name: 'lane-luks-in-lvm',
      path: '/dev/mapper/lane-luks-in-lvm',
      sizeBytes: 83_886_080,
    });
    // No udev ran in the guest: lsblk had no udev database to take FSTYPE from.
    expect(disk?.children[0]?.filesystemType).toBeNull();
  });

  it('fails closed on output without a blockdevices list', () => {
    expectEachUnrecognized(parseLsblkJson, [
      '',
      '{}',
      '{"blockdevices": 3}',
      'lsblk: /dev/x: not a block device',
      '[1,2]',
    ]);
  });

  it('never crashes on arbitrary or truncated input: it parses or throws TOOL_OUTPUT_UNRECOGNIZED', () => {
    const real = fixture('lsblk/loop-gpt-ext4-78pct-debian12/stdout');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.nat({ max: real.length }).map((n) => real.slice(0, n)),
        ),
        (text) => {
          try {
            parseLsblkJson(text);
          } catch (error) {
            expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
          }
        },
      ),
    );
  });
});
