import { describe, expect, it } from 'vitest';
import type { CommandSpec, Host } from '../../src/ports.js';
import { createProbeContext } from '../../src/probes/probe-context.js';
import { probeLinuxInventory } from '../../src/probes/linux/inventory.js';
import { parseLsblkJson } from '../../src/parsers/lsblk/parse-lsblk-json.js';
import { fixture, fixtureCommand } from '../support/fixtures.js';
import { refusedEffects } from '../../../../tests/support/directory-host.js';

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

function laneHost(calls: string[][]): Host {
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
