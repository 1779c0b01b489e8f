import { describe, expect, it } from 'vitest';
import { assessBundle, planFromAssessment, type Plan } from '@encplan/core';
import { parseBundle } from '../../src/capture/bundle.js';
import { buildPlan } from '../../src/plan/plan.js';
import { IN_PLACE_DATA_OFFSET_BYTES, IN_PLACE_REDUCTION_BYTES } from '../../src/rules/strategy.js';
import { toStrategyView } from '../../src/report/strategy-view.js';
import { GIB, MIB } from '../../src/domain/units.js';
import { fixture } from '../support/fixtures.js';
import { facts, gptDisk, ioBenchmark } from './facts-builder.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };

function planOfAssessment(name: string): Plan {
  return planFromAssessment(JSON.parse(fixture(`assessments/${name}.json`)));
}

async function planOfBundle(name: string): Promise<Plan> {
  const envelope = await assessBundle(parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`))), clock);
  const plan = envelope.result?.plan ?? null;
  if (plan === null) {
    throw new Error(`${name}: no plan`);
  }
  return plan;
}

function strategyOf(plan: Plan): NonNullable<Plan['strategy']> {
  if (plan.strategy === undefined) {
    throw new Error('the plan has no strategy');
  }
  return plan.strategy;
}

describe('strategy over the committed real assessments and bundles', () => {
  it('the virtio system disk (whole-disk filesystem mounted at /, type unreadable) is a reinstall, never fresh', () => {
    const plan = planOfAssessment('virtio-system-disk-whole-ext4-debian12');
    const strategy = strategyOf(plan);
    expect(strategy.kind).toBe('reinstall');
    expect(strategy.target).toMatchObject({ path: '/dev/vda', filesystemType: null, mountpoints: ['/'] });
    expect(strategy.preconditions.find((p) => p.id === 'filesystem-type')?.status).toBe('not-met');
    // A reinstall is the installer's job: no command writes to the running system disk.
    expect(plan.commands).toEqual([]);
    expect(plan.recommendations[0]).toMatchObject({ ruleId: 'strategy', value: 'reinstall' });
  });

  it('the virtio bundle (blkid EPERM, no partition table) reads ext4 from the mount table: in place, offline', async () => {
    const strategy = strategyOf(await planOfBundle('virtio-root-no-table-blkid-eperm-debian12'));
    // /proc/self/mountinfo: "27 1 254:0 / / rw,relatime - ext4 /dev/vda …" (issue 25 item 6).
    expect(strategy.kind).toBe('in-place');
    expect(strategy.offline).toBe(true);
    expect(strategy.target).toMatchObject({ path: '/dev/vda', filesystemType: 'ext4', mountpoints: ['/'] });
  });

  it('an empty loop disk is formatted fresh, with the header as its only write', () => {
    const plan = planOfAssessment('loop-empty-debian12');
    const strategy = strategyOf(plan);
    expect(strategy.kind).toBe('fresh-format');
    expect(strategy.driveWrites.bytes).toBe(16 * MIB);
    // No SMART on a loop device: the endurance share and the write speed are unknown, and said so.
    expect(strategy.driveWrites.percentOfRatedEndurance).toBeNull();
    expect(strategy.timeEstimate.seconds).toBeNull();
    expect(strategy.timeEstimate.basis).toMatch(/^Unmeasured/);
    expect(plan.commands.map((c) => c.id)).toContain('luks-format');
  });

  it('an existing LUKS2 volume is nothing to do, with what differs from the plan', () => {
    const plan = planOfAssessment('loop-gpt-ext4-luks2-unallocated-debian12');
    const strategy = strategyOf(plan);
    expect(strategy.kind).toBe('nothing-to-do');
    expect(strategy.target?.path).toBe('/dev/loop2p2');
    // The volume was made with --pbkdf pbkdf2 and 512-byte sectors (fixtures/assessments/PROVENANCE.md).
    expect(strategy.differences).toEqual(
      expect.arrayContaining([
        { setting: 'keyslot 0 pbkdf', current: 'pbkdf2', planned: 'argon2id' },
        { setting: 'sectorSizeBytes', current: 512, planned: plan.settings.sectorSizeBytes },
      ]),
    );
    expect(strategy.differences.map((d) => d.setting)).not.toContain('cipher');
    // The unencrypted ext4 beside it is named, and nothing formats a new volume.
    expect(strategy.reason).toContain('/dev/loop2p1 (ext4)');
    expect(plan.commands.map((c) => c.id)).not.toContain('luks-format');
  });

  it('with --encrypted-boot the existing keyslot is compared against PBKDF2, the KDF GRUB can open', () => {
    // GRUB opens LUKS2 only through a PBKDF2 keyslot (GNU GRUB manual, "cryptomount"): the planned keyslot is
    // pbkdf2 (rules/grub-boot.ts), so the volume's pbkdf2 keyslot is no difference and its memory is not asked.
    const plan = planFromAssessment(
      JSON.parse(fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json')),
      { encryptedBoot: true },
    );
    expect(plan.settings.luks2Pbkdf?.kdf).toBe('pbkdf2');
    const strategy = strategyOf(plan);
    expect(strategy.kind).toBe('nothing-to-do');
    expect(strategy.differences.map((d) => d.setting)).not.toContain('keyslot 0 pbkdf');
    expect(strategy.differences).toEqual(
      expect.arrayContaining([
        { setting: 'sectorSizeBytes', current: 512, planned: plan.settings.sectorSizeBytes },
      ]),
    );
  });

  it('with --encrypted-boot an argon2id keyslot is the difference: GRUB could not open it', () => {
    const document = JSON.parse(fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'));
    const found = document.result.encryption.found[0];
    found.pbkdf = [
      {
        ...found.pbkdf[0],
        type: 'argon2id',
        hash: null,
        iterations: null,
        timeCost: 4,
        memoryKibibytes: 1_048_576,
        parallelThreads: 4,
      },
    ];
    const strategy = strategyOf(planFromAssessment(document, { encryptedBoot: true }));
    expect(strategy.differences).toEqual(
      expect.arrayContaining([{ setting: 'keyslot 0 pbkdf', current: 'argon2id', planned: 'pbkdf2' }]),
    );
    expect(strategy.differences.map((d) => d.setting)).not.toContain('keyslot 0 memoryKiB');
  });

  it('a GPT loop disk holding ext4 is encrypted in place, its rewrite counted and its time unmeasured', () => {
    const plan = planOfAssessment('loop-gpt-ext4-78pct-bundle');
    const strategy = strategyOf(plan);
    expect(strategy).toMatchObject({
      kind: 'in-place',
      offline: false,
      reductionBytes: 32 * MIB,
      target: { path: '/dev/loop0p1', filesystemType: 'ext4', sizeBytes: 836_763_648 },
      driveWrites: { bytes: 836_763_648, percentOfRatedEndurance: null },
      timeEstimate: { seconds: null },
    });
    expect(Object.fromEntries(strategy.preconditions.map((p) => [p.id, p.status]))).toEqual({
      backup: 'confirm',
      'health-gate': 'unknown',
      'free-space': 'unknown',
      'filesystem-type': 'met',
      unmounted: 'met',
      'sector-size': 'unknown',
    });
    expect(plan.commands.map((c) => c.id)).toEqual([
      'in-place-fsck',
      'in-place-shrink',
      'in-place-reencrypt',
      'luks-open',
      'in-place-grow',
      'crypttab-entry',
    ]);
  });

  it('the mounted, benchmarked loop disk gets a time from its measured speed and unmounts first', async () => {
    const plan = await planOfBundle('loop-ext4-mounted-benchmark-quick-debian12');
    const strategy = strategyOf(plan);
    expect(strategy.kind).toBe('in-place');
    expect(strategy.preconditions.find((p) => p.id === 'free-space')?.status).toBe('met');
    expect(strategy.timeEstimate.seconds).toBeGreaterThan(0);
    expect(strategy.timeEstimate.basis).toContain('SEQ1M Q1T1');
    // One duration, not "Time: 5.0 s. About 4.5 s: …" (the rounded figure, then the unrounded one).
    const timeLine = toStrategyView(strategy).lines.find((line) => line.startsWith('Time: '));
    expect(timeLine).toMatch(/^Time: \d+\.\d s\. Read 1\.0 GiB at the measured [^:]*; a lower bound\.$/);
    expect(timeLine?.match(/ s\b/g)).toHaveLength(1);
    expect(plan.commands[0]).toMatchObject({
      id: 'in-place-unmount',
      argv: ['umount', '/mnt/encplan-fixture'],
    });
  });

  it('a quick benchmark that measured only SEQ1M Q8T1 still gives a time, named by its profile', () => {
    // What `assess --benchmark --quick` measured on a loop disk: SEQ1M Q8T1 and RND4K Q1T1, no SEQ1M Q1T1
    // (read 1160.2 MiB/s, write 499.5 MiB/s). Before, the time said "run encplan assess --benchmark".
    const disk = gptDisk([
      { path: '/dev/loop2p1', sizeBytes: 1500 * MIB, type: 'ext4', mountpoints: [], availableBytes: GIB },
    ]);
    const quick = facts(
      disk,
      ioBenchmark({ 'seq1m-q8t1': [1160.2 * MIB, 499.5 * MIB], 'rnd4k-q1t1': [16 * MIB, 4.5 * MIB] }),
    );
    const strategy = strategyOf(buildPlan(quick));
    expect(strategy.kind).toBe('in-place');
    expect(strategy.timeEstimate.seconds).toBeGreaterThan(0);
    expect(strategy.timeEstimate.basis).toContain('(SEQ1M Q8T1, plain)');
    expect(strategy.timeEstimate.basis).not.toContain('run encplan assess --benchmark');
    // Measured, but no sequential profile: the time says what is missing, not to run the benchmark again.
    const randomOnly = strategyOf(
      buildPlan(facts(disk, ioBenchmark({ 'rnd4k-q1t1': [16 * MIB, 4.5 * MIB] }))),
    );
    expect(randomOnly.timeEstimate).toEqual({
      seconds: null,
      basis: 'Unmeasured: the benchmark measured no sequential (SEQ1M) read and write of this disk.',
    });
  });

  it('a failing drive keeps the in-place path but its health precondition is not met', async () => {
    const plan = await planOfBundle('loop-gpt-ext4-78pct-smart-realloc304-composed');
    const strategy = strategyOf(plan);
    expect(plan.healthGate.status).toBe('back-up-first');
    expect(strategy.preconditions.find((p) => p.id === 'health-gate')?.status).toBe('not-met');
    // The health gate reports itself (critical, first); the strategy does not repeat it.
    expect(plan.findings.filter((f) => f.ruleId === 'strategy')).toEqual([]);
  });
});

describe('strategy rules on hand-built layouts', () => {
  it('the running root on ext4 is encrypted in place from a live system, with the steps', () => {
    const input = gptDisk(
      [
        { path: '/dev/nvme0n1p1', sizeBytes: 512 * MIB, type: 'vfat', mountpoints: ['/boot/efi'] },
        {
          path: '/dev/nvme0n1p2',
          sizeBytes: 100 * GIB,
          type: 'ext4',
          mountpoints: ['/'],
          availableBytes: GIB,
        },
      ],
      { isSystemDisk: true, mountpoints: ['/boot/efi', '/'] },
    );
    const plan = buildPlan(input);
    const strategy = strategyOf(plan);
    expect(strategy).toMatchObject({ kind: 'in-place', offline: true, target: { path: '/dev/nvme0n1p2' } });
    expect(strategy.preconditions.find((p) => p.id === 'unmounted')?.status).toBe('not-met');
    expect(strategy.steps[0]).toMatch(/live or rescue system/);
    // /boot is inside the root filesystem: GRUB needs a PBKDF2 keyslot (GRUB manual, cryptomount).
    expect(strategy.steps.join(' ')).toContain('PBKDF2');
    // The crypttab line belongs to the installed system: a step in the chroot, not a command of the live one.
    expect(plan.commands.map((c) => c.id)).not.toContain('crypttab-entry');
    expect(plan.commands.some((c) => c.argv[0] === 'umount')).toBe(false);
    expect(plan.findings.find((f) => f.ruleId === 'strategy')?.message).toContain('running root');
  });

  it('a separate /boot needs no GRUB step', () => {
    const input = gptDisk(
      [
        { path: '/dev/nvme0n1p1', sizeBytes: GIB, type: 'ext4', mountpoints: ['/boot'] },
        { path: '/dev/nvme0n1p2', sizeBytes: 100 * GIB, type: 'ext4', mountpoints: ['/'] },
      ],
      { isSystemDisk: true, mountpoints: ['/boot', '/'] },
    );
    const strategy = strategyOf(buildPlan(input));
    expect(strategy.target?.path).toBe('/dev/nvme0n1p2');
    expect(strategy.steps.join(' ')).not.toContain('PBKDF2');
    // /boot stays unencrypted and is not named as data left behind.
    expect(strategy.reason).not.toContain('Also holding data');
  });

  it('names the data filesystems the in-place commands leave out', () => {
    const input = gptDisk([
      { path: '/dev/nvme0n1p1', sizeBytes: 100 * GIB, type: 'ext4', mountpoints: ['/'] },
      { path: '/dev/nvme0n1p2', sizeBytes: 300 * GIB, type: 'ext4', mountpoints: ['/home'] },
      { path: '/dev/nvme0n1p3', sizeBytes: 8 * GIB, type: 'swap' },
    ]);
    const strategy = strategyOf(buildPlan(input));
    expect(strategy.target?.path).toBe('/dev/nvme0n1p1');
    expect(strategy.reason).toContain(
      'not covered by these commands: /dev/nvme0n1p2 (ext4); plan each on its own',
    );
  });

  it('xfs cannot shrink: a system disk is reinstalled, a data disk backed up and formatted fresh', () => {
    const xfs = [{ path: '/dev/nvme0n1p1', sizeBytes: 100 * GIB, type: 'xfs', mountpoints: ['/'] }];
    expect(strategyOf(buildPlan(gptDisk(xfs, { isSystemDisk: true }))).kind).toBe('reinstall');
    const data = strategyOf(buildPlan(gptDisk([{ ...xfs[0]!, mountpoints: ['/srv'] }])));
    expect(data.kind).toBe('fresh-format');
    expect(data.reason).toMatch(/back up, format it fresh .* restore/);
    expect(data.preconditions.find((p) => p.id === 'filesystem-type')?.status).toBe('not-met');
  });

  it('too little free space in a mounted filesystem is a precondition not met', () => {
    const input = gptDisk([
      {
        path: '/dev/nvme0n1p1',
        sizeBytes: 10 * GIB,
        type: 'ext4',
        mountpoints: ['/data'],
        availableBytes: MIB,
      },
    ]);
    const strategy = strategyOf(buildPlan(input));
    expect(strategy.preconditions.find((p) => p.id === 'free-space')?.status).toBe('not-met');
  });

  it('the rewrite is a share of the endurance estimated from wear and bytes written', () => {
    const input = facts(
      gptDisk([{ path: '/dev/nvme0n1p1', sizeBytes: 400 * GIB, type: 'ext4' }]),
      // 10 % used after 60 TB written: rated about 600 TB.
      { health: { verdict: 'healthy', percentageUsed: 10, dataWrittenBytes: 60e12 } },
    );
    const strategy = strategyOf(buildPlan(input));
    expect(strategy.driveWrites.bytes).toBe(400 * GIB);
    // 400 GiB of 600 TB = 0.0716 %, two significant digits.
    expect(strategy.driveWrites.percentOfRatedEndurance).toBe(0.072);
  });

  it('a spinning disk has no endurance share; unknown stays unknown', () => {
    const input = gptDisk([{ path: '/dev/sda1', sizeBytes: 100 * GIB, type: 'ext4' }], { kind: 'hdd' });
    const strategy = strategyOf(buildPlan(input));
    expect(strategy.driveWrites.percentOfRatedEndurance).toBeNull();
    expect(strategy.driveWrites.basis).toContain('spinning disk');
  });

  it('the time is read plus encrypted write at queue depth 1 when a LUKS2 write was measured', () => {
    const input = facts(
      gptDisk([{ path: '/dev/nvme0n1p1', sizeBytes: 100 * GIB, type: 'ext4' }]),
      ioBenchmark({ 'seq1m-q1t1': [1000 * MIB, 800 * MIB] }, [
        { variant: 'luks2 sector 4096', rates: { 'seq1m-q1t1': [900 * MIB, 500 * MIB] } },
      ]),
    );
    const strategy = strategyOf(buildPlan(input));
    // 100 GiB / 1000 MiB/s + 100 GiB / 500 MiB/s = 102.4 s + 204.8 s.
    expect(strategy.timeEstimate.seconds).toBe(307);
  });

  it('a partition whose size is no multiple of the planned sector gets 512-byte sectors in place', () => {
    const input = gptDisk([{ path: '/dev/nvme0n1p1', sizeBytes: 100 * GIB + 512, type: 'ext4' }]);
    const plan = buildPlan(input, { targetTool: 'luks2' });
    const reencrypt = plan.commands.find((c) => c.id === 'in-place-reencrypt');
    expect(reencrypt?.argv).toContain('--sector-size');
    expect(reencrypt?.argv[(reencrypt.argv.indexOf('--sector-size') ?? 0) + 1]).toBe('512');
  });

  it('in place is a LUKS2-on-Linux path: VeraCrypt on a data disk backs up and formats fresh', () => {
    const input = gptDisk([{ path: '/dev/nvme0n1p1', sizeBytes: 100 * GIB, type: 'ext4' }]);
    const strategy = strategyOf(buildPlan(input, { targetTool: 'veracrypt' }));
    expect(strategy.kind).toBe('fresh-format');
    expect(strategy.reason).toContain('LUKS2 on Linux only');
  });

  it('an assessment without the disk or its contents is undetermined, never assumed empty', () => {
    expect(strategyOf(buildPlan({})).kind).toBe('undetermined');
    const noContents = { disk: { path: '/dev/sda', partitionTable: 'none' as const } };
    expect(strategyOf(buildPlan(noContents)).kind).toBe('undetermined');
  });

  it('the reduction is 32 MiB and the data start after the 16 MiB header', () => {
    expect(IN_PLACE_REDUCTION_BYTES).toBe(32 * MIB);
    expect(IN_PLACE_DATA_OFFSET_BYTES).toBe(16 * MIB);
  });
});
