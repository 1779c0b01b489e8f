import { evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { PlanFacts } from './facts.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import type { Strategy } from './strategy.js';

/** Mounts that put /boot outside the root filesystem (a separate /boot, or an ESP mounted at /boot). */
const BOOT_MOUNT = '/boot';

/**
 * Whether /boot lies on the filesystem the plan encrypts: the user says so (`--encrypted-boot`), or the
 * strategy encrypts the root filesystem in place and nothing on this disk is mounted at /boot (so /boot is a
 * directory of it). Null when the layout cannot tell (no in-place root target).
 */
export function bootOnVolume(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  strategy: Strategy,
): 'option' | 'layout' | null {
  if (options.encryptedBoot) {
    return 'option';
  }
  const mounts = [
    ...(facts.disk?.mountpoints ?? []),
    ...(facts.partitions ?? []).flatMap((partition) => partition.mountpoints ?? []),
  ];
  return strategy.kind === 'in-place' &&
    strategy.target?.mountpoints.includes('/') === true &&
    !mounts.includes(BOOT_MOUNT)
    ? 'layout'
    : null;
}

/**
 * `grub-boot-pbkdf2`: GRUB can unlock a LUKS2 volume only through a PBKDF2 keyslot: "For LUKS2 only the PBKDF2
 * key derivation function is supported, as Argon2 is not yet supported" (GNU GRUB manual, "cryptomount";
 * grub-core/disk/luks2.c refuses Argon2 keyslots with "Argon2 not supported"). When /boot lies on the volume
 * (GRUB_ENABLE_CRYPTODISK), the plan's Argon2id keyslot would leave the machine at the GRUB rescue prompt, so
 * the plan's keyslot becomes PBKDF2 (rules/key-derivation.ts recommendGrubPbkdf2, applied in plan/plan.ts) and
 * this finding says why. The initramfs keeps unlocking root with any keyslot.
 */
export function findGrubBootPbkdf2(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  strategy: Strategy,
  devicePath: string,
): Finding[] {
  const basis = bootOnVolume(facts, options, strategy);
  if (basis === null) {
    return [];
  }
  const device = strategy.target?.path ?? devicePath;
  const why =
    basis === 'option'
      ? 'You said GRUB unlocks /boot from this volume (--encrypted-boot)'
      : `${device} holds / and nothing on this disk is mounted at /boot, so /boot is a directory of the volume: if GRUB loads the kernel from it (GRUB_ENABLE_CRYPTODISK=y)`;
  return [
    {
      ruleId: 'grub-boot-pbkdf2',
      severity: basis === 'option' ? 'warning' : 'info',
      message:
        `${why}, GRUB must open the LUKS2 header itself, and GRUB opens LUKS2 only with a PBKDF2 keyslot ("For LUKS2 only the PBKDF2 key derivation function is supported, as Argon2 is not yet supported", GRUB manual, cryptomount). ` +
        `So the plan formats the keyslot with PBKDF2-sha256 (settings.luks2Pbkdf.kdf "pbkdf2"; the luksFormat or reencrypt command passes --pbkdf pbkdf2), not argon2id. ` +
        'PBKDF2 gives an attacker with GPUs far less work per second of your wait than Argon2id: use a long passphrase, or keep /boot unencrypted on its own partition and let the initramfs unlock root with Argon2id.',
      evidence: [
        evidence(
          'options.encryptedBoot',
          options.encryptedBoot,
          sourceOf('encplan', 'options.encryptedBoot'),
        ),
        evidence(
          'strategy.target.mountpoints',
          (strategy.target?.mountpoints ?? []).join(' '),
          sourceOf('lsblk', 'mountpoints'),
        ),
        evidence(
          '/boot mounted on this disk',
          basis === 'option' ? null : false,
          sourceOf('lsblk', 'mountpoints'),
        ),
      ],
    },
  ];
}
