import { evidence } from '../../domain/recommendation.js';
import type { StorageModel } from '../../domain/storage-model.js';
import { diskEvidence, infoFinding as info, platformSource } from '../platform-evidence.js';
import type { PlatformPlanHook, TargetRuleResult, VolumePlanHook } from '../target.js';
import { enableTrimCommand } from '../windows-commands.js';
import { veracryptWindowsCommands } from './commands.js';

/**
 * The VeraCrypt target's plans on Windows and macOS, from the storage model alone (domain/storage-model.ts): the
 * plan's VeraCrypt algorithm and PIM rules, what VeraCrypt can do on the platform, and its commands there. Pure.
 */

/**
 * `veracrypt-windows-scope`: what VeraCrypt's Windows command line can do. `VeraCrypt Format.exe /create` makes
 * file containers only; partitions, drives and system encryption are made in the Volume Creation Wizard, and
 * system encryption (pre-boot authentication, Rescue Disk) has no command line at all (VeraCrypt documentation,
 * "Command Line Usage for Windows", "System Encryption").
 */
function veracryptWindowsScope(storage: StorageModel): TargetRuleResult {
  return {
    recommendations: [],
    findings: [
      info(
        'veracrypt-windows-scope',
        'VeraCrypt on Windows creates only file containers from the command line (VeraCrypt Format.exe /create). To encrypt a partition, a whole drive or the system drive, use the VeraCrypt Volume Creation Wizard with the settings above: system encryption cannot be done from the command line.',
        diskEvidence(storage),
      ),
    ],
  };
}

/**
 * VeraCrypt on Windows: its algorithm and PIM, `windows-trim` (VeraCrypt blocks TRIM on non-system volumes),
 * its scope, and a file container on the first drive letter (VeraCrypt Format.exe /create).
 */
export const veracryptWin32Plan: PlatformPlanHook = (input, kit) => {
  const rules = kit.veracrypt();
  const trim = kit.windowsTrim();
  const mountPoint =
    input.storage.partitions
      .map((part) => part.mountpoint)
      .find((mount) => typeof mount === 'string' && /^[A-Za-z]:$/.test(mount)) ?? null;
  const partition = input.storage.partitions.find((part) => part.mountpoint === mountPoint);
  return {
    results: [rules, trim, veracryptWindowsScope(input.storage)],
    commands: [
      ...veracryptWindowsCommands(
        mountPoint,
        rules.settings,
        input.options.label,
        partition?.sizeBytes ?? null,
      ),
      ...(trim.enableTrim ? [enableTrimCommand()] : []),
    ],
    keySizeBits: null,
    allowDiscards: false,
    veracrypt: rules.settings,
    alreadyEncrypted: null,
  };
};

/**
 * VeraCrypt on macOS: its algorithm and PIM, and the whole external drive formatted as a VeraCrypt volume; the
 * startup disk cannot be (VeraCrypt has no system encryption on macOS). VeraCrypt never passes TRIM on macOS
 * (VeraCrypt documentation, "Trim Operation").
 */
export const veracryptDarwinPlan: PlatformPlanHook = (input, kit) => {
  const rules = kit.veracrypt();
  const { storage, diskId } = input;
  const external = storage.disk.internal === false;
  const scope: TargetRuleResult = {
    recommendations: [],
    findings: [
      {
        ruleId: 'veracrypt-macos-scope',
        severity: 'info',
        message: external
          ? 'VeraCrypt formats the whole external drive (exFAT inside, readable on Windows and Linux); macOS has no VeraCrypt system encryption and VeraCrypt blocks TRIM on macOS.'
          : 'VeraCrypt cannot encrypt the Mac’s startup disk (it has no system encryption on macOS): use FileVault (--target apfs), or a VeraCrypt container on a drive that is not the startup disk.',
        evidence: [
          evidence(
            'disk.internal',
            storage.disk.internal ?? null,
            platformSource(storage.disk.source, 'internal'),
          ),
        ],
      },
    ],
  };
  return {
    results: [rules, scope],
    commands: external && diskId !== null ? kit.volumeCommands(`/dev/${diskId}`, rules.settings) : [],
    keySizeBits: null,
    allowDiscards: false,
    veracrypt: rules.settings,
    alreadyEncrypted: null,
  };
};

/**
 * VeraCrypt's part of the volume plan (Linux, and the model on a platform without a storage model): it picks its
 * own encryption algorithm (the model predicts with that algorithm's speed, and encplan's dm-crypt cipher rules do
 * not apply), its hash and PIM, and the attacker's cost of them. It has no keyslot GRUB opens and no dm-crypt
 * tunables. Pure.
 */
export const veracryptVolumePlan: VolumePlanHook = (kit) => {
  const rules = kit.veracrypt();
  return {
    kdf: rules,
    luks2Pbkdf: null,
    veracrypt: rules.settings,
    ownCipher: { name: rules.settings.encryption, speed: rules.speed },
    attackerCost: rules.attackerCost,
    residualKeySize: false,
    grubKeyslot: () => null,
    predictionFindings: () => [],
    strategyFindings: () => [],
  };
};
