import { describe, expect, it } from 'vitest';
import { isEncplanError, type Host } from '@encplan/core';
import { type PathStat } from '../../src/ports.js';
import {
  assertDeviceMayBeOverwritten,
  type DestructiveConfirmation,
} from '../../src/use-cases/benchmark/device-guard.js';
import { refusedEffects } from '../../../../tests/support/directory-host.js';

/** A host whose files and directories are given as maps: enough for the guard, which only reads. */
function hostWith(
  files: Record<string, string>,
  dirs: Record<string, string[]>,
  stats: Record<string, PathStat>,
): Host {
  return {
    platform: 'linux',
    privileged: true,
    cwd: '/',
    effects: refusedEffects('the guard only reads'),
    run: () => Promise.reject(new Error('the guard runs no process')),
    readText: (path) => Promise.resolve(files[path] ?? null),
    listDir: (path) => Promise.resolve(dirs[path] ?? null),
    realPath: (path) => Promise.resolve(path),
    stat: (path) => Promise.resolve(stats[path] ?? null),
    whichTool: () => Promise.resolve(null),
    systemInfo: () => Promise.reject(new Error('unused')),
  };
}

const disk: PathStat = {
  kind: 'block-device',
  deviceNumber: '8:16',
  containingDeviceNumber: '0:5',
  sizeBytes: 0,
  readable: true,
};
const confirmed: DestructiveConfirmation = { allowDestructive: true, typedDevice: '/dev/sdb', yes: false };
const base = {
  files: {
    '/sys/class/block/sdb1/dev': '8:17\n',
    '/proc/self/mountinfo': '',
    '/proc/swaps': 'Filename Type Size Used Priority\n',
  },
  dirs: {
    '/sys/class/block/sdb': ['dev', 'holders', 'sdb1', 'size'],
    '/sys/class/block/sdb/holders': [],
    '/sys/class/block/sdb1/holders': [],
  },
};

async function codeOf(host: Host, confirmation: DestructiveConfirmation = confirmed): Promise<string | null> {
  try {
    await assertDeviceMayBeOverwritten(host, '/dev/sdb', confirmation);
    return null;
  } catch (error) {
    return isEncplanError(error) ? error.code : String(error);
  }
}

describe('assertDeviceMayBeOverwritten', () => {
  it('allows an idle, confirmed disk (typed name or its short form, or --yes)', async () => {
    const host = hostWith(base.files, base.dirs, { '/dev/sdb': disk });
    expect(await codeOf(host)).toBeNull();
    expect(await codeOf(host, { allowDestructive: true, typedDevice: 'sdb', yes: false })).toBeNull();
    expect(await codeOf(host, { allowDestructive: true, typedDevice: null, yes: true })).toBeNull();
  });

  it.each([
    {
      name: 'without --destructive',
      confirmation: { allowDestructive: false, typedDevice: '/dev/sdb', yes: true },
      files: {},
      dirs: {},
    },
    {
      name: 'with a different typed name',
      confirmation: { allowDestructive: true, typedDevice: '/dev/sda', yes: false },
      files: {},
      dirs: {},
    },
    {
      name: 'when a partition is mounted (the system disk case)',
      confirmation: confirmed,
      files: { '/proc/self/mountinfo': '29 1 8:17 / / rw,relatime shared:1 - ext4 /dev/sdb1 rw\n' },
      dirs: {},
    },
    {
      name: 'when a partition has a holder (LVM, dm-crypt)',
      confirmation: confirmed,
      files: {},
      dirs: { '/sys/class/block/sdb1/holders': ['dm-0'] },
    },
    {
      name: 'when a partition is swap',
      confirmation: confirmed,
      files: { '/proc/swaps': 'Filename Type Size Used Priority\n/dev/sdb1 partition 1024 0 -2\n' },
      dirs: {},
    },
  ])('refuses $name', async ({ confirmation, files, dirs }) => {
    const host = hostWith({ ...base.files, ...files }, { ...base.dirs, ...dirs }, { '/dev/sdb': disk });
    expect(await codeOf(host, confirmation)).toBe('DESTRUCTIVE_OPERATION_REFUSED');
  });

  it('says DEVICE_NOT_FOUND for a missing device and INVALID_ARGUMENT for a regular file', async () => {
    expect(await codeOf(hostWith(base.files, base.dirs, {}))).toBe('DEVICE_NOT_FOUND');
    const file: PathStat = { ...disk, kind: 'file', deviceNumber: null };
    expect(await codeOf(hostWith(base.files, base.dirs, { '/dev/sdb': file }))).toBe('INVALID_ARGUMENT');
  });
});
