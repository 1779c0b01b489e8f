import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/domain/recommendation.js';
import { GIB } from '../../src/domain/units.js';
import { buildPlan } from '../../src/plan/plan.js';
import {
  ENCRYPTION_TARGETS,
  planCommandsOf,
  planTargetsOn,
  volumePlanOf,
} from '../../src/targets/registry.js';
import type { VolumePlanKit, VolumePlanTypes } from '../../src/targets/target.js';
import { volumeInput } from '../support/volume-input.js';
import { emptyDisk, facts, machine } from '../rules/facts-builder.js';

// Issue 26 item 2: on Linux each target plans its own part of the volume plan (targets/<id>/plan.ts,
// EncryptionTarget.volumePlan): its key derivation, the cipher it picks, and what only it meets on a Linux host.
// plan/plan.ts assembles the shared parts around it. The hooks are tested here with a fake kit, which records
// which rules they call; the plans they give are tested with hand-built facts.

interface FakeTypes extends VolumePlanTypes {
  readonly keyslot: string;
  readonly veracrypt: { encryption: string; kdf: { hash: string; pim: number } };
  readonly speed: string;
  readonly attackerCost: string;
  readonly strategy: { readonly kind: string };
  readonly prediction: string;
}

const finding = (ruleId: string): Finding => ({ ruleId, severity: 'info', message: ruleId, evidence: [] });

/** A kit whose rules answer with their own names, and the names of the rules a hook called. */
function fakeKit(linuxHost: boolean, encryptedBoot = false, bootOnVolume = false) {
  const called: string[] = [];
  const note = <R>(name: string, value: R): R => {
    called.push(name);
    return value;
  };
  const kit: VolumePlanKit<FakeTypes> = {
    linuxHost,
    encryptedBoot,
    luks2Keyslot: () =>
      note('luks2Keyslot', {
        recommendations: [],
        findings: [finding('luks2-pbkdf')],
        pbkdf: 'argon2id',
        attackerCost: ['argon2id cost'],
      }),
    grubKeyslot: (keyBits) =>
      note('grubKeyslot', { recommendations: [], findings: [], pbkdf: `pbkdf2 for ${String(keyBits)}` }),
    bootOnVolume: () => note('bootOnVolume', bootOnVolume),
    grubFindings: () => note('grubFindings', [finding('grub-boot-pbkdf2')]),
    veracrypt: () =>
      note('veracrypt', {
        recommendations: [],
        findings: [finding('veracrypt-pim')],
        settings: { encryption: 'Serpent', kdf: { hash: 'sha512', pim: 485 } },
        speed: 'serpent speed',
        attackerCost: ['pim cost'],
      }),
    kernelCipherFindings: () => note('kernelCipherFindings', [finding('kernel-aes-xts-upgrade')]),
    dmCryptTunables: () => note('dmCryptTunables', [finding('dm-crypt-tunables')]),
  };
  return { kit, called };
}

const ids = (findings: readonly Finding[]): string[] => findings.map((entry) => entry.ruleId);
const FRESH = { kind: 'fresh-format' };

describe('LUKS2 plans its own keyslot and its Linux findings', () => {
  const hook = volumePlanOf('luks2');

  it('sets an Argon2id keyslot, lets the cipher rules choose, and names the key size in residual advice', () => {
    const part = hook(fakeKit(true).kit);
    expect(part.luks2Pbkdf).toBe('argon2id');
    expect(part.attackerCost).toEqual(['argon2id cost']);
    expect(ids(part.kdf.findings)).toEqual(['luks2-pbkdf']);
    expect(part.ownCipher).toBeNull();
    expect(part.veracrypt).toBeNull();
    expect(part.residualKeySize).toBe(true);
  });

  it('on a Linux host: GRUB’s PBKDF2 keyslot where GRUB opens the volume, the kernel cipher, GRUB and tunables', () => {
    const before = hook(fakeKit(true, true).kit);
    expect(before.grubKeyslot(null, 512)?.pbkdf).toBe('pbkdf2 for 512');
    const layout = hook(fakeKit(true, false, true).kit);
    expect(layout.grubKeyslot(null, 512)).toBeNull();
    expect(layout.grubKeyslot(FRESH, 256)?.pbkdf).toBe('pbkdf2 for 256');
    expect(hook(fakeKit(true).kit).grubKeyslot(FRESH, 512)).toBeNull();
    const part = hook(fakeKit(true).kit);
    expect(ids(part.predictionFindings(['row']))).toEqual(['kernel-aes-xts-upgrade']);
    expect(ids(part.strategyFindings(FRESH, true))).toEqual(['grub-boot-pbkdf2', 'dm-crypt-tunables']);
  });

  it('gives no tuning advice beside "back up and replace first"', () => {
    const { kit, called } = fakeKit(true);
    expect(ids(hook(kit).strategyFindings({ kind: 'replace-first' }, false))).toEqual(['grub-boot-pbkdf2']);
    expect(called).not.toContain('dmCryptTunables');
  });

  it('off Linux (the model only): no GRUB keyslot and no Linux host findings', () => {
    const { kit, called } = fakeKit(false, true, true);
    const part = hook(kit);
    expect(part.grubKeyslot(null, 512)).toBeNull();
    expect(part.grubKeyslot(FRESH, 512)).toBeNull();
    expect(part.predictionFindings(['row'])).toEqual([]);
    expect(part.strategyFindings(FRESH, false)).toEqual([]);
    expect(called).toEqual(['luks2Keyslot']);
  });

  it('is LUKS2 on OPAL’s part too: the same dm-crypt volume on top of the locking range', () => {
    expect(volumePlanOf('luks2-opal')).toBe(hook);
  });
});

describe('VeraCrypt picks its own cipher and PIM, and has no Linux findings of its own', () => {
  it('states its algorithm, predicts with its speed, and leaves the dm-crypt cipher rules out', () => {
    const { kit, called } = fakeKit(true, true, true);
    const part = volumePlanOf('veracrypt')(kit);
    expect(part.ownCipher).toEqual({ name: 'Serpent', speed: 'serpent speed' });
    expect(part.veracrypt).toEqual({ encryption: 'Serpent', kdf: { hash: 'sha512', pim: 485 } });
    expect(part.attackerCost).toEqual(['pim cost']);
    expect(part.luks2Pbkdf).toBeNull();
    expect(part.residualKeySize).toBe(false);
    expect(part.grubKeyslot(FRESH, 512)).toBeNull();
    expect(part.predictionFindings(['row'])).toEqual([]);
    expect(part.strategyFindings(FRESH, false)).toEqual([]);
    expect(called).toEqual(['veracrypt']);
  });
});

describe('the registry’s volume plans', () => {
  it('gives a target without one (APFS, BitLocker: the model off their platform plans) no part of its own', () => {
    const { kit, called } = fakeKit(true, true, true);
    const part = volumePlanOf('apfs')(kit);
    expect(part.kdf).toEqual({ recommendations: [], findings: [] });
    expect([part.luks2Pbkdf, part.veracrypt, part.ownCipher]).toEqual([null, null, null]);
    expect(part.grubKeyslot(FRESH, 512)).toBeNull();
    expect(called).toEqual([]);
  });

  it('has a volume plan for every plan target whose key derivation encplan sets, and for every Linux plan target', () => {
    for (const target of ENCRYPTION_TARGETS) {
      if (target.planOption && target.settings?.keyDerivation !== 'platform') {
        expect(target.volumePlan, target.id).toBeDefined();
      }
    }
    for (const id of planTargetsOn('linux')) {
      expect(ENCRYPTION_TARGETS.find((target) => target.id === id)?.volumePlan, id).toBeDefined();
    }
  });
});

describe('the plans the hooks give', () => {
  const linux = facts(emptyDisk(64 * GIB), machine({ aes: true, cores: 4, memoryBytes: 8 * GIB }));

  it('LUKS2 on Linux with --encrypted-boot: a PBKDF2 keyslot, no attacker cost of Argon2id', () => {
    const plan = buildPlan(linux, { encryptedBoot: true });
    expect(plan.settings.luks2Pbkdf?.kdf).toBe('pbkdf2');
    expect(plan.attackerCost).toEqual([]);
    expect(plan.findings.map((entry) => entry.ruleId)).toContain('grub-boot-pbkdf2');
  });

  it('VeraCrypt off Linux (the model only): its own cipher and PIM, no keyslot, no commands', () => {
    const plan = buildPlan({ ...linux, provenance: { platform: 'win32' } }, { targetTool: 'veracrypt' });
    expect(plan.settings.luks2Pbkdf).toBeNull();
    expect(plan.settings.veracrypt).not.toBeNull();
    expect(plan.settings.cipher).toBe(plan.settings.veracrypt?.encryption);
    expect(plan.commands).toEqual([]);
  });

  it('VeraCrypt on Linux with --encrypted-boot: no LUKS keyslot, so no GRUB finding', () => {
    const plan = buildPlan(linux, { targetTool: 'veracrypt', encryptedBoot: true });
    expect(plan.settings.luks2Pbkdf).toBeNull();
    expect(plan.findings.map((entry) => entry.ruleId)).not.toContain('grub-boot-pbkdf2');
    expect(plan.commands.map((command) => command.id)).toContain('veracrypt-create');
  });
});

describe('a target’s commands on Linux are its own: the volume, the refresh, the in-place encryption', () => {
  const input = volumeInput();

  it('LUKS2 encrypts in place with the luksFormat options of a new volume, then opens it and adds crypttab', () => {
    const format = planCommandsOf('luks2').volume(input)[0]!;
    const steps = planCommandsOf('luks2').inPlace?.(input, '32M');
    expect(steps?.encrypt.argv).toEqual([
      'cryptsetup',
      'reencrypt',
      '--encrypt',
      ...format.argv.slice(2, -1),
      '--reduce-device-size',
      '32M',
      '/dev/sdb1',
    ]);
    expect(steps?.encrypt.purpose).toContain('32MiB reduction');
    expect(steps?.open.map((command) => command.id)).toEqual(['luks-open']);
    expect(steps?.atBoot.map((command) => command.id)).toEqual(['crypttab-entry']);
  });

  it('has in-place commands exactly for the targets whose settings encrypt in place, refresh for those that refresh', () => {
    for (const target of ENCRYPTION_TARGETS) {
      if (target.settings !== null && target.commands !== null) {
        expect(target.commands.inPlace !== undefined, target.id).toBe(target.settings.inPlaceEncryption);
        expect(target.commands.refresh !== undefined, target.id).toBe(target.settings.refreshOpenVolume);
      }
    }
  });
});
