import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopDeviceSkipReason } from './support/loop-device.js';

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
if (skipReason !== null) {
  console.warn(`[plan-script-loop] skipped: ${skipReason}`);
}

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

describe.skipIf(skipReason !== null)('the fresh-format script, run on an empty loop disk', () => {
  let directory = '';
  let device: string | null = null;
  const run = (command: string, args: readonly string[]): string =>
    execFileSync(command, [...args], {
      encoding: 'utf8',
      env: { ...process.env, PATH: SBIN_PATH, LC_ALL: 'C' },
    });

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-script-'));
    const image = path.join(directory, 'disk.img');
    run('truncate', ['-s', String(DISK_BYTES), image]);
    device = run('losetup', ['--find', '--show', '--partscan', image]).trim();
  });

  afterAll(() => {
    // Only what this test made: its mapping (if the kernel could open it), its loop device, its directory.
    spawnSync('cryptsetup', ['close', MAPPING], { env: { PATH: SBIN_PATH } });
    if (device !== null) {
      spawnSync('losetup', ['--detach', device], { env: { PATH: SBIN_PATH } });
    }
    if (directory !== '') {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('partitions and formats exactly as planned, stopping cleanly where the kernel lacks device-mapper', () => {
    const disk = device ?? '';
    const encplan = (...args: string[]): string =>
      execFileSync(process.execPath, [CLI, ...args], {
        encoding: 'utf8',
        env: { ...process.env, PATH: SBIN_PATH },
      });
    const plan = (
      JSON.parse(encplan('assess', disk, '--json', ...PLAN_FLAGS)) as { result: { plan: PlanJson } }
    ).result.plan;
    const script = encplan('assess', disk, '--commands', '--destructive', ...PLAN_FLAGS);
    const scriptFile = path.join(directory, 'plan.sh');
    writeFileSync(scriptFile, script);

    // The script may write /etc/crypttab: it runs in a private mount namespace with an overlay on /etc, so
    // the host's /etc is never touched. The passphrase goes on stdin (luksFormat, then open), never in argv.
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
        `mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc`,
        // -x traces each command (argv only; the passphrase is on stdin), so the test sees where it stopped.
        'exec sh -x "$3"',
        '',
      ].join('\n'),
    );
    chmodSync(wrapper, 0o700);
    const passphrase = 'correct horse battery staple';
    const result = spawnSync(
      'unshare',
      ['--mount', '--propagation', 'private', wrapper, upper, work, scriptFile],
      {
        input: `${passphrase}\n${passphrase}\n`,
        encoding: 'utf8',
        env: { PATH: SBIN_PATH, LC_ALL: 'C' },
        timeout: 300_000,
      },
    );
    const deviceMapperMissing = /device-mapper|dm_task|Cannot initialize device-mapper/i.test(result.stderr);
    const traced = result.stderr.split('\n').filter((line) => line.startsWith('+ '));
    if (result.status !== 0) {
      // The only allowed stop: `cryptsetup open` on a kernel without device-mapper, after everything before it.
      expect(deviceMapperMissing, result.stderr).toBe(true);
      expect(traced.at(-1), result.stderr).toMatch(/^\+ cryptsetup open /);
      expect(traced.map((line) => line.split(' ')[1])).toEqual([
        'set',
        'sgdisk',
        'partx',
        'cryptsetup',
        'cryptsetup',
      ]);
      console.warn(
        `[plan-script-loop] the script stopped at \`cryptsetup open\`: this kernel has no device-mapper (${result.stderr.trim().split('\n').at(-1) ?? ''}). Partition and LUKS2 header were checked; open, mkfs and crypttab were not run.`,
      );
    }

    // The partition table: one GPT partition exactly where the plan's sgdisk put it, with its label and type.
    const layout = plan.commands.find((command) => command.id === 'partition-layout');
    const created = /^--new=(\d+):(\d+):(\d+)$/.exec(
      layout?.argv.find((arg) => arg.startsWith('--new=')) ?? '',
    );
    expect(created, 'the plan creates a partition').not.toBeNull();
    const [number, start, end] = [Number(created?.[1]), Number(created?.[2]), Number(created?.[3])];
    const table = JSON.parse(run('sfdisk', ['--json', disk])) as {
      partitiontable: {
        label: string;
        sectorsize?: number;
        partitions: { node: string; start: number; size: number; type: string; name?: string }[];
      };
    };
    expect(table.partitiontable.label).toBe('gpt');
    expect(table.partitiontable.partitions).toEqual([
      expect.objectContaining({
        node: `${disk}p${String(number)}`,
        start,
        size: end - start + 1,
        type: LINUX_LUKS_TYPE,
        name: 'encplan',
      }),
    ]);

    // The LUKS2 header: cipher, key size, sector size, PBKDF, label and UUID as planned.
    const format = plan.commands.find((command) => command.id === 'luks-format');
    const partition = `${disk}p${String(number)}`;
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
    const text = run('cryptsetup', ['luksDump', partition]);
    expect(text).toMatch(/^Label:\s+encplan$/m);
    const uuid = format?.argv[(format.argv.indexOf('--uuid') ?? -2) + 1];
    expect(run('cryptsetup', ['luksUUID', partition]).trim()).toBe(uuid);
    // The passphrase from stdin opens the header (a key-slot check, no device-mapper needed).
    const check = spawnSync('cryptsetup', ['open', '--test-passphrase', partition], {
      input: `${passphrase}\n`,
      encoding: 'utf8',
      env: { PATH: SBIN_PATH },
    });
    expect(check.status, check.stderr).toBe(0);
    if (result.status === 0) {
      // With device-mapper the script went through: the mapping exists and carries the planned flags.
      expect(run('cryptsetup', ['status', MAPPING])).toMatch(/discards/);
    }
  });
});
