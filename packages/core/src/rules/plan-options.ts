import { z } from 'zod';
import { EncplanError } from '../errors.js';
import { FLAG_DEFINITIONS as FLAGS } from './flag-definitions.js';

/** The encryption target the plan is for: the registry's plan targets (targets/registry.ts), one flag definition. */
export const targetToolSchema = FLAGS.target.schema;
export type TargetTool = z.infer<typeof targetToolSchema>;

/**
 * Who the user defends against. `lost-device`: a thief images the disk once. `targeted`: an attacker may
 * image it repeatedly or study usage patterns. `deniability`: hidden volumes must stay deniable.
 */
export const threatModelSchema = FLAGS.threatModel.schema;

/** How hard the volume will be written; drives the spare-area rule. */
export const workloadSchema = FLAGS.workload.schema;

/**
 * Password entropies the attacker-cost table is computed for, in bits: 8 and 10 random [a-z0-9] characters
 * and a 5-word Diceware passphrase, the columns of VeraCrypt PIM formula with dosoos/hashcat_speeds rates (36^8, 36^10, 7776^5).
 */
export const DEFAULT_ENTROPY_BITS = [8 * Math.log2(36), 10 * Math.log2(36), 5 * Math.log2(7776)] as const;

/** cryptsetup's LUKS2 default unlock target, 2000 ms (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc, FAQ 3.4). */
const DEFAULT_UNLOCK_TIME_MS = 2000;

/** Options of {@link buildPlan}; every field has a default. */
export const planOptionsSchema = z.object({
  /** Defaults by OS: each platform's own full-disk encryption (targets/*: defaultOn). */
  targetTool: targetToolSchema.nullable().default(null),
  threatModel: threatModelSchema.default('lost-device'),
  workload: workloadSchema.default('desktop'),
  /** The weakest machine that must unlock the volume; null fields default to this machine's facts. */
  unlockMachine: z
    .object({
      memoryBytes: FLAGS.unlockMemory.schema.nullable(),
      cores: FLAGS.unlockCores.schema.nullable(),
    })
    .default({ memoryBytes: null, cores: null }),
  unlockTimeMs: FLAGS.unlockTime.schema.default(DEFAULT_UNLOCK_TIME_MS),
  /** Length of the passphrase in characters; null = unknown, treated as shorter than 20. */
  passwordLength: FLAGS.passwordLength.schema.nullable().default(null),
  entropyBits: z
    .array(FLAGS.entropyBits.schema)
    .nonempty()
    .default([...DEFAULT_ENTROPY_BITS]),
  /** Accept AES-128-XTS and no cascades when the cipher, not the device, limits throughput. */
  speedOverSecurity: z.boolean().default(false),
  /**
   * /boot lives on the volume to encrypt and GRUB unlocks it (GRUB_ENABLE_CRYPTODISK): GRUB opens LUKS2 only
   * with a PBKDF2 keyslot (rules/grub-boot.ts). False: encplan detects it from the layout where it can.
   */
  encryptedBoot: z.boolean().default(false),
  /**
   * A fixed spare area the user asks for, in per cent of a stated base: `user` = the capacity the host sees
   * (disk size), `raw` = the raw flash (disk size + factory spare, known only when the drive reports it).
   * Null: the plan computes the spare area from wear, TRIM and workload.
   */
  targetSpare: z
    .object({ percent: FLAGS.targetSparePercent.schema, base: FLAGS.targetSpareBase.schema.default('user') })
    .nullable()
    .default(null),
  /** dm-crypt mapping name used in commands and crypttab. */
  mappingName: FLAGS.mappingName.schema.default('cryptdata'),
  /** LUKS2 / volume label. */
  label: FLAGS.label.schema.default('encplan'),
});
/** Options as callers pass them (all optional). */
export type PlanOptions = z.input<typeof planOptionsSchema>;
/** Options after defaults are applied. */
export type ResolvedPlanOptions = z.output<typeof planOptionsSchema>;

/**
 * Validates plan options against their one definition (rules/flag-definitions.ts) and applies the defaults.
 * Throws INVALID_ARGUMENT naming each option that is wrong and its accepted form: `assess` calls it before it
 * reads a disk, `plan` before it plans, so both refuse the same values the same way (exit 2).
 */
export function resolvePlanOptions(rawOptions: PlanOptions): ResolvedPlanOptions {
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
