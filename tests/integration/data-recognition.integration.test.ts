import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { loopDeviceSkipReason } from './support/loop-device.js';

// Issue 25 item 6: data is recognised before any strategy is chosen. A filesystem made on the whole disk (no
// partition table), mounted, with data, is never "format it fresh"; a device that cannot hold data (0 bytes,
// read-only) is refused by `assess DEVICE` with a stable code and left out by `assess --all`.
const skipReason = loopDeviceSkipReason(['losetup', 'mkfs.ext4', 'blkid']);
if (skipReason !== null) {
  console.log(`[integration] data recognition on loop devices skipped: ${skipReason}`);
}

const SBIN_PATH = `/usr/sbin:/sbin:${process.env.PATH ?? ''}`;
const run = (command: string, args: readonly string[]): string =>
  execFileSync(command, [...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: SBIN_PATH, LC_ALL: 'C' },
  });

interface Assessment {
  status: string;
  error: { code: string; details: { reason?: string } | null } | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the e2e schema tests check the shape
  result: Record<string, any> | null;
}

describe.skipIf(skipReason !== null)('data recognition on real loop devices (root)', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-data-'));
  const mountpoint = path.join(directory, 'mnt');
  const devices: string[] = [];
  let mounted = false;
  const attach = (image: string, sizeBytes: number, readOnly = false): string => {
    run('truncate', ['-s', String(sizeBytes), image]);
    const device = run('losetup', [...(readOnly ? ['--read-only'] : []), '--find', '--show', image]).trim();
    devices.push(device);
    return device;
  };
  let wholeDisk = '';
  let empty = '';
  let readOnly = '';

  beforeAll(() => {
    // Registered before creation: afterAll removes exactly what this test made.
    wholeDisk = attach(path.join(directory, 'whole.img'), 128 * 1024 * 1024);
    run('mkfs.ext4', ['-q', '-F', wholeDisk]);
    run('mkdir', [mountpoint]);
    run('mount', [wholeDisk, mountpoint]);
    mounted = true;
    writeFileSync(path.join(mountpoint, 'notes.txt'), 'data that must survive\n'.repeat(1000));
    run('sync', []);
    empty = attach(path.join(directory, 'empty.img'), 0);
    readOnly = attach(path.join(directory, 'read-only.img'), 64 * 1024 * 1024, true);
  });
  afterAll(() => {
    if (mounted) {
      spawnSync('umount', [mountpoint], { env: { PATH: SBIN_PATH } });
    }
    for (const device of devices) {
      spawnSync('losetup', ['--detach', device], { env: { PATH: SBIN_PATH } });
    }
    rmSync(directory, { recursive: true, force: true });
  });

  it('a mounted whole-disk ext4 with data is recognised as data, for every target: never a fresh format', () => {
    for (const target of ['luks2', 'veracrypt']) {
      const assessed = runCli(['assess', wholeDisk, '--json', '--target', target]);
      expect(assessed.status, assessed.stderr).toBe(0);
      const { result } = JSON.parse(assessed.stdout) as Assessment;
      expect(result?.disk.partitionTable).toBe('none');
      expect(result?.stack.filesystem).toMatchObject({ type: 'ext4' });
      const strategy = result?.plan.strategy;
      expect(strategy.target).toMatchObject({ path: wholeDisk, filesystemType: 'ext4' });
      // Fresh format only as "back up and restore" (the data is named), never "nothing here".
      if (strategy.kind === 'fresh-format') {
        expect(strategy.reason).toMatch(/holds data/);
        expect(strategy.preconditions.map((p: { id: string }) => p.id)).toContain('backup');
      }
      expect(strategy.reason).not.toMatch(/No partition .* holds a filesystem or a mount/);
    }
  });

  it.each([
    ['a 0-byte loop device', () => empty, 'empty'],
    ['a read-only loop device', () => readOnly, 'read-only'],
  ])('refuses %s with DEVICE_UNSUPPORTED (exit 4) and a stable reason', (_, device, reason) => {
    const assessed = runCli(['assess', device(), '--json']);
    expect(assessed.status, assessed.stderr).toBe(4);
    const envelope = JSON.parse(assessed.stdout) as Assessment;
    expect(envelope.error).toMatchObject({ code: 'DEVICE_UNSUPPORTED', details: { reason } });
    const text = runCli(['assess', device()]);
    expect(text.stderr).toContain(device());
  });

  it('assess --all leaves out by the same rule what assess DEVICE refuses', () => {
    const all = runCli(['assess', '--all', '--json'], { timeoutMs: 300_000 });
    const listed = (JSON.parse(all.stdout) as { result: { disks: { device: string }[] } }).result.disks.map(
      (disk) => disk.device,
    );
    expect(listed).toContain(wholeDisk);
    expect(listed).not.toContain(empty);
    expect(listed).not.toContain(readOnly);
  });
});
