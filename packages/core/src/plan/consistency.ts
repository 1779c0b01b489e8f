import type { Finding, Recommendation } from '../domain/recommendation.js';
import type { HealthGate } from '../rules/health-gate.js';
import { ARGON2_MIN_ITERATIONS, type Luks2Pbkdf } from '../rules/key-derivation.js';
import type { SpacePlan } from '../rules/space.js';
import { replaceFirstStrategy, type Strategy } from '../rules/strategy.js';
import type { PlanCommand } from './commands.js';
import {
  planSettingsOf,
  readCommand,
  type AppliedOption,
  type AppliedSettings,
  type PlanTargetId,
} from '../targets/registry.js';

/**
 * The parts of a plan (plan.ts planSchema) this check reads and writes: declared here, not imported, so the
 * plan builder can call the check without an import cycle.
 */
interface Plan {
  readonly targetTool: PlanTargetId;
  readonly devicePath: string;
  readonly devicePlaceholder: boolean;
  readonly strategy?: Strategy | undefined;
  readonly healthGate: HealthGate;
  readonly findings: readonly Finding[];
  readonly recommendations: readonly Recommendation[];
  readonly settings: {
    readonly cipher: string;
    readonly keySizeBits: number | null;
    readonly sectorSizeBytes: number | null;
    readonly workqueueBypass: boolean;
    readonly allowDiscards: boolean;
    readonly luks2Pbkdf: Luks2Pbkdf | null;
    readonly veracrypt: { readonly pim: number; readonly hash: string } | null;
    readonly space: SpacePlan | null;
  };
  readonly commands: readonly PlanCommand[];
  readonly destructiveRefusal?:
    | {
        readonly reason: string;
        readonly inUse: readonly { path: string; kind: string; detail: string }[];
        readonly alternative: string;
      }
    | null
    | undefined;
}

/**
 * Which part of a plan disagrees with another (issue 24 item 5: verdict, strategy, findings, settings and
 * commands tell one story). The command-safety invariants are plan/invariants.ts; these are the plan's own.
 */
export type ConsistencyRule =
  | 'failing-drive-strategy'
  | 'failing-drive-commands'
  | 'strategy-without-failure'
  | 'recommendation-setting'
  | 'command-setting'
  | 'spare-method-commands'
  | 'trim-reach'
  | 'unlock-lower-bound';

/** One contradiction inside a plan, in words for the user (and for the developer who must fix encplan). */
export interface PlanContradiction {
  readonly rule: ConsistencyRule;
  readonly message: string;
}

const contradiction = (rule: ConsistencyRule, message: string): PlanContradiction => ({ rule, message });

/** The recommendation values the plan's settings must equal, rule id by rule id. */
function recommendationContradictions(plan: Plan): PlanContradiction[] {
  const { settings } = plan;
  const found: PlanContradiction[] = [];
  const expect = (ruleId: string, actual: unknown, stated: unknown, setting: string): void => {
    if (JSON.stringify(actual) !== JSON.stringify(stated)) {
      found.push(
        contradiction(
          'recommendation-setting',
          `the ${ruleId} recommendation says ${JSON.stringify(actual)}, the plan's ${setting} is ${JSON.stringify(stated)}`,
        ),
      );
    }
  };
  // dm-crypt targets (LUKS2) state their key size and discards in the settings their commands apply.
  const dmCrypt = planSettingsOf(plan.targetTool)?.engine.dmCryptQueues === true;
  for (const recommendation of plan.recommendations) {
    const { ruleId, value } = recommendation;
    if (ruleId === 'strategy') {
      expect(ruleId, value, plan.strategy?.kind ?? null, 'strategy');
    } else if (ruleId === 'cipher-key-size' && dmCrypt) {
      expect(ruleId, value, settings.keySizeBits, 'key size');
    } else if (ruleId === 'sector-size') {
      expect(ruleId, value, settings.sectorSizeBytes, 'sector size');
    } else if (ruleId === 'workqueue-bypass') {
      expect(ruleId, value, settings.workqueueBypass, 'workqueue bypass');
    } else if (ruleId === 'allow-discards' && dmCrypt) {
      expect(ruleId, value, settings.allowDiscards, 'discards');
    } else if (ruleId === 'luks2-pbkdf' && typeof value === 'object' && value !== null) {
      const pbkdf = settings.luks2Pbkdf;
      const stated = value as Readonly<Record<string, unknown>>;
      expect(
        ruleId,
        [stated.pbkdf, stated.memoryKiB, stated.parallel, stated.iterations],
        pbkdf === null ? null : [pbkdf.kdf ?? 'argon2id', pbkdf.memoryKiB, pbkdf.parallel, pbkdf.iterations],
        'key derivation, memory, lanes and iterations',
      );
    } else if (ruleId === 'veracrypt-pim') {
      expect(ruleId, value, settings.veracrypt?.pim ?? null, 'VeraCrypt PIM');
    } else if (ruleId === 'veracrypt-hash') {
      expect(ruleId, value, settings.veracrypt?.hash ?? null, 'VeraCrypt hash');
    } else if (ruleId === 'spare-area-method') {
      expect(ruleId, value, settings.space?.method ?? null, 'spare-area method');
    }
  }
  return found;
}

/** The volume settings a command applies (LUKS2: luksFormat, reencrypt --encrypt), against the plan's. */
function volumeContradictions(
  plan: Plan,
  command: PlanCommand,
  applied: Extract<AppliedSettings, { kind: 'volume' }>,
): PlanContradiction[] {
  const { settings } = plan;
  const found: PlanContradiction[] = [];
  const differs = ({ option, value }: AppliedOption, stated: string | null): void => {
    if (value !== stated) {
      found.push(
        contradiction(
          'command-setting',
          `${command.id} applies ${option} ${String(value)}, the plan states ${String(stated)}`,
        ),
      );
    }
  };
  differs(applied.cipher, settings.cipher);
  differs(applied.keySizeBits, settings.keySizeBits === null ? null : String(settings.keySizeBits));
  differs(
    applied.sectorSizeBytes,
    settings.sectorSizeBytes === null ? null : String(settings.sectorSizeBytes),
  );
  const pbkdf = settings.luks2Pbkdf;
  // The KDF itself: a PBKDF2 keyslot (GRUB, rules/grub-boot.ts) states no memory or lanes and passes none.
  const kdf = pbkdf === null ? null : (pbkdf.kdf ?? 'argon2id');
  differs(applied.kdf, kdf);
  const argon2 = pbkdf !== null && kdf === 'argon2id' ? pbkdf : null;
  differs(applied.kdfMemoryKiB, argon2 === null ? null : String(argon2.memoryKiB));
  differs(applied.kdfParallel, argon2 === null ? null : String(argon2.parallel));
  differs(
    applied.kdfIterations,
    pbkdf?.iterations === null || pbkdf === null ? null : String(pbkdf.iterations),
  );
  return found;
}

/** Activation flags (open, refresh, the line that opens it at boot) against the plan's discards and workqueues. */
function activationContradictions(
  plan: Plan,
  command: PlanCommand,
  applied: Extract<AppliedSettings, { kind: 'activation' }>,
): PlanContradiction[] {
  const { settings } = plan;
  const { discards, workqueueBypass: bypass } = applied;
  const found: PlanContradiction[] = [];
  if (discards !== settings.allowDiscards) {
    found.push(
      contradiction(
        'command-setting',
        `${command.id} ${discards ? 'passes' : 'does not pass'} discards, the plan says discards ${settings.allowDiscards ? 'on' : 'off'}`,
      ),
    );
  }
  // A refresh applies only flags that change (null); the others are checked on open and crypttab.
  if (bypass !== null && bypass !== settings.workqueueBypass) {
    found.push(
      contradiction(
        'command-setting',
        `${command.id} ${bypass ? 'bypasses' : 'keeps'} the workqueues, the plan says bypass ${settings.workqueueBypass ? 'on' : 'off'}`,
      ),
    );
  }
  return found;
}

/** A VeraCrypt volume's create line (Linux/macOS `veracrypt -c`, Windows `VeraCrypt Format.exe /create`). */
function pimAndHashContradictions(
  plan: Plan,
  command: PlanCommand,
  applied: Extract<AppliedSettings, { kind: 'pim-and-hash' }>,
): PlanContradiction[] {
  const planned = plan.settings.veracrypt;
  const { pim, hash } = applied;
  const found: PlanContradiction[] = [];
  if (planned === null) {
    return [
      contradiction('command-setting', `${command.id} creates a VeraCrypt volume the plan does not state`),
    ];
  }
  if (pim !== String(planned.pim)) {
    found.push(
      contradiction(
        'command-setting',
        `${command.id} applies PIM ${String(pim)}, the plan states PIM ${String(planned.pim)}`,
      ),
    );
  }
  if (hash !== planned.hash) {
    found.push(
      contradiction(
        'command-setting',
        `${command.id} applies hash ${String(hash)}, the plan states ${planned.hash}`,
      ),
    );
  }
  return found;
}

/**
 * Every command that applies a setting, against the setting the plan states: the targets read each command
 * back from its words (targets/registry.ts readCommand), so this check names no target's tool or command.
 */
function commandContradictions(plan: Plan): PlanContradiction[] {
  return plan.commands.flatMap((command) => {
    const applied = readCommand(command).settings;
    switch (applied?.kind) {
      case 'volume':
        return volumeContradictions(plan, command, applied);
      case 'activation':
        return activationContradictions(plan, command, applied);
      case 'pim-and-hash':
        return pimAndHashContradictions(plan, command, applied);
      case undefined:
        return [];
    }
  });
}

/** The spare-area method against the commands that make the spare: an HPA, a discarded tail. */
function spareContradictions(plan: Plan): PlanContradiction[] {
  const method = plan.settings.space?.method ?? null;
  const ids = new Set(plan.commands.map((command) => command.id));
  // A tail discard range is the range a command discards: stated without one, it claims spare area no command
  // makes (an in-place plan keeps the partition table and discards nothing).
  if ((plan.settings.space?.discardRange ?? null) !== null && !ids.has('blkdiscard-tail')) {
    return [
      contradiction(
        'spare-method-commands',
        'the plan states a tail discard range, but no command discards it',
      ),
    ];
  }
  // Only a plan that lays out the partition makes the spare; without that step nothing is claimed.
  if (!ids.has('partition-layout') || method === null) {
    return [];
  }
  const found: PlanContradiction[] = [];
  if ((method === 'hpa') !== ids.has('hpa-set')) {
    found.push(
      contradiction(
        'spare-method-commands',
        `the spare-area method is ${method}, but the commands ${ids.has('hpa-set') ? 'set' : 'set no'} Host Protected Area`,
      ),
    );
  }
  if (method === 'discarded-tail' && !ids.has('blkdiscard-tail')) {
    found.push(
      contradiction(
        'spare-method-commands',
        'the spare-area method is a discarded tail, but no command discards it',
      ),
    );
  }
  return found;
}

/**
 * Every contradiction inside a plan: a failing drive with any strategy but "back up and replace first" or with
 * any command; that strategy without a failing drive; a recommendation whose value is not the setting; a
 * command that applies another setting than the plan states; a spare-area method its commands do not make.
 * Pure; the empty list means the plan tells one story.
 */
function findPlanContradictions(plan: Plan): PlanContradiction[] {
  const failing = plan.healthGate.effectiveVerdict === 'failing';
  const found: PlanContradiction[] = [];
  if (failing && plan.strategy?.kind !== 'replace-first') {
    found.push(
      contradiction(
        'failing-drive-strategy',
        `the drive is failing, but the strategy is ${plan.strategy?.kind ?? 'missing'} instead of back up and replace first`,
      ),
    );
  }
  if (failing && (plan.commands.length > 0 || (plan.destructiveRefusal ?? null) === null)) {
    found.push(
      contradiction(
        'failing-drive-commands',
        `the drive is failing, but the plan ${plan.commands.length > 0 ? `gives ${String(plan.commands.length)} command(s) (${plan.commands.map((command) => command.id).join(', ')})` : 'does not refuse --destructive'}`,
      ),
    );
  }
  if (!failing && plan.strategy?.kind === 'replace-first') {
    found.push(
      contradiction(
        'strategy-without-failure',
        'the strategy is back up and replace first, but the drive is not failing',
      ),
    );
  }
  return [
    ...found,
    ...recommendationContradictions(plan),
    ...commandContradictions(plan),
    ...spareContradictions(plan),
    ...trimContradictions(plan),
    ...unlockBoundContradictions(plan),
  ];
}

/**
 * An unlock time that is only a lower bound (every argon2id benchmark run stopped at cryptsetup's minimum cost)
 * cannot size iterations: more than the minimum would rest on a speed that was never measured (issue 24).
 */
function unlockBoundContradictions(plan: Plan): PlanContradiction[] {
  const pbkdf = plan.settings.luks2Pbkdf;
  return pbkdf?.predictedUnlockLowerBound === true && pbkdf.iterations !== ARGON2_MIN_ITERATIONS
    ? [
        contradiction(
          'unlock-lower-bound',
          `the unlock time is only a lower bound (the argon2id benchmark stopped at its minimum cost), yet ${String(pbkdf.iterations)} iterations are sized from it instead of cryptsetup's minimum of ${String(ARGON2_MIN_ITERATIONS)}`,
        ),
      ]
    : [];
}

/**
 * Whether TRIM reaches the drive, told once: the boolean `trimReachesDrive` is the known yes of the tri-state
 * `trim` (unknown is never yes), and a yes needs the discards the plan passes.
 */
function trimContradictions(plan: Plan): PlanContradiction[] {
  const space = plan.settings.space;
  const trim = space?.trim;
  if (space === null || trim === undefined) {
    return [];
  }
  const reaches = trim.reachesDrive === null ? 'unknown' : trim.reachesDrive ? 'yes' : 'no';
  return [
    ...(space.trimReachesDrive === (trim.reachesDrive === true)
      ? []
      : [
          contradiction(
            'trim-reach',
            `TRIM is said to ${space.trimReachesDrive ? '' : 'not '}reach the drive, but whether it does is ${reaches}`,
          ),
        ]),
    ...(trim.reachesDrive === true && !plan.settings.allowDiscards
      ? [contradiction('trim-reach', 'TRIM is said to reach the drive, but the plan passes no discards')]
      : []),
  ];
}

/** What --destructive answers for a failing drive: refused, whatever else the plan says. */
function failingDriveRefusal(plan: Plan): NonNullable<Plan['destructiveRefusal']> {
  return {
    reason: `the drive is failing, and encplan writes nothing to it under any flag. ${plan.healthGate.reason}`,
    inUse: [],
    alternative:
      'Back up the data now, replace the drive, assess the new drive and encrypt that one; then restore the backup onto it.',
  };
}

/**
 * The one check every plan passes before it is shown (Linux and platform plans alike, called once by
 * buildPlan): a failing drive gets the strategy "back up and replace first", no command and a refused
 * --destructive; then any remaining contradiction withholds every command and says why, as a critical
 * finding (a defect in encplan, which the property tests keep from happening).
 */
export function checkPlanConsistency<P extends Plan>(plan: P): P {
  const failing = plan.healthGate.effectiveVerdict === 'failing';
  const strategy =
    !failing || plan.strategy?.kind === 'replace-first'
      ? plan.strategy
      : replaceFirstStrategy(plan.healthGate, plan.devicePlaceholder ? 'the drive' : plan.devicePath, null);
  const gated: P =
    failing && strategy !== undefined
      ? {
          ...plan,
          strategy,
          commands: [],
          destructiveRefusal: failingDriveRefusal(plan),
          recommendations: plan.recommendations.map((recommendation) =>
            recommendation.ruleId === 'strategy'
              ? { ...recommendation, value: strategy.kind, reason: strategy.reason }
              : recommendation,
          ),
        }
      : plan;
  const contradictions = findPlanContradictions(gated);
  if (contradictions.length === 0) {
    return gated;
  }
  const finding: Finding = {
    ruleId: 'plan-inconsistent',
    severity: 'critical',
    message: `encplan withheld every command of this plan because it contradicts itself (a defect in encplan; please report it): ${contradictions.map((item) => item.message).join('; ')}.`,
    evidence: [],
  };
  return { ...gated, commands: [], findings: [finding, ...gated.findings] };
}
