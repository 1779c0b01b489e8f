import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { GIB, MIB } from '../../src/domain/units.js';
import { facts, gptDisk } from './facts-builder.js';
import { checkPlanConsistency } from '../../src/plan/consistency.js';

/** A GPT system disk: an ESP, then ext4 at / (and optionally a separate /boot), as lsblk reports it. */
function systemDisk(withBootPartition: boolean): PlanFacts {
  return gptDisk(
    [
      { path: '/dev/nvme0n1p1', sizeBytes: 512 * MIB, type: 'vfat', mountpoints: ['/boot/efi'] },
      ...(withBootPartition
        ? [{ path: '/dev/nvme0n1p2', sizeBytes: GIB, type: 'ext4', mountpoints: ['/boot'] }]
        : []),
      {
        path: '/dev/nvme0n1p3',
        sizeBytes: 200 * GIB,
        type: 'ext4',
        mountpoints: ['/'],
        availableBytes: 100 * GIB,
      },
    ],
    { isSystemDisk: true },
  );
}

const grubOf = (input: PlanFacts, options = {}) =>
  buildPlan(input, options).findings.find((finding) => finding.ruleId === 'grub-boot-pbkdf2');

describe('grub-boot-pbkdf2 (GRUB opens LUKS2 only through a PBKDF2 keyslot)', () => {
  it('says why the keyslot is PBKDF2 when / is encrypted in place and /boot is a directory of it', () => {
    const plan = buildPlan(systemDisk(false));
    expect(plan.strategy?.kind).toBe('in-place');
    const finding = grubOf(systemDisk(false));
    expect(finding?.severity).toBe('info');
    expect(finding?.message).toContain('GRUB opens LUKS2 only with a PBKDF2 keyslot');
    expect(finding?.message).toContain('--pbkdf pbkdf2');
  });

  /** PBKDF2-sha256 34026 iterations/s for a 256-bit key: fixtures/cryptsetup-benchmark/qemu-tcg-debian12-kernel6.1-emulated-default. */
  const measuredPbkdf2: PlanFacts = {
    cipherBenchmark: {
      kdfSpeed: { pbkdf2: [{ hash: 'sha256', iterationsPerSecond: 34_026, derivedKeyBits: 256 }] },
    },
  };

  it('makes the plan state a PBKDF2 keyslot and the in-place reencrypt apply exactly it', () => {
    const plan = buildPlan(facts(systemDisk(false), measuredPbkdf2), { unlockTimeMs: 2000 });
    // 34026 it/s for 256 bits → 17013 it/s for the 512-bit volume key (two SHA-256 blocks, RFC 8018 §5.2) → 2 s.
    expect(plan.settings.luks2Pbkdf).toMatchObject({
      kdf: 'pbkdf2',
      iterations: 34_026,
      memoryKiB: 0,
      parallel: 1,
    });
    expect(plan.settings.keySizeBits).toBe(512);
    const reencrypt = plan.commands.find((command) => command.id === 'in-place-reencrypt');
    expect(reencrypt?.argv.join(' ')).toContain('--pbkdf pbkdf2 --pbkdf-force-iterations 34026');
    expect(reencrypt?.argv).not.toContain('argon2id');
    expect(reencrypt?.argv).not.toContain('--pbkdf-memory');
    const stated = plan.recommendations.find((entry) => entry.ruleId === 'luks2-pbkdf');
    expect(stated?.value).toMatchObject({ pbkdf: 'pbkdf2' });
    expect(stated?.reason).toContain('GRUB');
  });

  it('pins the iterations from the median of repeated PBKDF2-sha256 runs and states their spread', () => {
    // Three runs captured back to back on this project's VM (fixtures/cryptsetup-benchmark/linux-debian12-pbkdf2-sha256-run1..3):
    // the facts' figure is their median (cryptsetup-benchmark-facts.ts).
    const repeated: PlanFacts = {
      cipherBenchmark: {
        kdfSpeed: {
          pbkdf2: [
            {
              hash: 'sha256',
              iterationsPerSecond: 2_803_679,
              derivedKeyBits: 256,
              iterationsPerSecondSamples: [2_803_679, 2_833_989, 2_475_976],
            },
          ],
        },
      },
    };
    const plan = buildPlan(facts(systemDisk(false), repeated), { unlockTimeMs: 2000 });
    expect(plan.settings.luks2Pbkdf).toMatchObject({ kdf: 'pbkdf2', iterations: 2_803_679 });
    const stated = plan.recommendations.find((entry) => entry.ruleId === 'luks2-pbkdf');
    expect(stated?.reason).toContain('the median of 3 runs, 2475976–2833989 iterations/s');
  });

  it('keeps argon2id when /boot is its own partition, and leaves the timing to cryptsetup when unmeasured', () => {
    expect(buildPlan(facts(systemDisk(true), measuredPbkdf2)).settings.luks2Pbkdf?.kdf).toBe('argon2id');
    const unmeasured = buildPlan(systemDisk(true), { encryptedBoot: true, unlockTimeMs: 3000 });
    expect(unmeasured.settings.luks2Pbkdf).toMatchObject({
      kdf: 'pbkdf2',
      iterations: null,
      iterTimeMs: 3000,
    });
    const format = unmeasured.commands.find((command) =>
      ['luks-format', 'in-place-reencrypt'].includes(command.id),
    );
    expect(format?.argv.join(' ')).toContain('--pbkdf pbkdf2 --iter-time 3000');
  });

  it('the consistency check refuses a plan whose stated KDF is not the one its command applies', () => {
    const plan = buildPlan(facts(systemDisk(false), measuredPbkdf2));
    const argon = { ...plan.settings.luks2Pbkdf!, kdf: 'argon2id' as const };
    expect(checkPlanConsistency(plan).commands).not.toEqual([]);
    const contradicted = checkPlanConsistency({ ...plan, settings: { ...plan.settings, luks2Pbkdf: argon } });
    expect(contradicted.commands).toEqual([]);
    expect(contradicted.findings[0]?.message).toContain('applies --pbkdf pbkdf2, the plan states argon2id');
  });

  it('stays silent when /boot is its own partition, and warns whenever the user says GRUB unlocks /boot', () => {
    expect(grubOf(systemDisk(true))).toBeUndefined();
    const said = grubOf(systemDisk(true), { encryptedBoot: true });
    expect(said?.severity).toBe('warning');
    expect(said?.message).toContain('--encrypted-boot');
  });

  it('does not apply to VeraCrypt (its own boot loader, PBKDF2 only)', () => {
    expect(grubOf(systemDisk(false), { targetTool: 'veracrypt', encryptedBoot: true })).toBeUndefined();
  });
});
