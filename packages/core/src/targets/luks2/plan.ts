import type { VolumePlanHook } from '../target.js';

/**
 * LUKS2's part of the volume plan (also LUKS2 on OPAL's, whose software layer is the same dm-crypt volume): the
 * keyslot's Argon2id cost, and on a Linux host what only a dm-crypt volume there meets. GRUB opens only PBKDF2
 * keyslots (GNU GRUB manual, "cryptomount": "For LUKS2 only the PBKDF2 key derivation function is supported"),
 * so where GRUB must open this volume the keyslot is PBKDF2; the kernel's AES-XTS implementation and its
 * mitigations bound dm-crypt's speed; dm-crypt's tunables and the NVMe LBA format are tuning advice, which has
 * no place beside "back up and replace first". Pure.
 */
export const luks2VolumePlan: VolumePlanHook = (kit) => {
  const keyslot = kit.luks2Keyslot();
  // With --encrypted-boot GRUB opens the volume whatever the strategy; otherwise it depends on where /boot is.
  const grubOpens = (strategy: Parameters<typeof kit.bootOnVolume>[0] | null): boolean =>
    kit.linuxHost && (strategy === null ? kit.encryptedBoot : kit.bootOnVolume(strategy));
  return {
    kdf: keyslot,
    luks2Pbkdf: keyslot.pbkdf,
    veracrypt: null,
    ownCipher: null,
    attackerCost: keyslot.attackerCost,
    residualKeySize: true,
    grubKeyslot: (strategy, keyBits) => (grubOpens(strategy) ? kit.grubKeyslot(keyBits) : null),
    predictionFindings: (predicted) => (kit.linuxHost ? kit.kernelCipherFindings(predicted) : []),
    strategyFindings: (strategy, workqueueBypass) =>
      kit.linuxHost
        ? [
            ...kit.grubFindings(strategy),
            ...(strategy.kind === 'replace-first' ? [] : kit.dmCryptTunables(strategy, workqueueBypass)),
          ]
        : [],
  };
};
