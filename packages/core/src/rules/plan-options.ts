import { z } from 'zod';
import { EncplanError } from '../errors.js';
import { FLAG_DEFINITIONS as FLAGS } from './flag-definitions.js';

/**
 * The encryption target the plan is for: the registry's plan targets (targets/registry.ts), one flag definition.
 * Its schema, like every definition's, is read where a schema is built (never at import: that built it in every
 * run, issue 28).
 */
export type TargetTool = (typeof FLAGS.target.values)[number];

/**
 * Password entropies the attacker-cost table is computed for, in bits: 8 and 10 random [a-z0-9] characters
 * and a 5-word Diceware passphrase, the columns of VeraCrypt PIM formula with dosoos/hashcat_speeds rates (36^8, 36^10, 7776^5).
 */
export const DEFAULT_ENTROPY_BITS = [8 * Math.log2(36), 10 * Math.log2(36), 5 * Math.log2(7776)] as const;

/**
 * The value of each option not given: what {@link planOptionsSchema}'s defaults are and {@link resolvePlanOptions}
 * applies without it. unlockTimeMs: cryptsetup's LUKS2 default unlock target, 2000 ms (cryptsetup
 * meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc, FAQ 3.4).
 */
const DEFAULTS = {
  targetTool: null,
  threatModel: 'lost-device',
  workload: 'desktop',
  unlockTimeMs: 2000,
  passwordLength: null,
  speedOverSecurity: false,
  encryptedBoot: false,
  targetSpare: null,
  targetSpareBase: 'user',
  mappingName: 'cryptdata',
  label: 'encplan',
} as const;

/** Options of {@link buildPlan}; every field has a default. */
export const planOptionsSchema = z.object({
  /** Defaults by OS: each platform's own full-disk encryption (targets/*: defaultOn). */
  targetTool: FLAGS.target.schema.nullable().default(DEFAULTS.targetTool),
  /**
   * Who the user defends against. `lost-device`: a thief images the disk once. `targeted`: an attacker may
   * image it repeatedly or study usage patterns. `deniability`: hidden volumes must stay deniable.
   */
  threatModel: FLAGS.threatModel.schema.default(DEFAULTS.threatModel),
  /** How hard the volume will be written; drives the spare-area rule. */
  workload: FLAGS.workload.schema.default(DEFAULTS.workload),
  /** The weakest machine that must unlock the volume; null fields default to this machine's facts. */
  unlockMachine: z
    .object({
      memoryBytes: FLAGS.unlockMemory.schema.nullable(),
      cores: FLAGS.unlockCores.schema.nullable(),
    })
    .default({ memoryBytes: null, cores: null }),
  unlockTimeMs: FLAGS.unlockTime.schema.default(DEFAULTS.unlockTimeMs),
  /** Length of the passphrase in characters; null = unknown, treated as shorter than 20. */
  passwordLength: FLAGS.passwordLength.schema.nullable().default(DEFAULTS.passwordLength),
  entropyBits: z
    .array(FLAGS.entropyBits.schema)
    .nonempty()
    .default([...DEFAULT_ENTROPY_BITS]),
  /** Accept AES-128-XTS and no cascades when the cipher, not the device, limits throughput. */
  speedOverSecurity: z.boolean().default(DEFAULTS.speedOverSecurity),
  /**
   * /boot lives on the volume to encrypt and GRUB unlocks it (GRUB_ENABLE_CRYPTODISK): GRUB opens LUKS2 only
   * with a PBKDF2 keyslot (rules/grub-boot.ts). False: encplan detects it from the layout where it can.
   */
  encryptedBoot: z.boolean().default(DEFAULTS.encryptedBoot),
  /**
   * A fixed spare area the user asks for, in per cent of a stated base: `user` = the capacity the host sees
   * (disk size), `raw` = the raw flash (disk size + factory spare, known only when the drive reports it).
   * Null: the plan computes the spare area from wear, TRIM and workload.
   */
  targetSpare: z
    .object({
      percent: FLAGS.targetSparePercent.schema,
      base: FLAGS.targetSpareBase.schema.default(DEFAULTS.targetSpareBase),
    })
    .nullable()
    .default(DEFAULTS.targetSpare),
  /** dm-crypt mapping name used in commands and crypttab. */
  mappingName: FLAGS.mappingName.schema.default(DEFAULTS.mappingName),
  /** LUKS2 / volume label. */
  label: FLAGS.label.schema.default(DEFAULTS.label),
});
/** Options as callers pass them (all optional). */
export type PlanOptions = z.input<typeof planOptionsSchema>;
/** Options after defaults are applied. */
export type ResolvedPlanOptions = z.output<typeof planOptionsSchema>;

/**
 * Validates plan options against their one definition (rules/flag-definitions.ts) and applies the defaults.
 * Throws INVALID_ARGUMENT naming each option that is wrong and its accepted form: `assess` calls it before it
 * reads a disk, `plan` before it plans, so both refuse the same values the same way (exit 2).
 *
 * Valid options are resolved without zod ({@link resolvedWithoutZod}: the definitions' own checks, the same
 * defaults), so that a run given valid options builds no schema (issue 28: building the 85 zod instances of the
 * plan options and flag definitions was most of `resolvePlanOptions`' 7.8 ms in a CPU profile of a one-disk
 * `assess`, docs/performance.md); anything else goes through the schema, which words the refusal.
 */
export function resolvePlanOptions(rawOptions: PlanOptions): ResolvedPlanOptions {
  const resolved = resolvedWithoutZod(rawOptions);
  if (resolved !== null) {
    return resolved;
  }
  const parsed = planOptionsSchema.safeParse(rawOptions);
  if (!parsed.success) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The plan options are not valid: ${z.prettifyError(parsed.error)}`,
      {
        hint: 'Each option accepts the form named after it (encplan plan --help lists them).',
      },
    );
  }
  return parsed.data;
}

/** Thrown inside {@link resolvedWithoutZod} at the first value it does not accept; never leaves it. */
class NotAccepted extends Error {}

/**
 * What {@link planOptionsSchema} gives for `raw`, built as zod builds it (a new object per level, the shape's
 * keys in its order, unknown keys left out, arrays copied), or null when one value is not one it accepts.
 */
function resolvedWithoutZod(raw: unknown): ResolvedPlanOptions | null {
  const object = (value: unknown): Record<string, unknown> => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new NotAccepted();
    }
    return value as Record<string, unknown>;
  };
  const valid = <T>(definition: { accepts: (value: unknown) => value is T }, value: unknown): T => {
    if (!definition.accepts(value)) {
      throw new NotAccepted();
    }
    return value;
  };
  const nullable = <T>(definition: { accepts: (value: unknown) => value is T }, value: unknown) =>
    value === null ? null : valid(definition, value);
  const boolean = { accepts: (value: unknown): value is boolean => typeof value === 'boolean' };
  try {
    const options = object(raw);
    const given = <K extends keyof typeof DEFAULTS, T>(
      key: K,
      read: (value: unknown) => T,
    ): T | (typeof DEFAULTS)[K] => (options[key] === undefined ? DEFAULTS[key] : read(options[key]));
    const machine = options.unlockMachine === undefined ? null : object(options.unlockMachine);
    return {
      targetTool: given('targetTool', (value) => nullable(FLAGS.target, value)),
      threatModel: given('threatModel', (value) => valid(FLAGS.threatModel, value)),
      workload: given('workload', (value) => valid(FLAGS.workload, value)),
      unlockMachine: {
        memoryBytes: machine === null ? null : nullable(FLAGS.unlockMemory, machine.memoryBytes),
        cores: machine === null ? null : nullable(FLAGS.unlockCores, machine.cores),
      },
      unlockTimeMs: given('unlockTimeMs', (value) => valid(FLAGS.unlockTime, value)),
      passwordLength: given('passwordLength', (value) => nullable(FLAGS.passwordLength, value)),
      entropyBits:
        options.entropyBits === undefined
          ? [...DEFAULT_ENTROPY_BITS]
          : nonEmptyArray(options.entropyBits, (bits) => valid(FLAGS.entropyBits, bits)),
      speedOverSecurity: given('speedOverSecurity', (value) => valid(boolean, value)),
      encryptedBoot: given('encryptedBoot', (value) => valid(boolean, value)),
      targetSpare: given('targetSpare', (value) => {
        if (value === null) {
          return null;
        }
        const spare = object(value);
        return {
          percent: valid(FLAGS.targetSparePercent, spare.percent),
          base:
            spare.base === undefined ? DEFAULTS.targetSpareBase : valid(FLAGS.targetSpareBase, spare.base),
        };
      }),
      mappingName: given('mappingName', (value) => valid(FLAGS.mappingName, value)),
      label: given('label', (value) => valid(FLAGS.label, value)),
    };
  } catch (error) {
    if (error instanceof NotAccepted) {
      return null;
    }
    throw error;
  }
}

/** A copy of a non-empty array with each element read by `read`, index by index as zod reads it (a hole too). */
function nonEmptyArray<T>(value: unknown, read: (element: unknown) => T): [T, ...T[]] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new NotAccepted();
  }
  const copy: T[] = [];
  for (let index = 0; index < value.length; index += 1) {
    copy.push(read(value[index]));
  }
  return copy as [T, ...T[]];
}
