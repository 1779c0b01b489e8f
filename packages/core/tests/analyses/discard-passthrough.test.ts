import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  analyseDiscardPassthrough,
  assessDriveSections,
  readSysfsStack,
  type StackNode,
} from '@encplan/core';
import { assessHealth } from '../../src/analyses/health.js';
import { parseSmartctlJson } from '../../src/parsers/smartctl/smartctl-json.js';
import { discardPassthroughSchema } from '../../src/domain/trim.js';
import { parseDmsetupTable } from '../../src/parsers/dmsetup/table.js';
import { parseLsblkDiscard } from '../../src/parsers/lsblk/discard-table.js';
import { type DiscardStackFacts } from '../../src/probes/linux/discard-stack.js';
import { createDirectoryHost } from '../../../../tests/support/directory-host.js';
import { stackNode } from '../../../../tests/support/stack-node.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { fixture } from '../support/fixtures.js';

const NO_FACTS: DiscardStackFacts = {
  dmTables: {},
  luksFlags: {},
  crypttab: null,
  raid456DiscardSafe: null,
  mounts: null,
  fstrimTimer: null,
  readsZeroesAfterTrim: null,
};

function snapshot(caseName: string, disk: string): Promise<StackNode> {
  return readSysfsStack(createDirectoryHost(path.join(REPO_ROOT, 'fixtures/sysfs', caseName)), disk);
}

function flatten(node: StackNode): StackNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

describe('sysfs snapshots match the lsblk --discard captures they were built from', () => {
  it.each([
    [
      'sata-ssd-luks2-lvm-without-allow-discards-goodram',
      'sdb',
      'lsblk/lsblk-discard-sata-ssd-luks-lvm-before-discard/stdout.txt',
    ],
    [
      'sata-ssd-luks2-lvm-with-allow-discards-goodram',
      'sdb',
      'lsblk/lsblk-discard-sata-ssd-luks-lvm-after-discard/stdout.txt',
    ],
  ])('%s gives every layer the DISC-GRAN and DISC-MAX lsblk showed', async (caseName, disk, capture) => {
    const rows = parseLsblkDiscard(fixture(capture));
    const nodes = flatten(await snapshot(caseName, disk));
    for (const row of rows) {
      const node = nodes.find((candidate) => (candidate.mapperName ?? candidate.kernelName) === row.name);
      expect(node, row.name).toBeDefined();
      expect(node?.discard).toMatchObject({ granularityBytes: row.granularityBytes, maxBytes: row.maxBytes });
    }
    expect(nodes).toHaveLength(rows.length);
  });
});

describe('analyseDiscardPassthrough on real dm-crypt stacks', () => {
  it('finds dm-crypt opened without allow_discards as the first blocking layer, with the LUKS2 fix', async () => {
    const stack = await snapshot('sata-ssd-luks2-lvm-without-allow-discards-goodram', 'sdb');
    const result = analyseDiscardPassthrough(stack, {
      ...NO_FACTS,
      crypttab: [
        { name: 'debian_crypt', device: 'UUID=x', keyFile: null, options: ['luks'], discard: false },
      ],
    });
    expect(discardPassthroughSchema.parse(result)).toEqual(result);
    const root = result.paths.find((p) => p.topPath === '/dev/mapper/goodram_ssd-root');
    expect(root).toMatchObject({
      passesToDisk: false,
      firstBlockingLayer: '/dev/mapper/debian_crypt',
      discardsReachDrive: false,
    });
    expect(root?.fix).toBe(
      'cryptsetup refresh debian_crypt --allow-discards --persistent and add "discard" to the options of debian_crypt in /etc/crypttab',
    );
    expect(root?.layers.map((l) => [l.kind, l.passesDiscards, l.blocksHere])).toEqual([
      ['lvm', false, false],
      ['dm-crypt', false, true],
      ['partition', true, false],
      ['disk', true, false],
    ]);
    expect(root?.layers[0]?.reason).toBe('Blocked below, at /dev/mapper/debian_crypt.');
    expect(root?.leaks.join(' ')).toContain('Milan Broz');
    // The unencrypted partitions pass, and leak nothing.
    const sdb1 = result.paths.find((p) => p.topPath === '/dev/sdb1');
    expect(sdb1).toMatchObject({ passesToDisk: true, firstBlockingLayer: null, leaks: [] });
  });

  it('lets discards through every layer once allow_discards is in the table', async () => {
    const stack = await snapshot('sata-ssd-luks2-lvm-with-allow-discards-goodram', 'sdb');
    const table = parseDmsetupTable(
      fixture('sysfs/sata-ssd-luks2-lvm-with-allow-discards-goodram/dmsetup-table.txt'),
    );
    const result = analyseDiscardPassthrough(stack, {
      ...NO_FACTS,
      dmTables: { debian_crypt: table },
      luksFlags: { debian_crypt: ['allow-discards'] },
      fstrimTimer: { enabled: true, lastRunAt: '2026-11-16T00:00:01Z' },
      readsZeroesAfterTrim: true,
    });
    const home = result.paths.find((p) => p.topPath === '/dev/mapper/goodram_ssd-home');
    expect(home).toMatchObject({
      passesToDisk: true,
      firstBlockingLayer: null,
      fix: null,
      discardsReachDrive: true,
    });
    expect(home?.issuing).toMatchObject({
      how: 'periodic',
      fstrimTimerEnabled: true,
      fstrimTimerLastRunAt: '2026-11-16T00:00:01Z',
    });
    expect(home?.layers.find((l) => l.kind === 'dm-crypt')?.reason).toBe(
      'dm-crypt passes discards (table option allow_discards).',
    );
    expect(home?.leaks.some((leak) => leak.includes('exact'))).toBe(true);
  });

  it('warns that a passing LUKS2 mapping is not persistent without the header flag or crypttab discard', async () => {
    const stack = await snapshot('sata-ssd-luks2-lvm-with-allow-discards-goodram', 'sdb');
    const crypt = analyseDiscardPassthrough(stack, NO_FACTS).paths[3]?.layers.find(
      (l) => l.kind === 'dm-crypt',
    );
    expect(crypt?.reason).toContain('Not persistent');
  });

  it('passes discards through LVM striped over loop devices', async () => {
    const result = analyseDiscardPassthrough(
      await snapshot('loop-lvm-striped-four-loops-utillinux', 'loop0'),
      NO_FACTS,
    );
    expect(result.paths.map((p) => [p.topPath, p.passesToDisk])).toEqual([
      ['/dev/mapper/vg_foo.4059-lv_foo.4059', true],
    ]);
    expect(result.paths[0]?.layers.map((l) => l.kind)).toEqual(['lvm', 'loop']);
  });

  it('blames the disk itself when an HDD takes no discards, and passes them on the NVMe', async () => {
    const hdd = analyseDiscardPassthrough(await snapshot('sata-hdd-and-nvme-ssd-utillinux', 'sdb'), NO_FACTS);
    expect(hdd.paths[0]).toMatchObject({
      topPath: '/dev/sdb1',
      passesToDisk: false,
      firstBlockingLayer: '/dev/sdb',
      fix: null,
    });
    const nvme = analyseDiscardPassthrough(
      await snapshot('sata-hdd-and-nvme-ssd-utillinux', 'nvme0n1'),
      NO_FACTS,
    );
    expect(nvme.paths.map((p) => p.passesToDisk)).toEqual([true, true, true]);
  });
});

describe('analyseDiscardPassthrough rules over hand-built stacks', () => {
  const limits = (maxBytes: number) => ({
    granularityBytes: maxBytes === 0 ? 0 : 512,
    maxBytes,
    maxHardwareBytes: maxBytes,
    alignmentOffsetBytes: 0,
  });
  const node = (
    kernelName: string,
    type: StackNode['type'],
    maxBytes: number | null,
    children: StackNode[] = [],
    extra: Partial<StackNode> = {},
  ): StackNode =>
    stackNode(kernelName, type, { discard: maxBytes === null ? null : limits(maxBytes), children, ...extra });

  it('never lets a VeraCrypt mapping pass, whatever sysfs says, and gives the cryptsetup tcrypt workaround', () => {
    const vc = node('dm-0', 'crypt', 2 ** 31, [], {
      mapperName: 'veracrypt1',
      path: '/dev/mapper/veracrypt1',
    });
    const result = analyseDiscardPassthrough(
      node('sda', 'disk', 2 ** 31, [node('sda1', 'part', 2 ** 31, [vc])]),
      NO_FACTS,
    );
    expect(result.paths[0]).toMatchObject({
      passesToDisk: false,
      firstBlockingLayer: '/dev/mapper/veracrypt1',
    });
    expect(result.paths[0]?.fix).toContain('cryptsetup open --type tcrypt --allow-discards');
    expect(result.paths[0]?.layers[0]?.reason).toContain('veracrypt/VeraCrypt#1186');
  });

  it('blocks md RAID 5 without devices_handle_discard_safely and names the module parameter', () => {
    const md = node('md0', 'raid5', 0, [], { mapperName: 'md0' });
    const result = analyseDiscardPassthrough(node('sda', 'disk', 2 ** 31, [md]), {
      ...NO_FACTS,
      raid456DiscardSafe: false,
    });
    expect(result.raid456DiscardSafe).toBe(false);
    expect(result.paths[0]?.fix).toContain('devices_handle_discard_safely');
  });

  it('gives LUKS1 mappings the crypttab fix because LUKS1 cannot store the flag', () => {
    const crypt = node('dm-0', 'crypt', 0, [], { mapperName: 'old', dmUuid: 'CRYPT-LUKS1-abc-old' });
    const result = analyseDiscardPassthrough(node('sda', 'disk', 2 ** 31, [crypt]), NO_FACTS);
    expect(result.paths[0]?.fix).toBe(
      'cryptsetup refresh old --allow-discards and add "discard" to the options of old in /etc/crypttab',
    );
  });

  it('reports continuous discards from the mount option and unknown passthrough when sysfs is unreadable', () => {
    const top = node('sda1', 'part', null, [], { deviceNumber: '8:1', mountpoints: ['/'] });
    const result = analyseDiscardPassthrough(node('sda', 'disk', 2 ** 31, [top]), {
      ...NO_FACTS,
      mounts: [
        {
          deviceNumber: '8:1',
          root: '/',
          mountPoint: '/',
          filesystemType: 'ext4',
          source: '/dev/sda1',
          options: ['rw', 'discard'],
        },
      ],
      fstrimTimer: { enabled: false, lastRunAt: null },
    });
    expect(result.paths[0]).toMatchObject({
      passesToDisk: null,
      discardsReachDrive: null,
      issuing: { how: 'continuous', mountOptionDiscard: true },
    });
  });
});

describe('assessDriveSections', () => {
  it('combines a TRIM-capable SATA SSD with a LUKS2 stack that passes discards into five consistent sections', async () => {
    const stack = await snapshot('sata-ssd-luks2-lvm-with-allow-discards-goodram', 'sdb');
    const report = parseSmartctlJson(fixture('smartctl/sata-ssd-samsung-pm883-1.9tb-v7.3/stdout.json'));
    const sections = assessDriveSections({
      disk: {
        path: '/dev/sdb',
        kernelName: 'sdb',
        transport: 'sata',
        rotational: false,
        sizeBytes: 240_057_409_536,
      },
      stack,
      space: { unallocatedBytes: 0, regions: [], nvme: null },
      drive: {
        health: assessHealth(report.facts),
        trimCapabilities: report.trim === null ? [] : [report.trim],
        securityCapabilities: report.security === null ? [] : [report.security],
        nvmeIdCtrl: null,
        nvmeIdNs: null,
        hdparm: null,
        sedutil: null,
        provisioningMode: null,
      },
      discard: {
        ...NO_FACTS,
        dmTables: {
          debian_crypt: parseDmsetupTable(
            fixture('sysfs/sata-ssd-luks2-lvm-with-allow-discards-goodram/dmsetup-table.txt'),
          ),
        },
      },
    });
    expect(sections.health.verdict).toBe('healthy');
    expect(sections.trim).toMatchObject({
      status: 'supported',
      deviceSupportsTrim: true,
      readsZeroesAfterTrim: true,
      kernelDiscardMaxBytes: 2 ** 31,
    });
    expect(sections.discardPassthrough.paths.every((p) => p.passesToDisk === true)).toBe(true);
    expect(
      sections.discardPassthrough.paths
        .find((p) => p.topPath === '/dev/mapper/goodram_ssd-root')
        ?.leaks.some((l) => l.includes('exact')),
    ).toBe(true);
    expect(sections.sed.status).toBe('unknown');
    expect(sections.overProvisioning).toMatchObject({
      status: 'none',
      unallocatedBytes: 0,
      effectiveSpareBytes: 0,
    });
  });
});
