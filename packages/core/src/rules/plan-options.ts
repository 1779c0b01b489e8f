import { z } from 'zod';
import { PLAN_TARGET_IDS } from '../targets/registry.js';

/** The encryption target the plan is for: the registry's plan targets (targets/registry.ts). */
export const targetToolSchema = z.enum(PLAN_TARGET_IDS);
export type TargetTool = z.infer<typeof targetToolSchema>;

/**
 * Who the user defends against. `lost-device`: a thief images the disk once. `targeted`: an attacker may
 * image it repeatedly or study usage patterns. `deniability`: hidden volumes must stay deniable.
 */
export const threatModelSchema = z.enum(['lost-device', 'targeted', 'deniability']);

/** How hard the volume will be written; drives the spare-area rule. */
export const workloadSchema = z.enum(['desktop', 'server', 'write-heavy']);

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
      memoryBytes: z.number().int().positive().nullable(),
      cores: z.number().int().positive().nullable(),
    })
    .default({ memoryBytes: null, cores: null }),
  unlockTimeMs: z.number().int().positive().default(DEFAULT_UNLOCK_TIME_MS),
  /** Length of the passphrase in characters; null = unknown, treated as shorter than 20. */
  passwordLength: z.number().int().positive().nullable().default(null),
  entropyBits: z
    .array(z.number().positive())
    .nonempty()
    .default([...DEFAULT_ENTROPY_BITS]),
  /** Accept AES-128-XTS and no cascades when the cipher, not the device, limits throughput. */
  speedOverSecurity: z.boolean().default(false),
  /**
   * A fixed spare area the user asks for, in per cent of a stated base: `user` = the capacity the host sees
   * (disk size), `raw` = the raw flash (disk size + factory spare, known only when the drive reports it).
   * Null: the plan computes the spare area from wear, TRIM and workload.
   */
  targetSpare: z
    .object({ percent: z.number().min(0).max(90), base: z.enum(['user', 'raw']).default('user') })
    .nullable()
    .default(null),
  /** dm-crypt mapping name used in commands and crypttab. */
  mappingName: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('cryptdata'),
  /** LUKS2 / volume label. */
  label: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('encplan'),
});
/** Options as callers pass them (all optional). */
export type PlanOptions = z.input<typeof planOptionsSchema>;
/** Options after defaults are applied. */
export type ResolvedPlanOptions = z.output<typeof planOptionsSchema>;
