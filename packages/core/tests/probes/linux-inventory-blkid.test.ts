import { describe, expect, it } from 'vitest';
import type { CommandSpec, Host } from '../../src/ports.js';
import { createProbeContext } from '../../src/probes/probe-context.js';
import { probeLinuxInventory } from '../../src/probes/linux/inventory.js';
import { parseLsblkJson } from '../../src/parsers/lsblk/parse-lsblk-json.js';
import { fixture, fixtureCommand } from '../support/fixtures.js';
import { refusedEffects } from '../../../../tests/support/directory-host.js';
import { linuxStorageModel } from '../../src/analyses/storage-model.js';
import { storageSummaryOf } from '../../src/analyses/storage-summary.js';
import type { LsblkDevice } from '../../src/parsers/lsblk/parse-lsblk-json.js';

// The stack of kernel lane test 50 (LUKS2 ×4 incl. one inside LVM, TCRYPT), as lsblk listed it without udev:
// no FSTYPE anywhere, so encplan asks blkid for every node.
const [vda] = parseLsblkJson(fixture('lsblk/qemu-debian12-kernel6.1-stacks-luks2-lvm-tcrypt/stdout'));
const LUKS2 = 'VERSION=2\nTYPE=crypto_LUKS\nUSAGE=crypto\n';
/** What `blkid -p` finds on each node: the four LUKS2 volumes; nothing on the open mappings' random data. */
const SIGNATURES: Record<string, string> = {
  '/dev/vda': 'PTTYPE=gpt\n',
  '/dev/vda1': `${LUKS2}PART_ENTRY_NUMBER=1\n`,
  '/dev/vda2': `${LUKS2}PART_ENTRY_NUMBER=2\n`,
  '/dev/vda3': `${LUKS2}PART_ENTRY_NUMBER=3\n`,
  '/dev/vda4': 'TYPE=LVM2_member\nPART_ENTRY_NUMBER=4\n',
  '/dev/vda5': 'PART_ENTRY_NUMBER=5\n',
  '/dev/mapper/lanevg2-cryptlv': LUKS2,
};

/**
 * blkid as util-linux 2.38.1 behaves (fixtures/blkid/loop-nothing-found-first-stops-the-probe): a block per
 * device in argv order, stopping at the first device it finds nothing on, exit 2 with nothing on stderr.
 */
function realBlkid(devices: readonly string[]): { stdout: string; exitCode: number } {
  const blocks: string[] = [];
  for (const device of devices) {
    const found = SIGNATURES[device];
    if (found === undefined) {
      return { stdout: blocks.join('\n'), exitCode: 2 };
    }
    blocks.push(`DEVNAME=${device}\n${found}`);
  }
  return { stdout: blocks.join('\n'), exitCode: 0 };
}

function laneHost(calls: string[][], answers: Partial<Host> = {}): Host {
  const luksDump = fixture('cryptsetup-luksdump/lv-luks2-pbkdf2-kernel-lane-debian12/stdout');
  return {
    platform: 'linux',
    privileged: true,
    cwd: '/',
    effects: refusedEffects('inventory only reads'),
    run: (spec: CommandSpec) => {
      calls.push([spec.tool, ...spec.args]);
      if (spec.tool === 'blkid') {
        const answer = realBlkid(spec.args.slice(spec.args.indexOf('--') + 1));
        return Promise.resolve({ ...answer, stderr: '', durationMs: 1 });
      }
      if (spec.tool === 'cryptsetup') {
        return Promise.resolve({ stdout: luksDump, stderr: '', exitCode: 0, durationMs: 1 });
      }
      return Promise.resolve({ stdout: '', stderr: 'not in this test', exitCode: 1, durationMs: 1 });
    },
    readText: () => Promise.resolve(null),
    listDir: () => Promise.resolve(null),
    realPath: (path) => Promise.resolve(path),
    stat: () => Promise.resolve(null),
    whichTool: () => Promise.resolve(null),
    systemInfo: () => Promise.reject(new Error('unused')),
    ...answers,
  };
}

describe('Linux inventory: blkid over every node of a disk', () => {
  it('the captured blkid stops at the first device with nothing on it (the behaviour the probe relies on)', () => {
    const command = fixtureCommand('blkid/loop-nothing-found-first-stops-the-probe');
    expect(command.argv.slice(4)).toHaveLength(2);
    expect(command.exitCode).toBe(2);
    expect(fixture('blkid/loop-nothing-found-first-stops-the-probe/stdout')).toBe('');
  });

  it('finds every LUKS2 volume although empty mappings come before them (kernel lane stack)', async () => {
    if (vda === undefined) {
      throw new Error('fixture without a disk');
    }
    const calls: string[][] = [];
    const context = createProbeContext(laneHost(calls));
    const inventory = await probeLinuxInventory(
      context,
      { kernelName: 'vda', path: '/dev/vda', requested: '/dev/vda', resolvedFrom: 'argument' },
      { includeSerials: false, lsblkDevice: vda },
    );
    const luks = inventory.encryption.found.filter((f) => f.format === 'luks2').map((f) => f.path);
    expect(luks.sort()).toEqual(['/dev/mapper/lanevg2-cryptlv', '/dev/vda1', '/dev/vda2', '/dev/vda3']);
    // Six mappings hold nothing (the last node, lane-tcrypt, among them): one call, then one more after each
    // empty node that has nodes after it, each starting right after the node that ended the one before.
    const blkidCalls = calls.filter((call) => call[0] === 'blkid');
    expect(blkidCalls).toHaveLength(6);
    expect(blkidCalls[1]?.[5]).toBe('/dev/vda2');
    expect(context.warnings.filter((w) => w.source === 'blkid')).toEqual([]);
  });
});

/** The inventory of the lane disk, as the assess use case gets it. */
async function laneInventory(host: Host, device: LsblkDevice) {
  const context = createProbeContext(host);
  const inventory = await probeLinuxInventory(
    context,
    { kernelName: 'vda', path: '/dev/vda', requested: '/dev/vda', resolvedFrom: 'argument' },
    { includeSerials: false, lsblkDevice: device },
  );
  return { context, inventory };
}

describe('the storage model of a Linux stack (issue 26 items 1 and 4)', () => {
  it('LVM on LUKS and LUKS on LVM: each layer with its kind, the LUKS2 header with its keyslots', async () => {
    if (vda === undefined) {
      throw new Error('fixture without a disk');
    }
    const { inventory } = await laneInventory(laneHost([]), vda);
    const model = linuxStorageModel({
      ...inventory,
      space: null,
      discardPassthrough: null,
      overProvisioning: null,
    });
    const layer = (id: string) => model.layers.find((entry) => entry.id === id);
    // LVM on LUKS: the LV sits on the open LUKS2 mapping of vda3.
    expect(layer('/dev/mapper/lane-lvm-crypt')).toMatchObject({ kind: 'dm-crypt', on: ['/dev/vda3'] });
    expect(layer('/dev/mapper/lane-lvm-crypt')?.encryption).toMatchObject({
      kind: 'luks2',
      protection: 'on',
      keySlots: [{ id: '0', type: 'pbkdf2', tokens: [] }],
    });
    expect(layer('/dev/mapper/lanevg-lanelv')).toMatchObject({
      kind: 'lvm',
      on: ['/dev/mapper/lane-lvm-crypt'],
      encryption: null,
    });
    // LUKS on LVM: the LUKS2 header is on the LV of vda4.
    expect(layer('/dev/mapper/lanevg2-cryptlv')).toMatchObject({ kind: 'lvm', on: ['/dev/vda4'] });
    expect(layer('/dev/mapper/lane-luks-in-lvm')).toMatchObject({
      kind: 'dm-crypt',
      on: ['/dev/mapper/lanevg2-cryptlv'],
      encryption: { kind: 'luks2' },
    });
    // sysfs did not answer slaves/ here: whether a VG spans other disks is unknown, never "no".
    expect(layer('/dev/mapper/lanevg2-cryptlv')?.otherDisks).toBeNull();
    expect(model.partitions.find((part) => part.id === '/dev/vda3')?.encryption?.kind).toBe('luks2');
  });

  it('a volume group with a physical volume on another disk names that disk (sysfs slaves/)', async () => {
    if (vda === undefined) {
      throw new Error('fixture without a disk');
    }
    // sysfs answers as for a VG over vda4 and a second disk's vdb1 (dm-4 is lanevg2-cryptlv in the capture).
    const host = laneHost([], {
      listDir: (path) =>
        Promise.resolve(
          path === '/sys/class/block/dm-4/slaves' ? ['vda4', 'vdb1'] : path.endsWith('/slaves') ? [] : null,
        ),
    });
    const { inventory } = await laneInventory(host, vda);
    const model = linuxStorageModel({
      ...inventory,
      space: null,
      discardPassthrough: null,
      overProvisioning: null,
    });
    expect(model.layers.find((entry) => entry.id === '/dev/mapper/lanevg2-cryptlv')?.otherDisks).toEqual([
      '/dev/vdb1',
    ]);
    expect(model.layers.find((entry) => entry.id === '/dev/mapper/lanevg-lanelv')?.otherDisks).toEqual([]);
    expect(
      storageSummaryOf({
        ...inventory,
        space: null,
        discardPassthrough: null,
        overProvisioning: null,
        storage: model,
      })?.spansDisks,
    ).toBe(true);
  });

  it('an open VeraCrypt volume (dm "veracrypt1", no CRYPT- UUID) is encryption, with the cipher veracrypt --list names', async () => {
    // The lane's lsblk capture with its TCRYPT mapping as VeraCrypt itself maps it: named veracrypt1, typed "dm"
    // (VeraCrypt runs `dmsetup create veracrypt1` without a UUID), mounted where the real `veracrypt --list`
    // capture (fixtures/veracrypt/list-verbose-two-aes-volumes) says its slot 1 is.
    const captured = JSON.parse(fixture('lsblk/qemu-debian12-kernel6.1-stacks-luks2-lvm-tcrypt/stdout')) as {
      blockdevices: { children?: { name: string; children?: Record<string, unknown>[] }[] }[];
    };
    const vda5 = captured.blockdevices[0]?.children?.find((child) => child.name === 'vda5');
    const mapping = vda5?.children?.[0];
    if (mapping === undefined) {
      throw new Error('fixture without the TCRYPT mapping');
    }
    Object.assign(mapping, {
      name: 'veracrypt1',
      path: '/dev/mapper/veracrypt1',
      type: 'dm',
      fstype: 'ext4',
      mountpoint: '/home/bob/mount/encrypt/sdb1',
      mountpoints: ['/home/bob/mount/encrypt/sdb1'],
    });
    const [disk] = parseLsblkJson(JSON.stringify(captured));
    if (disk === undefined) {
      throw new Error('no disk');
    }
    const list = fixture('veracrypt/list-verbose-two-aes-volumes/stdout.txt');
    const base = laneHost([]);
    const host = laneHost([], {
      whichTool: (tool) => Promise.resolve(tool === 'veracrypt' ? '/usr/bin/veracrypt' : null),
      readText: (path) => Promise.resolve(path === '/sys/class/block/dm-6/dm/name' ? 'veracrypt1\n' : null),
      run: (spec) =>
        spec.tool === 'veracrypt'
          ? Promise.resolve({
              stdout: list,
              stderr: '',
              exitCode: 0,
              durationMs: 1,
            })
          : base.run(spec),
    });
    const { inventory } = await laneInventory(host, disk);
    expect(inventory.encryption.found).toContainEqual(
      expect.objectContaining({
        path: '/dev/vda5',
        format: 'tcrypt',
        cipher: 'AES-XTS',
        keyBits: 512,
        source: 'veracrypt --text --list --verbose',
      }),
    );
    const model = linuxStorageModel({
      ...inventory,
      space: null,
      discardPassthrough: null,
      overProvisioning: null,
    });
    expect(model.layers.find((entry) => entry.id === '/dev/mapper/veracrypt1')).toMatchObject({
      kind: 'veracrypt',
      encryption: { kind: 'veracrypt', cipher: 'AES-XTS', keyBits: 512, protection: 'on' },
    });
    expect(model.volumes.find((volume) => volume.id === '/dev/mapper/veracrypt1')).toMatchObject({
      filesystem: 'ext4',
      encryptedBy: ['/dev/mapper/veracrypt1'],
      encryption: { kind: 'veracrypt' },
    });
  });
});
