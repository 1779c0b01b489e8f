import {
  estimateLuks2AttackerCost,
  estimateVeracryptAttackerCost,
  type AttackerCost,
} from '../rules/attacker-cost.js';
import type { EffectiveCipherSpeed } from '../rules/cipher-speed.js';
import { recommendVeracryptEncryption } from '../rules/cipher.js';
import { findDmCryptTunables, findNvme4096Lba } from '../rules/dm-crypt-tunables.js';
import { plansForLinux, type PlanFacts } from '../rules/facts.js';
import { bootOnVolume, findGrubBootPbkdf2 } from '../rules/grub-boot.js';
import { findKernelAesXtsUpgrade } from '../rules/kernel-aes-xts-upgrade.js';
import {
  recommendGrubPbkdf2,
  recommendLuks2Pbkdf,
  recommendVeracryptKdf,
  type Luks2Pbkdf,
} from '../rules/key-derivation.js';
import type { PredictedPerformance } from '../rules/performance-model.js';
import type { ResolvedPlanOptions } from '../rules/plan-options.js';
import { findRetpolineAesXts } from '../rules/retpoline-aes-xts.js';
import { mergeRuleResults, type RuleResult } from '../rules/rule-result.js';
import type { Strategy } from '../rules/strategy.js';
import { adviseVeracryptArgon2 } from '../rules/veracrypt-argon2.js';
import type { VolumePlanKit } from '../targets/target.js';

/** VeraCrypt's algorithm, hash and PIM as the rules decide them. */
export type VeracryptSettings = {
  encryption: ReturnType<typeof recommendVeracryptEncryption>['encryption'];
  kdf: ReturnType<typeof recommendVeracryptKdf>['kdf'];
};

/**
 * VeraCrypt's encryption algorithm and PIM rules (veracrypt-encryption, veracrypt-hash, veracrypt-pim), for the
 * volume plan and the platform plans alike; a cascade of three ciphers derives three keys.
 */
export function veracryptRules(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { settings: VeracryptSettings; speed: EffectiveCipherSpeed | null } {
  const encryption = recommendVeracryptEncryption(facts, options);
  const kdf = recommendVeracryptKdf(facts, options, encryption.encryption === 'AES-Twofish-Serpent' ? 3 : 1);
  return {
    ...mergeRuleResults(encryption, kdf),
    settings: { encryption: encryption.encryption, kdf: kdf.kdf },
    speed: encryption.speed,
  };
}

/** The rules' types a target's volume plan passes through (targets/target.ts VolumePlanTypes). */
interface VolumeRuleTypes {
  readonly keyslot: Luks2Pbkdf;
  readonly veracrypt: VeracryptSettings;
  readonly speed: EffectiveCipherSpeed | null;
  readonly attackerCost: AttackerCost;
  readonly strategy: Strategy;
  readonly prediction: PredictedPerformance;
}

/**
 * The rules a target's volume plan (targets/<id>/plan.ts, EncryptionTarget.volumePlan) combines, for these facts
 * and options. `devicePath` is the disk the plan's commands name (a stand-in when the facts name none).
 */
export function volumePlanKit(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  devicePath: string,
): VolumePlanKit<VolumeRuleTypes> {
  return {
    linuxHost: plansForLinux(facts),
    encryptedBoot: options.encryptedBoot,
    luks2Keyslot: () => {
      const kdf = recommendLuks2Pbkdf(facts, options);
      return {
        ...kdf,
        pbkdf: { ...kdf.pbkdf },
        attackerCost: estimateLuks2AttackerCost(kdf.pbkdf, options.entropyBits),
      };
    },
    grubKeyslot: (keyBits) => {
      const keyslot = recommendGrubPbkdf2(facts, options, keyBits);
      return { ...keyslot, pbkdf: { ...keyslot.pbkdf } };
    },
    bootOnVolume: (strategy) => bootOnVolume(facts, options, strategy) !== null,
    grubFindings: (strategy) => findGrubBootPbkdf2(facts, options, strategy, devicePath),
    veracrypt: () => {
      const rules = veracryptRules(facts, options);
      return {
        ...mergeRuleResults(rules, adviseVeracryptArgon2(facts, options, rules.settings.kdf.pim)),
        settings: rules.settings,
        speed: rules.speed,
        attackerCost: estimateVeracryptAttackerCost(rules.settings.kdf, options.entropyBits),
      };
    },
    kernelCipherFindings: (predicted) => [
      ...findKernelAesXtsUpgrade(facts, predicted),
      ...findRetpolineAesXts(facts, predicted),
    ],
    dmCryptTunables: (strategy, workqueueBypass) => [
      ...findDmCryptTunables(facts, workqueueBypass),
      ...findNvme4096Lba(facts, strategy),
    ],
  };
}
