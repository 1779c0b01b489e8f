import type { z } from 'zod';
import { planSchema } from '../plan/plan.js';
import { envelopeSchema } from './envelope.js';

/** Schema name of `encplan plan --json` documents. */
export const PLAN_SCHEMA_NAME = 'encplan.plan';
/** [major, minor] of the plan document (docs/json-contract.md). */
export const PLAN_SCHEMA_VERSION = [1, 0] as const;

/** The versioned envelope around a {@link planSchema} result. */
export const planEnvelopeSchema = envelopeSchema(PLAN_SCHEMA_NAME, planSchema);
export type PlanEnvelope = z.infer<typeof planEnvelopeSchema>;
