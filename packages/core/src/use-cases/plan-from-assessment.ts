import { planTargetsOn, targetOf, type PlanTargetId } from '../targets/registry.js';
import type { PlanPlatform } from '../targets/target.js';
import { z } from 'zod';
import { assessmentDocument, assessmentResultSchema, type AssessmentResult } from '../contract/assessment.js';
import { EncplanError } from '../errors.js';
import { buildPlan, type Plan } from '../plan/plan.js';
import type { PlanOptions } from '../rules/plan-options.js';
import type { AssessedSections, PlanFacts } from '../rules/facts.js';

/** The assessment's fact sections: everything in `result` but the plan that is made from them. */
type AssessmentFacts = Omit<AssessmentResult, 'plan'>;

// Compile-time proof that the rules' typed slice is the contract's: an assessment result is an AssessedSections.
const sectionsMatchContract = (facts: AssessmentFacts): AssessedSections => facts;
void sectionsMatchContract;

/** `schema` with every object field optional at every depth, inside arrays and recursive (lazy) schemas too. */
function deepPartial(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [
        key,
        deepPartial(field).optional(),
      ]),
    );
    return z.object(shape);
  }
  if (schema instanceof z.ZodArray) {
    return z.array(deepPartial(schema.element as z.ZodType));
  }
  if (schema instanceof z.ZodNullable) {
    return deepPartial(schema.unwrap() as z.ZodType).nullable();
  }
  if (schema instanceof z.ZodOptional) {
    return deepPartial(schema.unwrap() as z.ZodType).optional();
  }
  if (schema instanceof z.ZodLazy) {
    // Evaluated level by level while parsing, so a recursive schema (the holder stack) becomes partial too.
    return z.lazy(() => deepPartial(schema.unwrap() as z.ZodType));
  }
  return schema;
}

let planFacts: z.ZodType | undefined;
/**
 * What `encplan plan --input` and `encplan assess` plan from: the `result` of an assessment, whole or with
 * sections and fields left out (left out = unknown). A `plan` already in the document is ignored. Built on
 * first use and kept: a command that plans nothing does not pay for the walk over the whole assessment schema.
 */
export function planFactsSchema(): z.ZodType {
  planFacts ??= deepPartial(assessmentResultSchema.omit({ plan: true }));
  return planFacts;
}

/** The envelope of `assess --json`, recognised by its `schema` name, with its result read as partial facts. */
const assessmentDocumentSchema = z.object({
  schema: z.literal(assessmentDocument.name),
  result: z.unknown(),
  error: z.object({ message: z.string() }).nullable().optional(),
});

/** The facts of an assessment document: the envelope `assess --json` emits, or its bare `result`. */
export function planFactsFromDocument(document: unknown): PlanFacts {
  const envelope = assessmentDocumentSchema.safeParse(document);
  const result = envelope.success ? envelope.data.result : document;
  if (envelope.success && (result === null || result === undefined)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The assessment holds no result: ${envelope.data.error?.message ?? 'unknown error'}.`,
      { hint: 'Plan from an assessment that succeeded (status "ok").' },
    );
  }
  const parsed = planFactsSchema().safeParse(result);
  if (!parsed.success) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The assessment is not valid: ${z.prettifyError(parsed.error)}`,
      {
        hint: 'Give the output of encplan assess --json (whole or with sections left out); see docs/plan-input.md.',
      },
    );
  }
  // The deep-partial schema's output is DeepPartial<AssessmentFacts>, and AssessmentFacts is an AssessedSections.
  return parsed.data as PlanFacts;
}

/**
 * The plan of an assessment document from outside (`encplan plan --input`, a saved assessment, the platform
 * assessments): validated as partial facts, then the rules' buildPlan. `encplan assess` calls buildPlan on the
 * facts it has just built (use-cases/assess.ts finishAssessment). Throws INVALID_ARGUMENT for a document that is
 * no assessment.
 */
export function planFromAssessment(document: unknown, options: PlanOptions = {}): Plan {
  return buildPlan(planFactsFromDocument(document), options);
}

/** A target a plan can be made for, with the name people know it by ("LUKS2 (cryptsetup)"). */
export interface PlanTargetChoice {
  readonly id: PlanTargetId;
  readonly label: string;
}

/**
 * The targets a plan for a machine of `platform` (os.platform of the assessment: linux, darwin, win32) can
 * name, the platform's default first: the wizard's choice of target, the same list `--target` accepts there.
 */
export function planTargetChoices(platform: string | null | undefined): PlanTargetChoice[] {
  const known: readonly PlanPlatform[] = ['linux', 'darwin', 'win32'];
  const on = known.find((entry) => entry === platform) ?? 'linux';
  return planTargetsOn(on).map((id) => {
    const { labels } = targetOf(id);
    // A name that quotes a tool's option ("cryptsetup --hw-opal") is for the terminal: the short name then.
    return { id, label: labels.withTool.includes('--') ? labels.short : labels.withTool };
  });
}
