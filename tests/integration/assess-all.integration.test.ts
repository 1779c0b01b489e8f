import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { envelopeSchemaErrors } from '../support/schema.js';
import { loopDeviceSkipReason } from './support/loop-device.js';
import { noteSkip } from '../support/skip-reasons.js';

const skipReason = loopDeviceSkipReason(['losetup', 'sfdisk', 'mkfs.ext4', 'partx', 'mknod']);
noteSkip(import.meta.url, skipReason);

const MIB = 1024 * 1024;
const SBIN_PATH = `/usr/sbin:/sbin:${process.env.PATH ?? ''}`;

function run(command: string, args: readonly string[], input?: string): string {
  return execFileSync(command, [...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: SBIN_PATH, LC_ALL: 'C' },
    ...(input === undefined ? {} : { input }),
  });
}

interface MachineEnvelope {
  status: string;
  warnings: { source: string | null }[];
  result: {
    summary: { device: string; sizeBytes: number | null; status: string }[];
    disks: {
      device: string;
      status: string;
      error: { code: string } | null;
      // The shape is checked against the committed JSON Schema first; the test then reads fields freely.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- validated by envelopeSchemaErrors
      assessment: Record<string, any> | null;
    }[];
  };
}

/**
 * Loop disks this test makes, each over its own sparse image in a private directory; `remove()` undoes exactly
 * what was made (a removed device node is put back before its loop device is detached).
 */
class LoopDisks {
  readonly directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-all-'));
  readonly devices: string[] = [];
  private readonly removedNodes: { path: string; major: number; minor: number }[] = [];

  attach(name: string, sizeBytes: number): string {
    const image = path.join(this.directory, `${name}.img`);
    run('truncate', ['-s', String(sizeBytes), image]);
    const device = run('losetup', ['--find', '--show', image]).trim();
    this.devices.push(device);
    return device;
  }

  /** Deletes the device node (lsblk, reading sysfs, still lists the device): a disk that cannot be assessed. */
  removeNode(device: string): void {
    const { rdev } = statSync(device);
    // Linux dev_t: major in bits 8-19, minor in bits 0-7 and 20-31 (<sys/sysmacros.h>).
    const major = (rdev >> 8) & 0xfff;
    const minor = (rdev & 0xff) | ((rdev >> 12) & 0xfff00);
    this.removedNodes.push({ path: device, major, minor });
    rmSync(device);
  }

  remove(): void {
    for (const node of this.removedNodes) {
      spawnSync('mknod', ['-m', '660', node.path, 'b', String(node.major), String(node.minor)], {
        env: { PATH: SBIN_PATH },
      });
    }
    for (const device of this.devices) {
      // Partitions added with partx stay in the kernel after a detach (the device has no partscan flag).
      spawnSync('partx', ['-d', device], { env: { PATH: SBIN_PATH } });
      spawnSync('losetup', ['--detach', device], { env: { PATH: SBIN_PATH } });
    }
    rmSync(this.directory, { recursive: true, force: true });
  }
}

describe.skipIf(skipReason !== null)('encplan assess --all over several real loop disks (root)', () => {
  const disks = new LoopDisks();
  let partitioned = '';
  let blank = '';
  let gone = '';
  let full = '';
  let live: { status: number; envelope: MachineEnvelope; stderr: string };

  beforeAll(() => {
    try {
      partitioned = disks.attach('partitioned', 64 * MIB);
      run('sfdisk', ['-q', partitioned], 'label: gpt\n,16M\n,16M\n');
      run('partx', ['-u', partitioned]);
      run('mkfs.ext4', ['-q', '-F', `${partitioned}p1`]);
      blank = disks.attach('blank', 32 * MIB);
      full = disks.attach('full', 160 * MIB);
      run('sfdisk', ['-q', full], `label: gpt\n${',1M\n'.repeat(128)}`);
      run('partx', ['-u', full]);
      gone = disks.attach('gone', 48 * MIB);
      disks.removeNode(gone);
      const result = runCli(['assess', '--all', '--json'], { timeoutMs: 300_000 });
      live = {
        status: result.status,
        envelope: JSON.parse(result.stdout) as MachineEnvelope,
        stderr: result.stderr,
      };
    } catch (error) {
      disks.remove();
      throw error;
    }
  }, 360_000);
  afterAll(() => disks.remove());

  const entry = (device: string) => live.envelope.result.disks.find((disk) => disk.device === device);

  it('answers for every disk in one schema-valid document, with the right sizes', () => {
    expect(envelopeSchemaErrors(live.envelope)).toBeNull();
    for (const [device, size] of [
      [partitioned, 64 * MIB],
      [blank, 32 * MIB],
      [full, 160 * MIB],
      [gone, 48 * MIB],
    ] as const) {
      expect(live.envelope.result.summary.find((row) => row.device === device)?.sizeBytes, device).toBe(size);
    }
    expect(entry(partitioned)?.assessment?.disk.sizeBytes).toBe(64 * MIB);
    expect(
      entry(partitioned)?.assessment?.partitions.map((part: { sizeBytes: number }) => part.sizeBytes),
    ).toEqual([16 * MIB, 16 * MIB]);
    expect(entry(partitioned)?.assessment?.partitions[0].filesystem.type).toBe('ext4');
    expect(entry(blank)?.assessment?.disk.partitionTable).toBe('none');
    expect(entry(full)?.assessment?.partitions).toHaveLength(128);
  });

  it('reports the disk whose node is gone with its error, while the others answer; the exit code says so', () => {
    expect(entry(gone)).toMatchObject({
      status: 'error',
      assessment: null,
      error: { code: 'DEVICE_NOT_FOUND' },
    });
    expect(live.envelope.status).toBe('partial');
    expect(live.envelope.warnings).toContainEqual(expect.objectContaining({ source: gone }));
    for (const device of [partitioned, blank, full]) {
      expect(entry(device)?.status, device).not.toBe('error');
    }
    expect(live.status, live.stderr).toBe(4);
  });

  it('collect --all records one bundle that assess --all --bundle replays to the same disks', () => {
    const bundleDir = path.join(disks.directory, 'bundle');
    const collected = runCli(['collect', '--all', '--out', bundleDir, '--json'], { timeoutMs: 300_000 });
    expect(collected.status, collected.stderr).toBe(4);
    const replayed = runCli(['assess', '--all', '--bundle', bundleDir, '--json']);
    expect(replayed.status, replayed.stderr).toBe(4);
    const before = JSON.parse(collected.stdout) as MachineEnvelope;
    const after = JSON.parse(replayed.stdout) as MachineEnvelope;
    const ours = (envelope: MachineEnvelope) =>
      envelope.result.disks
        .filter((disk) => disks.devices.includes(disk.device))
        .map((disk) => ({
          device: disk.device,
          status: disk.status,
          error: disk.error?.code ?? null,
          partitions: disk.assessment?.partitions ?? null,
          space: disk.assessment?.space ?? null,
        }));
    expect(ours(after)).toEqual(ours(before));
    expect(ours(after)).toHaveLength(4);
  });

  it('prints the machine first, one line per disk, then each disk', () => {
    const text = runCli(['assess', '--all', '--verbose'], { timeoutMs: 300_000 });
    const lines = text.stdout.split('\n');
    const table = lines.findIndex((line) => line.trimStart().startsWith('Disk '));
    expect(table).toBeGreaterThan(0);
    for (const device of [partitioned, blank, full, gone]) {
      const row = lines.findIndex((line) => line.trimStart().startsWith(`${device} `));
      expect(row, device).toBeGreaterThan(table);
      expect(
        lines.findIndex((line) => line.startsWith(`════ ${device} `)),
        device,
      ).toBeGreaterThan(row);
    }
    expect(text.stdout).toContain(`${gone}: could not be assessed: DEVICE_NOT_FOUND`);
    // The 128-partition disk is summarised (its JSON keeps every partition, checked above).
    expect(text.stdout).toContain(`Partitions 1–128 (${full}p1 … ${full}p128)`);
    expect(text.stdout).toContain(`Discards from 128 paths (${full}p1 … ${full}p128) reach the drive.`);
  });
});
