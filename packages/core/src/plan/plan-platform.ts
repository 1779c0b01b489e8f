import { UNKNOWN_DISK_ID } from '../rules/storage-facts.js';
import type { StorageModel } from '../domain/storage-model.js';
import { isEncryptedVolumeOf } from '../targets/registry.js';
import type { PlatformPlanHook } from '../targets/target.js';
import { estimateVeracryptAttackerCost } from '../rules/attacker-cost.js';
import { effectiveCipherSpeed, opensslRefusal } from '../rules/cipher-speed.js';
import { describeCipherEvidence, predictPlatformPerformance } from '../rules/performance-model.js';
import type { PlanFacts } from '../rules/facts.js';
import { evaluateHealthGate } from '../rules/health-gate.js';
import { veracryptPlanSettings } from '../rules/key-derivation.js';
import type { ResolvedPlanOptions, TargetTool } from '../rules/plan-options.js';
import { macosTrim, windowsTrim } from '../rules/platform-trim.js';
import { mergeRuleResults } from '../rules/rule-result.js';
import { alreadyEncryptedStrategy } from '../rules/strategy.js';
import { volumeCommands } from './commands.js';
import { veracryptRules, type VeracryptSettings } from './volume-kit.js';

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;

/**
 * The plan for an assessment that carries a storage model (macOS, Windows), assembled from the target's own
 * platform plan (`hook`, targets/<id>/plan.ts: its decisions, commands and settings) and what every such plan
 * shares: the health gate first, the predicted performance and cipher evidence, VeraCrypt's attacker cost when
 * the target chose VeraCrypt settings. Pure.
 */
export function buildPlatformPlan(
  facts: PlanFacts,
  storage: StorageModel,
  options: ResolvedPlanOptions & { readonly targetTool: TargetTool },
  hook: PlatformPlanHook,
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
  const part = hook<VeracryptSettings>(
    {
      storage,
      diskId: storage.disk.id === UNKNOWN_DISK_ID ? null : storage.disk.id,
      ioBenchmark: facts.ioBenchmark ?? null,
      options,
      encrypts: (format) => isEncryptedVolumeOf(options.targetTool, format),
    },
    {
      veracrypt: () => veracryptRules(facts, options),
      windowsTrim: () => windowsTrim(storage, options.targetTool),
      macosTrim: () => macosTrim(storage),
      volumeCommands: (devicePath, veracrypt) =>
        volumeCommands(
          facts,
          options,
          {
            targetTool: options.targetTool,
            devicePath,
            cipherSpec: 'aes-xts-plain64',
            keyBits: 512,
            sectorSizeBytes: null,
            luks2Pbkdf: null,
            workqueueBypass: false,
            allowDiscards: false,
            space: null,
            veracrypt,
          },
          devicePath,
          undefined,
        ),
    },
  );
  const { keySizeBits, veracrypt, alreadyEncrypted } = part;
  const all = mergeRuleResults(gate, ...part.results);
  // Measured beats modelled here as on Linux (issue 24): the model paired with the run of the same backend.
  const speed = effectiveCipherSpeed(facts, 'aes-xts', keySizeBits ?? 512);
  const performance = predictPlatformPerformance(facts, options.targetTool, speed);
  return {
    ...(alreadyEncrypted === null
      ? {}
      : {
          strategy: alreadyEncryptedStrategy(
            { path: alreadyEncrypted.path, format: alreadyEncrypted.format },
            alreadyEncrypted.reason,
          ),
        }),
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
      allowDiscards: part.allowDiscards,
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
    commands: [...part.commands],
  };
}
