import { UNKNOWN_DISK_ID } from '../rules/storage-facts.js';
import type { StorageModel } from '../domain/storage-model.js';
import { evidence } from '../domain/recommendation.js';
import { planSettingsOf } from '../targets/registry.js';
import { sourceOf } from '../domain/source.js';
import { estimateVeracryptAttackerCost } from '../rules/attacker-cost.js';
import { effectiveCipherSpeed, opensslRefusal } from '../rules/cipher-speed.js';
import { describeCipherEvidence, predictPlatformPerformance } from '../rules/performance-model.js';
import { recommendVeracryptEncryption } from '../rules/cipher.js';
import type { PlanFacts } from '../rules/facts.js';
import { evaluateHealthGate } from '../rules/health-gate.js';
import { recommendVeracryptKdf, veracryptPlanSettings } from '../rules/key-derivation.js';
import type { ResolvedPlanOptions, TargetTool } from '../rules/plan-options.js';
import {
  macosTrim,
  recommendBitLocker,
  recommendMacosEncryption,
  veracryptWindowsScope,
  windowsTrim,
} from '../rules/platform-encryption.js';
import { mergeRuleResults, type RuleResult } from '../rules/rule-result.js';
import { alreadyEncryptedStrategy, type Strategy } from '../rules/strategy.js';
import { volumeCommands, type PlanCommand } from './commands.js';
import { darwinCommands } from '../targets/apfs/commands.js';
import { bitlockerCommands } from '../targets/bitlocker/commands.js';
import { veracryptWindowsCommands } from '../targets/veracrypt/commands.js';
import { enableTrimCommand } from '../targets/windows-commands.js';

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;

type VeracryptSettings = {
  encryption: ReturnType<typeof recommendVeracryptEncryption>['encryption'];
  kdf: ReturnType<typeof recommendVeracryptKdf>['kdf'];
};

function veracryptRules(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { settings: VeracryptSettings } {
  const encryption = recommendVeracryptEncryption(facts, options);
  const kdf = recommendVeracryptKdf(facts, options, encryption.encryption === 'AES-Twofish-Serpent' ? 3 : 1);
  return {
    ...mergeRuleResults(encryption, kdf),
    settings: { encryption: encryption.encryption, kdf: kdf.kdf },
  };
}

/**
 * The plan for a macOS or Windows assessment: the platform's own encryption (FileVault/APFS, BitLocker) or
 * VeraCrypt, from the storage model alone (`storage`), with commands in the platform's syntax. Pure.
 */
export function buildPlatformPlan(
  facts: PlanFacts,
  storage: StorageModel,
  options: ResolvedPlanOptions & { readonly targetTool: TargetTool },
  platform: 'darwin' | 'win32',
) {
  const health = storage.disk.health ?? null;
  // The health gate reads the platform's verdict as it reads smartctl's on Linux.
  const gate = evaluateHealthGate({
    health: {
      verdict: health?.verdict ?? 'unknown',
      percentageUsed: health?.wearPercent ?? null,
      // The gate's source field names Linux tools; a status relayed by diskutil/PowerShell is cited by the
      // report's health section instead.
      source: health?.source === 'smartctl' ? 'smartctl' : 'none',
    },
  });
  const results: RuleResult[] = [gate];
  let commands: PlanCommand[];
  let veracrypt: VeracryptSettings | null = null;
  let keySizeBits: number | null = null;
  let allowDiscards = true;
  let strategy: Strategy | undefined;
  const mountPoint =
    storage.partitions
      .map((part) => part.mountpoint)
      .find((mount) => typeof mount === 'string' && /^[A-Za-z]:$/.test(mount)) ?? null;

  if (planSettingsOf(options.targetTool).keyDerivation === 'veracrypt-pim') {
    const rules = veracryptRules(facts, options);
    veracrypt = rules.settings;
    results.push(rules);
    if (platform === 'win32') {
      const trim = windowsTrim(storage, options.targetTool);
      results.push(trim, veracryptWindowsScope(storage));
      allowDiscards = false;
      const partition = storage.partitions.find((part) => part.mountpoint === mountPoint);
      commands = [
        ...veracryptWindowsCommands(
          mountPoint ?? null,
          rules.settings,
          options.label,
          partition?.sizeBytes ?? null,
        ),
        ...(trim.enableTrim ? [enableTrimCommand()] : []),
      ];
    } else {
      // VeraCrypt never passes TRIM on macOS (VeraCrypt documentation, "Trim Operation").
      allowDiscards = false;
      const identifier = storage.disk.id === UNKNOWN_DISK_ID ? undefined : storage.disk.id;
      const external = storage.disk.internal === false;
      results.push({
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
                sourceOf(storage.disk.source ?? 'not measured', 'internal'),
              ),
            ],
          },
        ],
      });
      commands =
        external && identifier !== undefined
          ? volumeCommands(
              facts,
              options,
              {
                targetTool: 'veracrypt',
                devicePath: `/dev/${identifier}`,
                cipherSpec: 'aes-xts-plain64',
                keyBits: 512,
                sectorSizeBytes: null,
                luks2Pbkdf: null,
                workqueueBypass: false,
                allowDiscards: false,
                space: null,
                veracrypt: rules.settings,
              },
              `/dev/${identifier}`,
              undefined,
            )
          : [];
    }
  } else if (platform === 'darwin') {
    const encryption = recommendMacosEncryption(storage, facts.ioBenchmark);
    const trim = macosTrim(storage);
    results.push(encryption, trim);
    commands = darwinCommands(encryption.action, options.label, trim.trimforce);
    if (encryption.action.kind === 'nothing') {
      const reason = encryption.recommendations.find((entry) => entry.ruleId === 'macos-encryption')?.reason;
      strategy = alreadyEncryptedStrategy(
        { path: encryption.action.volume, format: 'apfs' },
        reason ?? 'Already encrypted.',
      );
    }
  } else {
    const bitlocker = recommendBitLocker(storage, options);
    const trim = windowsTrim(storage, options.targetTool);
    results.push(bitlocker, trim);
    // XTS key bits, as for dm-crypt (two AES keys): XTS-AES 256 = 512.
    keySizeBits = bitlocker.method === 'xts_aes256' ? 512 : 256;
    if (bitlocker.action.kind === 'nothing') {
      const reason = bitlocker.findings.find((entry) => entry.ruleId === 'bitlocker-existing')?.message;
      strategy = alreadyEncryptedStrategy(
        { path: bitlocker.action.mountPoint, format: 'bitlocker' },
        reason ?? 'Already encrypted.',
      );
    }
    commands = [
      ...bitlockerCommands(bitlocker.action, bitlocker.method),
      ...(trim.enableTrim ? [enableTrimCommand()] : []),
    ];
  }
  const all = mergeRuleResults(...results);
  // Measured beats modelled here as on Linux (issue 24): the model paired with the run of the same backend.
  const speed = effectiveCipherSpeed(facts, 'aes-xts', keySizeBits ?? 512);
  const performance = predictPlatformPerformance(facts, options.targetTool, speed);
  return {
    ...(strategy === undefined ? {} : { strategy }),
    targetTool: options.targetTool,
    threatModel: options.threatModel,
    workload: options.workload,
    devicePath: storage.disk.id,
    devicePlaceholder: storage.disk.id === UNKNOWN_DISK_ID,
    healthGate: gate.gate,
    findings: [...all.findings, ...performance.findings].sort(
      (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
    ),
    recommendations: [...all.recommendations],
    settings: {
      cipher: veracrypt === null ? 'aes-xts' : veracrypt.encryption,
      keySizeBits,
      sectorSizeBytes: null,
      workqueueBypass: false,
      allowDiscards,
      luks2Pbkdf: null,
      veracrypt: veracrypt === null ? null : veracryptPlanSettings(veracrypt),
      space: null,
    },
    predictedPerformance: performance.predictedPerformance,
    cipherEvidence: describeCipherEvidence(
      speed,
      performance.predictedPerformance,
      opensslRefusal(facts, 'aes-xts'),
    ),
    attackerCost: veracrypt === null ? [] : estimateVeracryptAttackerCost(veracrypt.kdf, options.entropyBits),
    commands,
  };
}
