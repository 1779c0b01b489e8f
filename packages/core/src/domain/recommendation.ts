import { z } from 'zod';
import { factSourceSchema, sourceOf, type FactSource } from './source.js';

/** A scalar a fact or a recommendation can carry. */
export const scalarSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Scalar = z.infer<typeof scalarSchema>;

/** One fact a rule used, with its value and where it came from. */
const evidenceSchema = z.object({
  /** A short name of the fact, e.g. "cpu.hasAes" or "aes-xts 512b encrypt (one core)". */
  fact: z.string(),
  value: scalarSchema,
  source: factSourceSchema,
});
/** A validated {@link evidenceSchema} value. */
export type Evidence = z.infer<typeof evidenceSchema>;

/** How sure a rule is: high = measured on this machine; medium = inferred; low = defaults or guesses. */
const confidenceSchema = z.enum(['high', 'medium', 'low']);

/** What a rule recommends: a stable rule id, the value, one sentence why, the facts used. */
export const recommendationSchema = z.object({
  /** Stable kebab-case id (docs/json-contract.md); never renamed. */
  ruleId: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  /** The recommended value: a scalar, or a flat record for multi-part settings (KDF parameters, space). */
  value: z.union([scalarSchema, z.record(z.string(), scalarSchema)]),
  reason: z.string(),
  evidence: z.array(evidenceSchema),
  confidence: confidenceSchema,
});
/** A validated {@link recommendationSchema} value. */
export type Recommendation = z.infer<typeof recommendationSchema>;

/** Severity of a finding: critical findings come before any advice (the health gate). */
const planFindingSeveritySchema = z.enum(['info', 'warning', 'critical']);

/** Something the user should fix or know before following the plan. */
export const findingSchema = z.object({
  ruleId: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  severity: planFindingSeveritySchema,
  message: z.string(),
  evidence: z.array(evidenceSchema),
});
export type Finding = z.infer<typeof findingSchema>;

/** Builds one {@link Evidence} item. */
export function evidence(fact: string, value: Scalar, source: FactSource): Evidence {
  return { fact, value, source };
}

/** The media kind as evidence (sysfs queue/rotational): `hdd`, `ssd`, or null when unknown. */
export function mediaKindEvidence(rotational: boolean | null): Evidence {
  return evidence(
    'media.kind',
    rotational === null ? null : rotational ? 'hdd' : 'ssd',
    sourceOf('/sys/block/*/queue/rotational'),
  );
}
