import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { GIB, MIB } from '../../src/domain/units.js';
import { gptDisk } from './facts-builder.js';

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
  it('names the PBKDF2 conversion when / is encrypted in place and /boot is a directory of it', () => {
    const plan = buildPlan(systemDisk(false));
    expect(plan.strategy?.kind).toBe('in-place');
    const finding = grubOf(systemDisk(false));
    expect(finding?.severity).toBe('info');
    expect(finding?.message).toContain('GRUB opens LUKS2 only with a PBKDF2 keyslot');
    expect(finding?.message).toContain(
      'cryptsetup luksConvertKey --key-slot 0 --pbkdf pbkdf2 --iter-time 2000 /dev/nvme0n1p3',
    );
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
