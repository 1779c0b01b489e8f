import {
  assessBundle,
  assessmentEnvelopeSchema,
  EncplanError,
  planInputFromAssessment,
  type AssessmentEnvelope,
  type PlanInput,
} from '@encplan/core';
import { createEnvironment, MAX_BUNDLE_BYTES, readBundleDirectory, readUserFile } from '@encplan/core/node';

/** Where `encplan plan` gets its facts; everything after reading them is the same whatever the source. */
export type PlanInputSource =
  | { readonly kind: 'input'; readonly file: string }
  | { readonly kind: 'report'; readonly file: string }
  | { readonly kind: 'bundle'; readonly directory: string };

async function readJsonFile(file: string, what: string, signal: AbortSignal): Promise<unknown> {
  const text = await readUserFile(file, { what, maxBytes: MAX_BUNDLE_BYTES, signal, hint: 'Check the path; encplan only reads it.' });
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new EncplanError('INVALID_ARGUMENT', `The ${what} ${JSON.stringify(file)} is not JSON.`, { cause });
  }
}

function resultOf(envelope: AssessmentEnvelope, origin: string): PlanInput {
  if (envelope.result === null) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `${origin} holds no assessment result: ${envelope.error?.message ?? 'unknown error'}.`,
    );
  }
  return planInputFromAssessment(envelope.result);
}

/** Reads the PlanInput from a PlanInput file, a saved `assess --json` report, or a bundle (assessed offline). */
export async function readPlanInput(source: PlanInputSource, signal: AbortSignal): Promise<PlanInput> {
  switch (source.kind) {
    case 'input':
      // buildPlan validates the shape against planInputSchema.
      return (await readJsonFile(source.file, 'plan input', signal)) as PlanInput;
    case 'report': {
      const parsed = assessmentEnvelopeSchema.safeParse(await readJsonFile(source.file, 'report', signal));
      if (!parsed.success) {
        throw new EncplanError(
          'INVALID_ARGUMENT',
          `${JSON.stringify(source.file)} is not an \`encplan assess --json\` report.`,
          {
            hint: 'Save one with encplan assess --json > report.json.',
          },
        );
      }
      return resultOf(parsed.data, `The report ${JSON.stringify(source.file)}`);
    }
    case 'bundle': {
      const envelope = await assessBundle(
        await readBundleDirectory(source.directory, signal),
        createEnvironment().clock,
        { signal },
      );
      return resultOf(envelope, `The bundle ${JSON.stringify(source.directory)}`);
    }
  }
}
