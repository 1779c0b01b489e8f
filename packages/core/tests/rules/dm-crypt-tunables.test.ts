import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import { GIB } from '../../src/domain/units.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { emptyDisk, facts, ioBenchmark, machine } from './facts-builder.js';

const findingOf = (input: PlanFacts, ruleId: string) =>
  buildPlan(input).findings.find((finding) => finding.ruleId === ruleId);

describe('dm-crypt-tunables (high_priority 6.10, max_read_size / max_write_size 6.11)', () => {
  it('names high_priority (cryptsetup ≥ 2.8.0) while the workqueues stay, and the 6.11 module parameters, without emitting either', () => {
    // A spinning disk keeps the workqueues (workqueue-bypass is for flash).
    const input = facts(
      machine({ kernel: '6.12.0-1-amd64' }),
      { media: { kind: 'hdd' } },
      emptyDisk(500 * GIB, '/dev/sdb'),
    );
    const plan = buildPlan(input);
    expect(plan.settings.workqueueBypass).toBe(false);
    const finding = plan.findings.find((candidate) => candidate.ruleId === 'dm-crypt-tunables');
    expect(finding?.message).toContain('--perf-high_priority');
    expect(finding?.message).toContain('/sys/module/dm_crypt/parameters/');
    const argv = plan.commands.flatMap((command) => command.argv).join(' ');
    expect(argv).not.toContain('high_priority');
    expect(argv).not.toContain('max_read_size');
  });

  it('leaves high_priority out when the workqueues are bypassed, and says nothing before 6.10 or with an unknown kernel', () => {
    const flash = facts(
      machine({ kernel: '6.10.2' }),
      { media: { kind: 'ssd' } },
      emptyDisk(500 * GIB, '/dev/sdb'),
    );
    const plan = buildPlan(flash);
    expect(plan.settings.workqueueBypass).toBe(true);
    // 6.10 has high_priority but not the 6.11 module parameters; with the bypass nothing is left to say.
    expect(plan.findings.map((finding) => finding.ruleId)).not.toContain('dm-crypt-tunables');
    expect(
      findingOf(facts(machine({ kernel: '6.8.0' }), emptyDisk(500 * GIB, '/dev/sdb')), 'dm-crypt-tunables'),
    ).toBeUndefined();
    expect(findingOf(emptyDisk(500 * GIB, '/dev/sdb'), 'dm-crypt-tunables')).toBeUndefined();
  });
});

describe('nvme-4096-lba (cryptsetup 2.8.0 release notes)', () => {
  it('suggests reformatting a 512-byte NVMe namespace before a fresh format, never as a command', () => {
    const input = facts(emptyDisk(1024 * GIB, '/dev/nvme0n1', 512), ioBenchmark({}));
    const plan = buildPlan(input);
    expect(plan.strategy?.kind).toBe('fresh-format');
    const finding = plan.findings.find((candidate) => candidate.ruleId === 'nvme-4096-lba');
    expect(finding?.message).toContain('nvme id-ns -H /dev/nvme0n1');
    expect(plan.commands.flatMap((command) => command.argv)).not.toContain('format');
  });

  it('stays silent for 4096-byte namespaces, SATA disks and partitions', () => {
    expect(findingOf(emptyDisk(1024 * GIB, '/dev/nvme0n1', 4096), 'nvme-4096-lba')).toBeUndefined();
    expect(findingOf(emptyDisk(1024 * GIB, '/dev/sda', 512), 'nvme-4096-lba')).toBeUndefined();
    expect(findingOf(emptyDisk(1024 * GIB, '/dev/nvme0n1p2', 512), 'nvme-4096-lba')).toBeUndefined();
  });
});

describe('tuning advice beside a failing drive', () => {
  it('is left out when the strategy is to back up and replace the drive first', () => {
    const failing = facts(
      machine({ kernel: '6.12.0' }),
      { media: { kind: 'hdd' } },
      emptyDisk(500 * GIB, '/dev/sdb'),
      {
        health: { verdict: 'failing' },
      },
    );
    const plan = buildPlan(failing);
    expect(plan.strategy?.kind).toBe('replace-first');
    expect(plan.findings.map((finding) => finding.ruleId)).not.toContain('dm-crypt-tunables');
  });
});
