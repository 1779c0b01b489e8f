import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SBIN_PATH = `/usr/sbin:/sbin:${process.env.PATH ?? ''}`;

function findSkipReason(tools: readonly string[]): string | null {
  if (process.getuid?.() !== 0) {
    return 'needs root (loop devices); CI runs as root';
  }
  for (const tool of tools) {
    if (spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool], { env: { PATH: SBIN_PATH } }).status !== 0) {
      return `needs ${tool} (installed by scripts/setup.sh)`;
    }
  }
  const probe = spawnSync('losetup', ['--find'], { env: { PATH: SBIN_PATH }, encoding: 'utf8' });
  if (probe.status !== 0) {
    return `no free loop device (${probe.stderr.trim() || String(probe.error)})`;
  }
  return null;
}

/**
 * Why integration tests cannot run here, or null when they can (root, loop devices, the tools). In CI
 * (CI=true, as root) a missing prerequisite is an error, not a skip: CI must run them.
 */
export function loopDeviceSkipReason(
  tools: readonly string[] = ['losetup', 'sgdisk', 'mkfs.ext4', 'blkid', 'partx'],
): string | null {
  const reason = findSkipReason(tools);
  if (reason !== null && process.env.CI === 'true' && process.getuid?.() === 0) {
    throw new Error(`Integration prerequisites are missing in CI: ${reason}`);
  }
  return reason;
}

/** A loop device over a sparse file in a private temp dir; `remove()` undoes everything it made. */
export interface LoopStack {
  readonly directory: string;
  readonly device: string;
  readonly partition: string;
  readonly mountpoint: string | null;
  run(command: string, args: readonly string[]): string;
  remove(): void;
}

/**
 * Builds the stack of issue 2's CI test: a sparse image of `sizeBytes` on a loop device, a GPT partition
 * from 1 MiB covering `partitionPercent` of it, ext4 on the partition, optionally mounted. Everything it
 * creates is registered before it is created, so `remove()` works after a failure half-way.
 */
export function createLoopStack(options: {
  sizeBytes: number;
  partitionPercent: number;
  mount?: boolean;
}): LoopStack {
  const directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-loop-'));
  const image = path.join(directory, 'disk.img');
  let device: string | null = null;
  let mountpoint: string | null = null;
  const run = (command: string, args: readonly string[]): string =>
    execFileSync(command, [...args], {
      encoding: 'utf8',
      env: { ...process.env, PATH: SBIN_PATH, LC_ALL: 'C' },
    });
  const remove = (): void => {
    if (mountpoint !== null) {
      spawnSync('umount', [mountpoint], { env: { PATH: SBIN_PATH } });
    }
    if (device !== null) {
      spawnSync('losetup', ['--detach', device], { env: { PATH: SBIN_PATH } });
    }
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    run('truncate', ['-s', String(options.sizeBytes), image]);
    device = run('losetup', ['--find', '--show', '--partscan', image]).trim();
    const sizeMiB = Math.floor(((options.sizeBytes / 1024 / 1024) * options.partitionPercent) / 100);
    run('sgdisk', ['-n', `1:2048:+${sizeMiB}M`, '-t', '1:8300', device]);
    run('partx', ['-u', device]);
    const partition = `${device}p1`;
    run('mkfs.ext4', ['-q', '-F', partition]);
    if (options.mount === true) {
      mountpoint = path.join(directory, 'mnt');
      run('mkdir', [mountpoint]);
      run('mount', [partition, mountpoint]);
    }
    const loopDevice = device;
    return { directory, device: loopDevice, partition, mountpoint, run, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
