import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopStack, loopDeviceSkipReason, type LoopStack } from './support/loop-device.js';
import { noteSkip } from '../support/skip-reasons.js';

// The fresh-format script of `encplan assess DEVICE --commands --destructive`, generated for an empty loop disk
// and run for real (as root), then the partition table (sfdisk --json) and the LUKS2 header (luksDump JSON)
// are compared with the plan. Where the kernel has no device-mapper, `cryptsetup open` is where the script
// stops; the test checks that it stopped exactly there and says so.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'packages/cli/bin/run.js');
const SBIN_PATH = `/usr/sbin:/sbin:${process.env.PATH ?? ''}`;
const DISK_BYTES = 512 * 1024 * 1024;
/** sgdisk type code 8309 "Linux LUKS" as a GPT type GUID (sgdisk -L; Discoverable Partitions Specification). */
const LINUX_LUKS_TYPE = 'CA7D7CCB-63ED-4C53-861C-1742536059CC';
const MAPPING = `encplan-it-${String(process.pid)}`;
const PLAN_FLAGS = ['--unlock-memory', '64MiB', '--unlock-time', '200', '--mapping-name', MAPPING];

const skipReason = loopDeviceSkipReason([
  'losetup',
  'sgdisk',
  'partx',
  'sfdisk',
  'cryptsetup',
  'unshare',
  'mkfs.ext4',
]);
noteSkip(import.meta.url, skipReason);

interface PlanCommandJson {
  id: string;
  argv: string[];
}
interface PlanJson {
  settings: {
    cipher: string;
    keySizeBits: number;
    sectorSizeBytes: number | null;
    luks2Pbkdf: { memoryKiB: number; iterations: number | null } | null;
  };
  commands: PlanCommandJson[];
}

const PASSPHRASE = 'correct horse battery staple';
const run = (command: string, args: readonly string[]): string =>
  execFileSync(command, [...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: SBIN_PATH, LC_ALL: 'C' },
  });
const encplan = (...args: string[]): string =>
  execFileSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: SBIN_PATH },
  });

interface ScriptRun {
  readonly plan: PlanJson;
  readonly status: number | null;
  readonly stderr: string;
  /** The commands `sh -x` traced, in order: where the script stopped. */
  readonly traced: string[];
}

/**
 * Generates the plan and the `--destructive` script for `disk` and runs it as a user would, with two
 * differences: the script may write /etc/crypttab, so it runs in a private mount namespace with an overlay on
 * /etc (the host's /etc is never touched), and `sh -x` traces each command (argv only; the passphrase goes on
 * stdin, never in argv) so the test sees where it stopped.
 */
function runGeneratedScript(directory: string, disk: string): ScriptRun {
  const plan = (
    JSON.parse(encplan('assess', disk, '--json', ...PLAN_FLAGS)) as { result: { plan: PlanJson } }
  ).result.plan;
  const scriptFile = path.join(directory, 'plan.sh');
  writeFileSync(scriptFile, encplan('assess', disk, '--commands', '--destructive', ...PLAN_FLAGS));
  const upper = path.join(directory, 'etc-upper');
  const work = path.join(directory, 'etc-work');
  mkdirSync(upper);
  mkdirSync(work);
  const wrapper = path.join(directory, 'run-in-namespace.sh');
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      'set -eu',
      'mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc',
      'exec sh -x "$3"',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o700);
  const result = spawnSync(
    'unshare',
    ['--mount', '--propagation', 'private', wrapper, upper, work, scriptFile],
    {
      input: `${PASSPHRASE}\n${PASSPHRASE}\n`,
      encoding: 'utf8',
      env: { PATH: SBIN_PATH, LC_ALL: 'C' },
      timeout: 300_000,
    },
  );
  return {
    plan,
    status: result.status,
    stderr: result.stderr,
    traced: result.stderr.split('\n').filter((line) => line.startsWith('+ ')),
  };
}

/**
 * The only allowed stop: `cryptsetup open` on a kernel without device-mapper, after every command before it
 * ran; said in the test output. With device-mapper the script must go through.
 */
function expectCleanStop(script: ScriptRun, before: readonly string[]): void {
  if (script.status === 0) {
    expect(run('cryptsetup', ['status', MAPPING])).toMatch(/active/);
    return;
  }
  expect(script.stderr).toMatch(/device-mapper|dm_task|name is invalid or still in use/i);
  expect(script.traced.at(-1), script.stderr).toMatch(/^\+ cryptsetup open /);
  expect(script.traced.map((line) => line.split(' ')[1])).toEqual(['set', ...before, 'cryptsetup']);
  console.warn(
    `[plan-script-loop] the script stopped at \`cryptsetup open\`: this kernel has no device-mapper (${script.stderr.trim().split('\n').at(-1) ?? ''}). The partition table and the LUKS2 header were checked; open, mkfs and the crypttab line were not run.`,
  );
}

/** The partition the plan's sgdisk creates: number, first and last sector. */
function plannedPartition(plan: PlanJson): { number: number; start: number; end: number } {
  const layout = plan.commands.find((command) => command.id === 'partition-layout');
  const created = /^--new=(\d+):(\d+):(\d+)$/.exec(
    layout?.argv.find((arg) => arg.startsWith('--new=')) ?? '',
  );
  expect(created, 'the plan creates a partition').not.toBeNull();
  return { number: Number(created?.[1]), start: Number(created?.[2]), end: Number(created?.[3]) };
}

interface SfdiskPartition {
  node: string;
  start: number;
  size: number;
  type: string;
  name?: string;
}
function partitionTable(disk: string): { label: string; partitions: SfdiskPartition[] } {
  return (
    JSON.parse(run('sfdisk', ['--json', disk])) as {
      partitiontable: { label: string; partitions: SfdiskPartition[] };
    }
  ).partitiontable;
}

/** The LUKS2 header on `partition`: cipher, key size, sector size, PBKDF, label and UUID as planned. */
function expectPlannedHeader(plan: PlanJson, partition: string): void {
  const format = plan.commands.find((command) => command.id === 'luks-format');
  expect(format?.argv.at(-1)).toBe(partition);
  const metadata = JSON.parse(run('cryptsetup', ['luksDump', '--dump-json-metadata', partition])) as {
    keyslots: Record<string, { key_size: number; kdf: { type: string; memory?: number } }>;
    segments: Record<string, { encryption: string; sector_size: number }>;
  };
  expect(metadata.segments['0']).toMatchObject({
    encryption: plan.settings.cipher,
    sector_size: plan.settings.sectorSizeBytes ?? 512,
  });
  expect((metadata.keyslots['0']?.key_size ?? 0) * 8).toBe(plan.settings.keySizeBits);
  expect(metadata.keyslots['0']?.kdf.type).toBe('argon2id');
  // --iter-time lets cryptsetup lower the memory to meet the time; the plan's memory is the cap.
  expect(metadata.keyslots['0']?.kdf.memory).toBeLessThanOrEqual(plan.settings.luks2Pbkdf?.memoryKiB ?? 0);
  expect(run('cryptsetup', ['luksDump', partition])).toMatch(/^Label:\s+encplan$/m);
  const uuid = format?.argv[(format.argv.indexOf('--uuid') ?? -2) + 1];
  expect(run('cryptsetup', ['luksUUID', partition]).trim()).toBe(uuid);
  // The passphrase given on stdin unlocks a key slot (no device-mapper needed for the test).
  const check = spawnSync('cryptsetup', ['open', '--test-passphrase', partition], {
    input: `${PASSPHRASE}\n`,
    encoding: 'utf8',
    env: { PATH: SBIN_PATH },
  });
  expect(check.status, check.stderr).toBe(0);
}

describe.skipIf(skipReason !== null)('the --destructive script, run for real on loop disks', () => {
  let directory = '';
  let device: string | null = null;
  let busy: LoopStack | null = null;

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-script-'));
    const image = path.join(directory, 'disk.img');
    run('truncate', ['-s', String(DISK_BYTES), image]);
    device = run('losetup', ['--find', '--show', '--partscan', image]).trim();
  });

  afterAll(() => {
    // Only what this test made: its mapping (if the kernel could open it), loop devices, mount, directory.
    spawnSync('cryptsetup', ['close', MAPPING], { env: { PATH: SBIN_PATH } });
    if (device !== null) {
      spawnSync('losetup', ['--detach', device], { env: { PATH: SBIN_PATH } });
    }
    busy?.remove();
    if (directory !== '') {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('on an empty disk: partitions and formats exactly as planned, stopping cleanly without device-mapper', () => {
    const disk = device ?? '';
    const script = runGeneratedScript(path.join(directory), disk);
    // The never-allocated tail is discarded once when the plan leaves one (spare area, its discarded-tail method).
    const tailDiscard = script.plan.commands.some((command) => command.id === 'blkdiscard-tail');
    expectCleanStop(script, ['sgdisk', 'partx', ...(tailDiscard ? ['blkdiscard'] : []), 'cryptsetup']);
    const { number, start, end } = plannedPartition(script.plan);
    const table = partitionTable(disk);
    expect(table.label).toBe('gpt');
    expect(table.partitions).toEqual([
      expect.objectContaining({
        node: `${disk}p${String(number)}`,
        start,
        size: end - start + 1,
        type: LINUX_LUKS_TYPE,
        name: 'encplan',
      }),
    ]);
    expectPlannedHeader(script.plan, `${disk}p${String(number)}`);
  });

  it('on a disk with a mounted partition: plans in place, refuses --destructive (exit 4) and writes nothing', () => {
    spawnSync('cryptsetup', ['close', MAPPING], { env: { PATH: SBIN_PATH } });
    busy = createLoopStack({ sizeBytes: DISK_BYTES, partitionPercent: 50, mount: true });
    const known = path.join(busy.mountpoint ?? '', 'known.txt');
    writeFileSync(known, 'encplan keeps this\n');
    run('sync', []);
    const before = partitionTable(busy.device).partitions;
    // The partition holds data: the strategy is in place, and its commands stay commented out while the disk
    // is in use (issue 10: no flag overrides that).
    const refused = spawnSync(process.execPath, [CLI, 'assess', busy.device, '--commands', '--destructive'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: SBIN_PATH },
    });
    expect(refused.status, refused.stderr).toBe(4);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/is mounted on/);
    // The hint names a way that works, never the strategy already chosen (issue 25 item 5).
    expect(refused.stderr).toMatch(/Stop using \/dev\/loop\d+ first \(umount /);
    expect(refused.stderr).not.toMatch(/Encrypt in place instead/);
    const assessed = spawnSync(process.execPath, [CLI, 'assess', busy.device, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: SBIN_PATH },
    });
    const plan = (JSON.parse(assessed.stdout) as { result: { plan: { strategy: { kind: string } } } }).result
      .plan;
    expect(plan.strategy.kind).toBe('in-place');
    expect(partitionTable(busy.device).partitions).toEqual(before);
    expect(run('findmnt', ['--noheadings', '--output', 'SOURCE', busy.mountpoint ?? '']).trim()).toBe(
      busy.partition,
    );
    expect(run('cat', [known])).toBe('encplan keeps this\n');
  });
});
