import { opensslRefusal } from '../rules/cipher-speed.js';
import { z } from 'zod';
import { checkTargetAdmission } from '../rules/target-admission.js';
import { EncplanError } from '../errors.js';
import { findingSchema, recommendationSchema } from '../domain/recommendation.js';
import { attackerCostSchema } from '../rules/attacker-cost.js';
import { checkKernelAesDriver, recommendCipherMode, recommendKeySize } from '../rules/cipher.js';
import {
  recommendDiscards,
  recommendSectorSize,
  recommendWorkqueueBypass,
} from '../rules/dm-crypt-parameters.js';
import { estimateInPlaceWriteCost, evaluateHealthGate, healthGateSchema } from '../rules/health-gate.js';
import {
  luks2PbkdfSchema,
  veracryptPlanSettings,
  veracryptPlanSettingsSchema,
} from '../rules/key-derivation.js';
import {
  cipherEvidenceSchema,
  describeCipherEvidence,
  findLoadTooLight,
  findPerformanceResiduals,
  findSmallSectorBound,
  predictedPerformanceSchema,
  predictPerformance,
} from '../rules/performance-model.js';
import { isKernelAtLeast } from '../rules/kernel-version.js';
import { moveAdviceByResiduals } from '../rules/residual-advice.js';
import { osOf, plansForLinux, type PlanFacts } from '../rules/facts.js';
import { mergeRuleResults } from '../rules/rule-result.js';
import { recommendSpace, spacePlanSchema } from '../rules/space.js';
import { buildPlatformPlan } from './plan-platform.js';
import { storageModelOfFacts } from '../rules/storage-facts.js';
import {
  defaultTargetFor,
  PLAN_TARGET_IDS,
  planSettingsOf,
  platformPlanOf,
  refuseForeignTarget,
  volumePlanOf,
} from '../targets/registry.js';
import { decideStrategy, strategySchema } from '../rules/strategy.js';
import { buildCommands, planCommandSchema, type CommandSettings, type PlanCommand } from './commands.js';
import { buildInPlaceCommands, inPlaceSectorSize } from './commands-in-place.js';
import { activeUseOf, diskUsageOf, IN_PLACE_ALTERNATIVE } from './disk-usage.js';
import { checkCommandInvariants } from './invariants.js';
import { checkPlanConsistency } from './consistency.js';
import { volumePlanKit } from './volume-kit.js';
import { FLAG_DEFINITIONS, isDevicePath } from '../rules/flag-definitions.js';
import { resolvePlanOptions, type PlanOptions } from '../rules/plan-options.js';

/** Stand-in device path in commands when the assessment names no disk. */
const PLACEHOLDER_DEVICE = '/dev/DEVICE';

/** The plan: health gate first, then recommendations, the settings they add up to, predictions and commands. */
export const planSchema = z.object({
  targetTool: FLAG_DEFINITIONS.target.schema,
  threatModel: FLAG_DEFINITIONS.threatModel.schema,
  workload: FLAG_DEFINITIONS.workload.schema,
  /** The device path used in the commands; `devicePlaceholder` says when it is a stand-in. */
  devicePath: z.string(),
  devicePlaceholder: z.boolean(),
  /**
   * The first decision: fresh format, in place, reinstall or nothing to do, with preconditions, drive writes and
   * time (plan 1.1; always present in plans made since).
   */
  strategy: strategySchema.optional(),
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
    luks2Pbkdf: luks2PbkdfSchema.nullable(),
    veracrypt: veracryptPlanSettingsSchema.nullable(),
    space: spacePlanSchema.nullable(),
  }),
  predictedPerformance: z.array(predictedPerformanceSchema),
  /**
   * Which evidence the predictions' cipher speed rests on, ranked (plan 1.2, issue 24): 1 a measured
   * encrypted run of the backend, 2 the kernel crypto API, 3 the kernel cipher through fscrypt, 4 OpenSSL
   * (an upper bound, only with an accelerated kernel driver). Absent in older plans.
   */
  cipherEvidence: cipherEvidenceSchema.optional(),
  attackerCost: z.array(attackerCostSchema),
  commands: z.array(planCommandSchema),
  /**
   * Why `--destructive` is refused for this disk (plan 1.1): something on it is in use and the plan has no
   * data-destroying step it may take safely. Null when --destructive may be given.
   */
  destructiveRefusal: z
    .object({
      reason: z.string(),
      inUse: z.array(z.object({ path: z.string(), kind: z.string(), detail: z.string() })),
      alternative: z.string(),
    })
    .nullable()
    .optional(),
});
/** See {@link planSchema}. */
export type Plan = z.infer<typeof planSchema>;

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;

/**
 * Builds the plan from the assessment's facts (whole or partial; use-cases/plan-from-assessment.ts validates a
 * document into them): pure, deterministic, executes nothing. Throws INVALID_ARGUMENT when the options do not
 * match their schema, or when the disk's path is not a plain /dev path.
 */
export function buildPlan(facts: PlanFacts, rawOptions: PlanOptions = {}): Plan {
  const resolvedOptions = resolvePlanOptions(rawOptions);
  // A document without provenance is planned for Linux, the platform of every assessment before schema 1.2.
  const platform = osOf(facts) ?? 'linux';
  const targetTool = resolvedOptions.targetTool ?? defaultTargetFor(platform);
  refuseForeignTarget(platform, targetTool);
  const options = { ...resolvedOptions, targetTool };
  // A target with its own plan on this platform (targets/<id>/plan.ts: BitLocker, APFS, VeraCrypt on macOS and
  // Windows) plans from the assessment's storage model, which is all it reads. Facts without one (the validation
  // set's published measurements) go through the general model below, which predicts from measured speeds on
  // any platform.
  const hook = platformPlanOf(targetTool, platform);
  const storage = hook === null ? null : storageModelOfFacts(facts);
  if (hook !== null && storage !== null) {
    return checkPlanConsistency(buildPlatformPlan(facts, storage, options, hook));
  }
  const diskPath = facts.disk?.path;
  if (diskPath !== undefined && !isDevicePath(diskPath)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The device path ${JSON.stringify(diskPath)} is not a plain /dev path.`,
      {
        hint: 'Use the absolute path of the block device, e.g. /dev/nvme0n1.',
      },
    );
  }
  const devicePath = diskPath ?? PLACEHOLDER_DEVICE;
  // The volume plan writes Linux commands where the assessed machine runs Linux; elsewhere it is the model only
  // (see above). The target's own Linux rules (GRUB, the kernel's AES driver, dm-crypt's tunables) are its part's.
  const linuxHost = plansForLinux(facts);

  const health = evaluateHealthGate(facts);
  const admission = checkTargetAdmission(facts, targetTool);
  const writeCost = estimateInPlaceWriteCost(facts);
  const driver = checkKernelAesDriver(facts);
  const mode = recommendCipherMode(facts, options);
  const keySize = recommendKeySize(facts, options, mode.choice);
  const choice = keySize.choice;
  const sector = recommendSectorSize(facts, options, choice);
  const workqueue = recommendWorkqueueBypass(facts, options);
  const discards = recommendDiscards(facts, options);
  const space = recommendSpace(facts, options, discards.allowDiscards);

  const rulesOf = planSettingsOf(targetTool);
  // The target's own part (targets/<id>/plan.ts): its key derivation, the cipher it picks, its findings on Linux.
  const part = volumePlanOf(targetTool)(volumePlanKit(facts, options, devicePath));
  let luks2Pbkdf = part.luks2Pbkdf;
  const veracryptSettings = part.veracrypt;
  const veracrypt = veracryptSettings === null ? null : veracryptPlanSettings(veracryptSettings);
  const modelSpeed = part.ownCipher === null ? choice.speed : part.ownCipher.speed;
  let attackerCost = [...part.attackerCost];

  // A measured dm-crypt run far below the model moves the settings its evidence points to (residual-advice);
  // the moved decisions and findings replace the rules' own, rule id for rule id.
  const moved = moveAdviceByResiduals(
    facts,
    options,
    {
      workqueueBypass: workqueue.bypass,
      sectorSizeBytes: sector.sectorSizeBytes,
      cipherSpec: choice.spec,
      keyBits: choice.keyBits,
      speed: modelSpeed,
    },
    driver.findings,
  );
  const advised = moved.settings;
  // A target that picks its own cipher (VeraCrypt's algorithm): the dm-crypt cipher rules do not apply to it.
  const cipherRules = part.ownCipher === null ? [mode, keySize] : [];
  const merged = mergeRuleResults(
    health,
    admission,
    writeCost,
    driver,
    ...cipherRules,
    sector,
    workqueue,
    discards,
    part.kdf,
    space,
  );
  const replaced = <T extends { readonly ruleId: string }>(items: readonly T[], by: readonly T[]): T[] =>
    items.map((item) => by.find((candidate) => candidate.ruleId === item.ruleId) ?? item);
  const all = {
    recommendations: replaced(merged.recommendations, moved.recommendations),
    findings: replaced(merged.findings, moved.findings),
  };
  // A target's own sector size when the plan makes no choice (VeraCrypt 512, APFS 4096: targets/*).
  const sectorOf = (planned: number | null) => planned ?? rulesOf.defaultSectorBytes;
  const engine = rulesOf.engine;
  const effectiveSector = sectorOf(advised.sectorSizeBytes);
  const predictedPerformance = predictPerformance(facts, {
    speed: advised.speed,
    sectorSizeBytes: effectiveSector,
    workqueueBypass: advised.workqueueBypass,
    engine,
  });
  // The residual finding compares the measurement with the settings the rules chose before it moved any.
  const unmoved = moved.recommendations.length === 0;
  const residuals = findPerformanceResiduals(
    unmoved
      ? predictedPerformance
      : predictPerformance(facts, {
          speed: modelSpeed,
          sectorSizeBytes: sectorOf(sector.sectorSizeBytes),
          workqueueBypass: workqueue.bypass,
          engine,
        }),
    {
      workqueueBypass: workqueue.bypass,
      sectorSizeBytes: sectorOf(sector.sectorSizeBytes),
      keyBits: part.residualKeySize ? choice.keyBits : null,
      kernelAesGeneric: facts.kernelCrypto?.xtsAesImplementation === 'generic',
      kernelAtLeast59: isKernelAtLeast(facts.machine?.os?.kernel ?? null, 5, 9),
    },
  );
  const baseCommandSettings: CommandSettings = {
    targetTool,
    devicePath,
    devicePlaceholder: diskPath === undefined,
    cipherSpec: choice.spec,
    keyBits: advised.keyBits,
    sectorSizeBytes: advised.sectorSizeBytes,
    luks2Pbkdf: luks2Pbkdf,
    workqueueBypass: advised.workqueueBypass,
    allowDiscards: discards.allowDiscards,
    space: space.space,
    veracrypt: veracryptSettings,
  };
  // GRUB opens only PBKDF2 keyslots (rules/grub-boot.ts): the target says whether GRUB must open this volume,
  // which can depend on the strategy (an encrypted root holding /boot); before it is known, only --encrypted-boot.
  const decision = decideStrategy(facts, options, health.gate, {
    targetTool,
    cipherSpec: choice.spec,
    keyBits: advised.keyBits,
    sectorSizeBytes: advised.sectorSizeBytes,
    luks2Pbkdf: part.grubKeyslot(null, advised.keyBits)?.pbkdf ?? luks2Pbkdf,
    allowDiscards: discards.allowDiscards,
    workqueueBypass: advised.workqueueBypass,
    cipherEncryptBytesPerSecond: advised.speed?.encryptBytesPerSecond ?? null,
  });
  const strategy = decision.strategy;
  // GRUB opens only PBKDF2 keyslots (rules/grub-boot.ts): where it must open this volume, the keyslot the plan
  // states and the command applies is PBKDF2, not argon2id.
  const grubKeyslot = part.grubKeyslot(strategy, advised.keyBits);
  if (grubKeyslot !== null) {
    luks2Pbkdf = grubKeyslot.pbkdf;
    attackerCost = [];
  }
  const commandSettings: CommandSettings = { ...baseCommandSettings, luks2Pbkdf };
  // In place, an unaligned filesystem gets 512-byte sectors (inPlaceSectorSize): the plan states what it applies.
  const sectorSetting =
    strategy.kind === 'in-place'
      ? inPlaceSectorSize(strategy, advised.sectorSizeBytes)
      : advised.sectorSizeBytes;
  const sectorMoved: Plan['recommendations'] =
    sectorSetting === advised.sectorSizeBytes
      ? []
      : [
          {
            ruleId: 'sector-size',
            value: sectorSetting,
            reason: `${strategy.target?.path ?? devicePath} is ${String(strategy.target?.sizeBytes)} bytes, not a multiple of ${String(advised.sectorSizeBytes)}: encrypted in place it keeps ${String(sectorSetting)}-byte sectors (cryptsetup: "Device size is not aligned to requested sector size").`,
            evidence: [],
            confidence: 'high',
          },
        ];
  // The strategy picks the command set: in place, the fresh path, or none (reinstall; nothing to do keeps only
  // the refresh of an open volume's flags).
  const built = buildCommands(facts, options, commandSettings);
  const freshPath = strategy.kind === 'fresh-format' || strategy.kind === 'undetermined';
  // Off Linux without the platform's own facts (see above) no command can be built safely: the model only.
  const chosen: PlanCommand[] =
    !linuxHost || strategy.kind === 'replace-first'
      ? []
      : strategy.kind === 'in-place'
        ? buildInPlaceCommands(strategy, facts, options, commandSettings)
        : strategy.kind === 'reinstall'
          ? []
          : strategy.kind === 'nothing-to-do'
            ? built.refreshesOpenVolume === true
              ? built.commands
              : []
            : built.commands;
  // Every command list of the fresh path passes the invariants no flag overrides; a list that breaks one is
  // withheld whole. The in-place set writes to the filesystem it encrypts by design, after unmounting it
  // (plan/commands-in-place.ts); its own preconditions are the strategy's.
  const violations =
    strategy.kind === 'in-place' ? [] : checkCommandInvariants(facts, commandSettings, chosen);
  // A target its admission check refuses (luks2-opal on a drive that is not OPAL 2) gets no command at all.
  const commands: PlanCommand[] = violations.length === 0 && admission.admitted ? chosen : [];
  const smallSector = findSmallSectorBound(predictedPerformance, effectiveSector, rulesOf.dmCryptParameters);
  const findings = [
    ...decision.findings,
    ...all.findings,
    ...residuals,
    ...findLoadTooLight(predictedPerformance),
    ...smallSector,
    ...part.predictionFindings(predictedPerformance),
    ...(freshPath ? built.findings : []),
    ...part.strategyFindings(strategy, advised.workqueueBypass),
  ];
  if (violations.length > 0) {
    findings.push({
      ruleId: 'commands-withheld',
      severity: 'critical',
      message: `encplan withheld every command of this plan because ${String(violations.length)} broke a safety invariant (a defect in encplan; please report it): ${violations.map((violation) => `${violation.commandId}: ${violation.message}`).join('; ')}.`,
      evidence: [],
    });
  }
  // The running root is encrypted from a live/rescue system (strategy.offline): never from the system it runs.
  const destructiveRefusal =
    strategy.kind === 'in-place' && strategy.offline
      ? {
          reason: `${strategy.target?.path ?? devicePath} holds the running root filesystem: it cannot be shrunk or encrypted while this system runs from it.`,
          inUse: diskUsageOf(facts).inUse.map((item) => ({
            path: item.path,
            kind: item.kind,
            detail: item.detail,
          })),
          alternative:
            'Boot a live/rescue system, run encplan assess there with --destructive, and follow the strategy steps (the crypttab and initramfs changes are made in a chroot of the installed system).',
        }
      : // The in-place set is the alternative itself: with something in use it stays commented out (unmount first,
        // then assess again), never enabled by --destructive on a disk in use.
        refusalFor(facts, strategy, targetTool, strategy.kind === 'in-place' ? [] : commands);
  const spare = spareAsApplied(space.space, commands, all.recommendations);
  const plan: Plan = {
    targetTool,
    threatModel: options.threatModel,
    workload: options.workload,
    devicePath,
    devicePlaceholder: diskPath === undefined,
    strategy,
    healthGate: health.gate,
    findings: findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
    recommendations: replaced(replaced([...decision.recommendations, ...all.recommendations], sectorMoved), [
      ...(grubKeyslot?.recommendations ?? []),
      ...spare.recommendations,
    ]),
    settings: {
      cipher: part.ownCipher === null ? choice.spec : part.ownCipher.name,
      keySizeBits: rulesOf.plansKeySize ? advised.keyBits : null,
      sectorSizeBytes: sectorSetting,
      workqueueBypass: advised.workqueueBypass,
      allowDiscards: discards.allowDiscards,
      luks2Pbkdf,
      veracrypt,
      space: spare.space,
    },
    predictedPerformance,
    cipherEvidence: describeCipherEvidence(
      advised.speed,
      predictedPerformance,
      opensslRefusal(facts, advised.speed?.cipher ?? 'aes-xts'),
    ),
    attackerCost,
    commands,
    destructiveRefusal,
  };
  // One check of every plan before it is shown: verdict, strategy, settings and commands agree.
  return checkPlanConsistency(plan);
}

/**
 * The spare area as the commands make it: a tail discard range only where a command discards it. Where none
 * does (in place, the partition table stays as it is; an existing volume; no commands), the range is null and
 * the spare-area method says that no command of this plan discards the tail, and how to do it once.
 */
function spareAsApplied(
  space: Plan['settings']['space'],
  commands: readonly PlanCommand[],
  recommendations: readonly Plan['recommendations'][number][],
): { readonly space: Plan['settings']['space']; readonly recommendations: Plan['recommendations'] } {
  if (space === null || space.discardRange === null || commands.some((c) => c.id === 'blkdiscard-tail')) {
    return { space, recommendations: [] };
  }
  const method = recommendations.find((entry) => entry.ruleId === 'spare-area-method');
  return {
    space: { ...space, discardRange: null },
    recommendations:
      method === undefined
        ? []
        : [
            {
              ...method,
              reason: `${method.reason} No command of this plan discards it: ${commands.length === 0 ? 'the plan has no commands' : 'they keep the partition table as it is'}. Never-allocated space counts as spare only if never written or discarded once: discard it yourself (blkdiscard --offset and --length of that space) while nothing on the disk is in use.`,
            },
          ],
  };
}

/** The target that encrypts a filesystem in place (cryptsetup reencrypt --encrypt), for the refusal's hint. */
const IN_PLACE_TARGET = PLAN_TARGET_IDS.find((id) => planSettingsOf(id).inPlaceEncryption) ?? null;

/**
 * Why `--destructive` must be refused: something on the disk is in use, and the plan has no data-destroying
 * step confined to never-allocated space that the flag could enable. Null otherwise.
 */
function refusalFor(
  facts: PlanFacts,
  strategy: NonNullable<Plan['strategy']>,
  targetTool: Plan['targetTool'],
  commands: readonly PlanCommand[],
): Plan['destructiveRefusal'] {
  const usage = diskUsageOf(facts);
  const active = activeUseOf(usage);
  // Data at rest (a whole-disk signature) still allows steps confined to never-allocated space; a disk in use
  // allows no write at all (issue 25 item 5), whatever the commands.
  if (
    usage.inUse.length === 0 ||
    (active.length === 0 && commands.some((command) => command.risk === 'destroys-data'))
  ) {
    return null;
  }
  const disk = facts.disk?.path ?? PLACEHOLDER_DEVICE;
  const mounts = [...new Set(active.flatMap((item) => /on (\/\S*)$/.exec(item.detail)?.[1] ?? []))];
  // The way that works, never the strategy already chosen: the in-place steps (and a reinstall) need the disk
  // out of use; the fresh path on a disk holding data is replaced by encrypting it in place.
  const stopUsing = `Stop using ${disk} first (${mounts.length > 0 ? `umount ${mounts.join(' ')}; ` : ''}swapoff and close whatever holds it), or boot a live/rescue system, then run encplan assess again with --destructive`;
  return {
    reason:
      active.length > 0
        ? `encplan never writes to a disk in use, not even its partition table or never-allocated space: ${active.map((item) => item.detail).join('; ')}.`
        : `encplan never writes to a disk that holds data: ${usage.inUse.map((item) => item.detail).join('; ')}. The only writes it allows on such a disk are a new partition and discards inside never-allocated space, and there is none to use.`,
    inUse: usage.inUse.map((item) => ({ path: item.path, kind: item.kind, detail: item.detail })),
    alternative:
      strategy.kind === 'in-place'
        ? `${stopUsing}: the in-place steps then run as planned.`
        : strategy.kind === 'reinstall'
          ? `${stopUsing}, or reinstall from the installer onto an encrypted disk.`
          : planSettingsOf(targetTool).inPlaceEncryption || IN_PLACE_TARGET === null
            ? IN_PLACE_ALTERNATIVE
            : `${IN_PLACE_ALTERNATIVE} Plan it with --target ${IN_PLACE_TARGET}.`,
  };
}

/**
 * Throws DESTRUCTIVE_OPERATION_REFUSED (exit 4) when the user gave --destructive for a disk the plan must not
 * write to: the reason names what is in use, the hint the in-place alternative. No flag overrides it.
 */
export function assertDestructiveAllowed(plan: Pick<Plan, 'destructiveRefusal' | 'devicePath'>): void {
  const refusal = plan.destructiveRefusal ?? null;
  if (refusal !== null) {
    throw new EncplanError(
      'DESTRUCTIVE_OPERATION_REFUSED',
      `--destructive refused for ${plan.devicePath}: ${refusal.reason}`,
      { hint: refusal.alternative, details: { inUse: refusal.inUse } },
    );
  }
}
