import { z } from 'zod';
import { EncplanError } from '../errors.js';
import { evidence, findingSchema, recommendationSchema } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import {
  attackerCostSchema,
  estimateLuks2AttackerCost,
  estimateVeracryptAttackerCost,
} from '../rules/attacker-cost.js';
import {
  checkKernelAesDriver,
  recommendCipherMode,
  recommendKeySize,
  recommendVeracryptEncryption,
} from '../rules/cipher.js';
import {
  recommendDiscards,
  recommendSectorSize,
  recommendWorkqueueBypass,
} from '../rules/dm-crypt-parameters.js';
import { estimateInPlaceWriteCost, evaluateHealthGate, healthGateSchema } from '../rules/health-gate.js';
import { recommendLuks2Pbkdf, recommendVeracryptKdf } from '../rules/key-derivation.js';
import {
  findPerformanceResiduals,
  findSmallSectorBound,
  predictedPerformanceSchema,
  predictPerformance,
} from '../rules/performance-model.js';
import { isKernelAtLeast } from '../rules/kernel-version.js';
import { lastPartitionEndSectorOf, existingEncryptionOf, osOf, type PlanFacts } from '../rules/facts.js';
import { mergeRuleResults, type RuleResult } from '../rules/rule-result.js';
import { recommendSpace, spacePlanSchema } from '../rules/space.js';
import { buildCommands, planCommandSchema } from './commands.js';
import {
  planOptionsSchema,
  targetToolSchema,
  threatModelSchema,
  workloadSchema,
  type PlanOptions,
  type TargetTool,
} from '../rules/plan-options.js';

/** Stand-in device path in commands when the assessment names no disk. */
export const PLACEHOLDER_DEVICE = '/dev/DEVICE';

/** The plan: health gate first, then recommendations, the settings they add up to, predictions and commands. */
export const planSchema = z.object({
  targetTool: targetToolSchema,
  threatModel: threatModelSchema,
  workload: workloadSchema,
  /** The device path used in the commands; `devicePlaceholder` says when it is a stand-in. */
  devicePath: z.string(),
  devicePlaceholder: z.boolean(),
  healthGate: healthGateSchema,
  /** Things to fix or know first (critical before warning before info). */
  findings: z.array(findingSchema),
  recommendations: z.array(recommendationSchema),
  settings: z.object({
    cipher: z.string(),
    /** XTS key bits (512 = AES-256); null for APFS, which chooses its own. */
    keySizeBits: z.number().int().nullable(),
    sectorSizeBytes: z.number().int().nullable(),
    workqueueBypass: z.boolean(),
    allowDiscards: z.boolean(),
    luks2Pbkdf: z
      .object({
        memoryKiB: z.number().int(),
        parallel: z.number().int(),
        iterations: z.number().int().nullable(),
        iterTimeMs: z.number().int().nullable(),
        predictedUnlockMs: z.number().nullable(),
      })
      .nullable(),
    veracrypt: z
      .object({
        encryption: z.string(),
        hash: z.string(),
        pim: z.number().int(),
        iterations: z.number().int(),
        predictedUnlockMs: z.number().nullable(),
      })
      .nullable(),
    space: spacePlanSchema.nullable(),
  }),
  predictedPerformance: z.array(predictedPerformanceSchema),
  attackerCost: z.array(attackerCostSchema),
  commands: z.array(planCommandSchema),
});
/** See {@link planSchema}. */
export type Plan = z.infer<typeof planSchema>;

const DEFAULT_TOOL: Readonly<Record<'linux' | 'darwin' | 'win32', TargetTool>> = {
  linux: 'luks2',
  darwin: 'apfs',
  win32: 'veracrypt',
};
const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;
/** Devices in commands: absolute /dev paths with no shell-special or option-like start (architecture §2.4). */
const DEVICE_PATH = /^\/dev\/[A-Za-z0-9._/:-]+$/;

/**
 * Builds the plan from the assessment's facts (whole or partial; use-cases/plan-from-assessment.ts validates a
 * document into them): pure, deterministic, executes nothing. Throws INVALID_ARGUMENT when the options do not
 * match their schema, or when the disk's path is not a plain /dev path.
 */
export function buildPlan(facts: PlanFacts, rawOptions: PlanOptions = {}): Plan {
  const parsedOptions = planOptionsSchema.safeParse(rawOptions);
  if (!parsedOptions.success) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The plan options are not valid: ${z.prettifyError(parsedOptions.error)}`,
    );
  }
  // encplan assess runs on Linux only (README), so a document without provenance is planned for Linux.
  const targetTool = parsedOptions.data.targetTool ?? DEFAULT_TOOL[osOf(facts) ?? 'linux'];
  const options = { ...parsedOptions.data, targetTool };
  const diskPath = facts.disk?.path;
  if (diskPath !== undefined && !DEVICE_PATH.test(diskPath)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The device path ${JSON.stringify(diskPath)} is not a plain /dev path.`,
      {
        hint: 'Use the absolute path of the block device, e.g. /dev/nvme0n1.',
      },
    );
  }
  const devicePath = diskPath ?? PLACEHOLDER_DEVICE;

  const health = evaluateHealthGate(facts);
  const writeCost = estimateInPlaceWriteCost(facts);
  const driver = checkKernelAesDriver(facts);
  const mode = recommendCipherMode(facts, options);
  const keySize = recommendKeySize(facts, options, mode.choice);
  const choice = keySize.choice;
  const sector = recommendSectorSize(facts, options, choice);
  const workqueue = recommendWorkqueueBypass(facts, options);
  const discards = recommendDiscards(facts, options);
  const space = recommendSpace(facts, options, discards.allowDiscards);

  let kdfResult: RuleResult = { recommendations: [], findings: [] };
  let luks2Pbkdf: Plan['settings']['luks2Pbkdf'] = null;
  let veracrypt: Plan['settings']['veracrypt'] = null;
  let veracryptSettings: Parameters<typeof buildCommands>[2]['veracrypt'] = null;
  let modelSpeed = choice.speed;
  let attackerCost: Plan['attackerCost'] = [];
  if (targetTool === 'luks2') {
    const kdf = recommendLuks2Pbkdf(facts, options);
    kdfResult = kdf;
    luks2Pbkdf = { ...kdf.pbkdf };
    attackerCost = estimateLuks2AttackerCost(kdf.pbkdf, options.entropyBits);
  } else if (targetTool === 'veracrypt') {
    const encryption = recommendVeracryptEncryption(facts, options);
    const kdf = recommendVeracryptKdf(
      facts,
      options,
      encryption.encryption === 'AES-Twofish-Serpent' ? 3 : 1,
    );
    kdfResult = mergeRuleResults(encryption, kdf);
    veracrypt = {
      encryption: encryption.encryption,
      hash: kdf.kdf.hash,
      pim: kdf.kdf.pim,
      iterations: kdf.kdf.iterations,
      predictedUnlockMs: kdf.kdf.predictedUnlockMs,
    };
    veracryptSettings = { encryption: encryption.encryption, kdf: kdf.kdf };
    modelSpeed = encryption.speed;
    attackerCost = estimateVeracryptAttackerCost(kdf.kdf, options.entropyBits);
  }

  // VeraCrypt picks its own cipher (veracrypt-encryption); the dm-crypt cipher rules do not apply to it.
  const cipherRules = targetTool === 'veracrypt' ? [] : [mode, keySize];
  const all = mergeRuleResults(
    health,
    writeCost,
    driver,
    ...cipherRules,
    sector,
    workqueue,
    discards,
    kdfResult,
    space,
  );
  // VeraCrypt and APFS volumes use 512-byte and 4096-byte sectors of their own (no choice to make).
  const effectiveSector = sector.sectorSizeBytes ?? (targetTool === 'apfs' ? 4096 : 512);
  const predictedPerformance = predictPerformance(facts, {
    speed: modelSpeed,
    sectorSizeBytes: effectiveSector,
    workqueueBypass: workqueue.bypass,
    engine: targetTool === 'luks2' ? 'dm-crypt' : targetTool,
  });
  const residuals = findPerformanceResiduals(predictedPerformance, {
    workqueueBypass: workqueue.bypass,
    sectorSizeBytes: effectiveSector,
    keyBits: targetTool === 'luks2' ? choice.keyBits : null,
    kernelAesGeneric: facts.kernelCrypto?.xtsAesImplementation === 'generic',
    kernelAtLeast59: isKernelAtLeast(facts.machine?.os?.kernel ?? null, 5, 9),
  });
  const commands = buildCommands(facts, options, {
    targetTool,
    devicePath,
    cipherSpec: choice.spec,
    keyBits: choice.keyBits,
    sectorSizeBytes: sector.sectorSizeBytes,
    luks2Pbkdf: luks2Pbkdf,
    workqueueBypass: workqueue.bypass,
    allowDiscards: discards.allowDiscards,
    space: space.space,
    veracrypt: veracryptSettings,
  });
  const formats = commands.some(
    (command) =>
      command.id === 'luks-format' || command.id === 'veracrypt-create' || command.id === 'apfs-add-volume',
  );
  const smallSector = findSmallSectorBound(predictedPerformance, effectiveSector, targetTool === 'luks2');
  const findings = [...all.findings, ...residuals, ...smallSector];
  if (!formats && existingEncryptionOf(facts) === null) {
    findings.push({
      ruleId: 'partition-first',
      severity: 'info',
      message: `The disk already has partitions encplan cannot extend exactly; create one ending at sector ${String(space.space?.partitionEndSector ?? 'unknown')} (or pick an existing one) and encrypt that partition with the settings above.`,
      evidence: [
        evidence('disk.partitionTable', facts.disk?.partitionTable ?? null, sourceOf('lsblk', 'pttype')),
        evidence(
          'last partition end (sector)',
          lastPartitionEndSectorOf(facts),
          sourceOf('lsblk', 'partitions'),
        ),
      ],
    });
  }
  const plan: Plan = {
    targetTool,
    threatModel: options.threatModel,
    workload: options.workload,
    devicePath,
    devicePlaceholder: diskPath === undefined,
    healthGate: health.gate,
    findings: findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
    recommendations: [...all.recommendations],
    settings: {
      cipher: targetTool === 'veracrypt' ? (veracrypt?.encryption ?? 'AES') : choice.spec,
      keySizeBits: targetTool === 'apfs' ? null : choice.keyBits,
      sectorSizeBytes: sector.sectorSizeBytes,
      workqueueBypass: workqueue.bypass,
      allowDiscards: discards.allowDiscards,
      luks2Pbkdf,
      veracrypt,
      space: space.space,
    },
    predictedPerformance,
    attackerCost,
    commands,
  };
  return plan;
}
