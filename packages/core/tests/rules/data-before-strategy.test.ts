import { describe, expect, it } from 'vitest';
import { assessBundle } from '@encplan/core';
import { parseBundle } from '../../src/capture/bundle.js';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { whyCannotHoldData } from '../../src/probes/linux/holds-data.js';
import { wholeDisksOf } from '../../src/use-cases/assess-all.js';
import { parseLsblkJson } from '../../src/parsers/lsblk/parse-lsblk-json.js';
import { fixture } from '../support/fixtures.js';

// Issue 25 item 6: what a disk holds is settled before a strategy is chosen.
const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };

async function bundleFacts(name: string): Promise<PlanFacts> {
  const envelope = await assessBundle(parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`))), clock);
  return envelope.result as unknown as PlanFacts;
}

describe('data is recognised before any strategy (captures)', () => {
  it('takes the filesystem type from the mount table when blkid is denied (virtio sandbox bundle)', async () => {
    const facts = await bundleFacts('virtio-root-no-table-blkid-eperm-debian12');
    // blkid -p: "Operation not permitted"; lsblk FSTYPE null; /proc/self/mountinfo: 254:0 on / is ext4.
    expect(facts.stack?.filesystem?.type).toBe('ext4');
  });

  it('never formats fresh a whole disk whose signatures could not be read, even with nothing mounted here', async () => {
    const facts = await bundleFacts('virtio-root-no-table-blkid-eperm-debian12');
    // The same disk seen from a mount namespace where it is not mounted (a container): blkid denied, no mount.
    const unmounted = {
      ...facts,
      disk: { ...facts.disk, mountpoints: [], isSystemDisk: false },
      stack: { ...facts.stack, filesystem: null, mountpoints: [] },
    } as PlanFacts;
    const strategy = buildPlan(unmounted).strategy;
    expect(strategy?.kind).toBe('undetermined');
    expect(strategy?.reason).toMatch(/check that it is empty/);
  });

  it('still formats fresh a whole disk the probe read as empty (its space is one never-allocated region)', () => {
    const facts = {
      disk: {
        path: '/dev/loop9',
        sizeBytes: 1 << 30,
        partitionTable: 'none',
        mountpoints: [],
        isSystemDisk: false,
      },
      partitions: [],
      stack: { kernelName: 'loop9', path: '/dev/loop9', filesystem: null, mountpoints: [], children: [] },
      space: {
        diskSizeBytes: 1 << 30,
        unallocatedBytes: 1 << 30,
        unallocatedPercent: 100,
        regions: [{ startBytes: 0, sizeBytes: 1 << 30, location: 'whole-disk' }],
      },
      encryption: { found: [] },
    } as unknown as PlanFacts;
    expect(buildPlan(facts).strategy?.kind).toBe('fresh-format');
  });
});

describe('devices that cannot hold data: one rule', () => {
  it('names memory-backed, empty and read-only devices with a stable reason', () => {
    const device = (kernelName: string, sizeBytes: number | null, readOnly: boolean | null) =>
      whyCannotHoldData({ kernelName, type: 'disk', sizeBytes, readOnly })?.reason ?? null;
    expect(device('zram0', 0, false)).toBe('memory-backed');
    expect(device('zram0', 8 << 30, false)).toBe('memory-backed');
    expect(device('ram0', 1 << 20, false)).toBe('memory-backed');
    expect(device('loop3', 0, false)).toBe('empty');
    expect(device('mmcblk0boot0', 4 << 20, true)).toBe('read-only');
    expect(device('sda', 1 << 40, false)).toBeNull();
    // Unknown size or flag decides nothing.
    expect(device('sda', null, null)).toBeNull();
  });

  it('assess --all leaves out exactly what the rule refuses (lsblk listing)', () => {
    const listing = JSON.stringify({
      blockdevices: [
        { name: 'sda', kname: 'sda', path: '/dev/sda', type: 'disk', size: 1 << 30, ro: false },
        { name: 'zram0', kname: 'zram0', path: '/dev/zram0', type: 'disk', size: 0, ro: false },
        {
          name: 'mmcblk0boot0',
          kname: 'mmcblk0boot0',
          path: '/dev/mmcblk0boot0',
          type: 'disk',
          size: 4 << 20,
          ro: true,
        },
        { name: 'loop1', kname: 'loop1', path: '/dev/loop1', type: 'loop', size: 0, ro: false },
      ],
    });
    expect(wholeDisksOf(parseLsblkJson(listing)).map((device) => device.path)).toEqual(['/dev/sda']);
  });
});
