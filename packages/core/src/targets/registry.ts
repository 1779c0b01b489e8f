import { EncplanError, InvariantError } from '../errors.js';
import type { Resource } from '../domain/cleanup.js';
import type { BackendId } from '../domain/io-benchmark.js';
import type { PlanCommand } from '../domain/plan-command.js';
import { apfsTarget } from './apfs/apfs.js';
import { bitlockerTarget } from './bitlocker/bitlocker.js';
import { fscryptTarget } from './fscrypt/fscrypt.js';
import { luks2OpalTarget } from './luks2-opal/luks2-opal.js';
import { luks2Target } from './luks2/luks2.js';
import type {
  AppliedSettings,
  DiskStep,
  EncryptionTarget,
  Luks2SegmentKind,
  PlanPlatform,
  PlatformPlanHook,
  TargetBenchmark,
  TargetCommands,
  TargetSettingsRules,
  VolumePlanHook,
} from './target.js';
import { SHARED_TEARDOWNS, type ResourceTeardown } from './teardown-steps.js';
import { veracryptTarget } from './veracrypt/veracrypt.js';

export {
  DM_CRYPT_ENGINE,
  type ActivationSwitch,
  type AppliedOption,
  type AppliedSettings,
  type DiskStep,
  type TargetEngine,
} from './target.js';

/**
 * Every encryption target encplan knows, one folder each. The order is the order of `--target` and `--backend`
 * choices and of the JSON enums generated from them (new targets go at the end, so the enums only grow).
 */
const TARGETS = [
  fscryptTarget,
  luks2Target,
  veracryptTarget,
  apfsTarget,
  bitlockerTarget,
  luks2OpalTarget,
] as const;

type AnyTarget = (typeof TARGETS)[number];
/** The id of a registered target. */
export type TargetId = AnyTarget['id'];
/** The targets `--target` may name (a plan is made for one of them). */
export type PlanTargetId = Extract<AnyTarget, { readonly planOption: true }>['id'];

function isPlanTarget(target: AnyTarget): target is Extract<AnyTarget, { readonly planOption: true }> {
  return target.planOption;
}

/** The `--target` choices, in registry order: the values of the plan option `targetTool`. */
export const PLAN_TARGET_IDS = TARGETS.filter(isPlanTarget).map((target) => target.id) as [
  PlanTargetId,
  ...PlanTargetId[],
];

/** Every registered target (read-only), for views that list them. */
export const ENCRYPTION_TARGETS: readonly EncryptionTarget[] = TARGETS;

/** The target with this id. */
export function targetOf(id: TargetId): EncryptionTarget {
  const target = TARGETS.find((candidate) => candidate.id === id);
  if (target === undefined) {
    throw new InvariantError(`No encryption target "${id}" is registered.`);
  }
  return target;
}

/** The settings rules of a plan target (every plan target has them); null for no target (a rule's default). */
export function planSettingsOf(id: PlanTargetId): TargetSettingsRules;
export function planSettingsOf(id: PlanTargetId | null): TargetSettingsRules | null;
export function planSettingsOf(id: PlanTargetId | null): TargetSettingsRules | null {
  if (id === null) {
    return null;
  }
  const settings = targetOf(id).settings;
  if (settings === null) {
    throw new InvariantError(`The plan target "${id}" has no settings rules.`);
  }
  return settings;
}

/** How the plan's commands make a volume of a plan target (every plan target has them). */
export function planCommandsOf(id: PlanTargetId): TargetCommands {
  const commands = targetOf(id).commands;
  if (commands === null) {
    throw new InvariantError(`The plan target "${id}" has no commands.`);
  }
  return commands;
}

/**
 * The hook with which a plan target plans itself on `platform` from the storage model (targets/<id>/plan.ts), or
 * null: the volume plan (plan/plan.ts) applies.
 */
export function platformPlanOf(id: PlanTargetId, platform: PlanPlatform): PlatformPlanHook | null {
  return targetOf(id).platformPlans?.[platform] ?? null;
}

/** What the targets read in a command (TargetCommands.read): its step on the disk and the settings it applies. */
export interface ReadCommand {
  /** The first target's that gives one; null: no target's step (a shared step's tool, or no one's). */
  readonly step: DiskStep | null;
  /** The first target's that gives them; null: it applies none of the plan's settings. */
  readonly settings: AppliedSettings | null;
}

/**
 * A plan command as the targets read it back from its words, each target its own commands, in registry order.
 * Every target is asked, not only the plan's: the plan's checks (plan/consistency.ts, plan/invariants.ts) judge
 * a command by what it is, never by what the builder says it made.
 */
export function readCommand(command: PlanCommand): ReadCommand {
  const readings = ENCRYPTION_TARGETS.flatMap((target) => {
    const reading = target.commands?.read?.(command) ?? null;
    return reading === null ? [] : [reading];
  });
  return {
    step: readings.find((reading) => reading.step !== null)?.step ?? null,
    settings: readings.find((reading) => reading.settings !== null)?.settings ?? null,
  };
}

/** The volume plan of a target without one of its own. */
const NO_VOLUME_PLAN: VolumePlanHook = () => ({
  kdf: { recommendations: [], findings: [] },
  luks2Pbkdf: null,
  veracrypt: null,
  ownCipher: null,
  attackerCost: [],
  residualKeySize: false,
  grubKeyslot: () => null,
  predictionFindings: () => [],
  strategyFindings: () => [],
});

/**
 * A plan target's own part of the volume plan (targets/<id>/plan.ts); a target without one gets the cipher rules'
 * choice, no key derivation of encplan's and no findings of its own.
 */
export function volumePlanOf(id: PlanTargetId): VolumePlanHook {
  return targetOf(id).volumePlan ?? NO_VOLUME_PLAN;
}

/** The plan target on `platform` when none is asked for: the platform's own full-disk encryption. */
export function defaultTargetFor(platform: PlanPlatform): PlanTargetId {
  return (
    TARGETS.filter(isPlanTarget).find((target) => target.defaultOn.some((on) => on === platform))?.id ??
    'luks2'
  );
}

/** The plan targets that exist on `platform`, the default first. */
export function planTargetsOn(platform: PlanPlatform): PlanTargetId[] {
  const ids = TARGETS.filter(isPlanTarget)
    .filter((target) => target.platforms.some((on) => on === platform))
    .map((target) => target.id);
  const first = defaultTargetFor(platform);
  return [first, ...ids.filter((id) => id !== first)];
}

const PLATFORM_NAMES: Readonly<Record<PlanPlatform, string>> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
};

/**
 * Refuses a target that does not exist on the assessed platform (issue 10 item 3: commands in the platform's own
 * syntax, or none). INVALID_ARGUMENT, so the CLI exits with the usage code and renders nothing. A platform encplan
 * does not plan for ('other', null) refuses nothing here: assess refuses it on its own. Targets that are offered
 * only on request (luks2-opal) are not listed in the hint.
 */
export function refuseForeignTarget(platform: string | null, tool: PlanTargetId | null | undefined): void {
  if (
    tool === null ||
    tool === undefined ||
    !(platform === 'linux' || platform === 'darwin' || platform === 'win32')
  ) {
    return;
  }
  const target = targetOf(tool);
  if (target.platforms.some((on) => on === platform)) {
    return;
  }
  const offered = planTargetsOn(platform).filter((id) => targetOf(id).admit === undefined);
  throw new EncplanError(
    'INVALID_ARGUMENT',
    `--target ${tool} does not exist on ${PLATFORM_NAMES[platform]}: ${target.labels.home}, so there is no command to give for this machine.`,
    {
      hint: `On ${PLATFORM_NAMES[platform]}, plan for ${offered.map((name) => `--target ${name}`).join(' or ')}.`,
    },
  );
}

/** An existing volume recognised by its inventory format: the target it belongs to and whether it encrypts. */
export interface RecognisedVolume {
  readonly target: EncryptionTarget;
  readonly encrypted: boolean;
}

/** The target whose volume an inventory format names (encryption.found[].format, platformStorage.encryption[].format). */
export function recogniseVolume(format: string | null | undefined): RecognisedVolume | null {
  for (const target of TARGETS) {
    if (target.recognition.encryptedFormats.some((known) => known === format)) {
      return { target, encrypted: true };
    }
    if (target.recognition.unencryptedFormats.some((known) => known === format)) {
      return { target, encrypted: false };
    }
  }
  return null;
}

/** A LUKS2 header's OPAL part recognised by a target's `luks2Segments`: its target and the segment kind. */
export interface RecognisedLuks2Segment {
  readonly target: EncryptionTarget;
  /** Null when the header said OPAL (its "opal" requirement) but its data segment was not read. */
  readonly segment: Luks2SegmentKind | null;
}

/**
 * The target whose LUKS2 volumes carry this data segment type (encryption.found[].opal.segmentType; null: an OPAL
 * header whose segment was not read, the target that recognises OPAL segments at all), or null.
 */
export function recogniseLuks2Segment(type: string | null | undefined): RecognisedLuks2Segment | null {
  if (type === undefined) {
    return null;
  }
  const targets: readonly EncryptionTarget[] = TARGETS;
  for (const target of targets) {
    const kinds: readonly Luks2SegmentKind[] = target.recognition.luks2Segments ?? [];
    const segment = kinds.find((kind) => kind.type === type);
    if (segment !== undefined || (type === null && kinds.length > 0)) {
      return { target, segment: segment ?? null };
    }
  }
  return null;
}

/** A volume format of `target`'s kind that encrypts. */
export function isEncryptedVolumeOf(
  target: PlanTargetId | TargetId,
  format: string | null | undefined,
): boolean {
  const recognised = recogniseVolume(format);
  return recognised !== null && recognised.encrypted && recognised.target.id === target;
}

/** The target whose open volumes appear as this stack layer kind (dm-crypt, veracrypt), or null. */
export function targetOfLayer(kind: string | null | undefined): EncryptionTarget | null {
  return TARGETS.find((target) => target.recognition.layerKinds.some((known) => known === kind)) ?? null;
}

/** The target whose own tool names an open device-mapper volume `name` (veracryptN), or null. */
export function targetOfMapping(name: string): EncryptionTarget | null {
  return TARGETS.find((target) => target.recognition.mappingNames?.test(name) === true) ?? null;
}

/** The benchmark container of a backend id, or null for the plain run (no encryption). */
export function benchmarkOf(backend: BackendId): TargetBenchmark | null {
  for (const target of TARGETS) {
    if (target.benchmark !== null && target.benchmark.backendId === backend) {
      return target.benchmark;
    }
  }
  return null;
}

/** The benchmark backends `--backend` may name, in registry order (the plain baseline is added by the caller). */
export const SELECTABLE_BENCHMARK_IDS: readonly BackendId[] = TARGETS.flatMap((target) =>
  target.benchmark !== null && target.benchmark.selectable ? [target.benchmark.backendId] : [],
);

/** The selectable benchmark backends a platform's run makes containers for (the wizard's encrypted choices). */
export function benchmarkIdsOn(platform: PlanPlatform): BackendId[] {
  return TARGETS.flatMap((target) =>
    target.benchmark !== null &&
    target.benchmark.selectable &&
    target.benchmark.platforms.some((on) => on === platform)
      ? [target.benchmark.backendId]
      : [],
  );
}

/** Every registered benchmark container. */
export const BENCHMARKS: readonly TargetBenchmark[] = TARGETS.flatMap((target) =>
  target.benchmark === null ? [] : [target.benchmark],
);

/** Every teardown: the kinds every run shares, then each target's own (targets/<id>/cleanup.ts). */
const TEARDOWNS: readonly ResourceTeardown[] = [
  ...SHARED_TEARDOWNS,
  ...BENCHMARKS.flatMap((benchmark) => benchmark.cleanup),
];

/**
 * How a recorded resource of `kind` is torn down: by the shared steps or by the one target whose containers
 * register that kind. Cleanup (use-cases/benchmark/cleanup-registry.ts) dispatches every resource through it.
 */
export function teardownOfKind(kind: Resource['kind']): ResourceTeardown {
  const teardown = TEARDOWNS.find((candidate) => candidate.kind === kind);
  if (teardown === undefined) {
    throw new InvariantError(`No target tears down a "${kind}" resource.`);
  }
  return teardown;
}

/**
 * Whether the benchmark of `backend` encrypts files on the scratch filesystem (fscrypt), so its I/O, O_DIRECT
 * included, goes through the page cache (kernel Documentation/filesystems/fscrypt.rst, "Direct I/O support").
 */
export function benchmarksThroughPageCache(backend: string | null | undefined): boolean {
  return BENCHMARKS.some(
    (benchmark) => benchmark.backendId === backend && benchmark.container === 'fscrypt-directory',
  );
}

/** Whether volumes of this format keep LUKS keyslots (each with its PBKDF): a LUKS1 or LUKS2 header. */
export function hasLuksKeyslots(format: string | null | undefined): boolean {
  return recogniseVolume(format)?.target.settings?.keyDerivation === 'luks2-keyslot';
}
