import { readFile } from 'node:fs/promises';
import { EncplanError, type PlanInput } from '@encplan/core';

/**
 * Where `encplan plan` gets its PlanInput. Today: a JSON file (--input). The lead adds --bundle and --report
 * here; everything after this step is the same whatever the source.
 */
export async function readPlanInputFile(file: string): Promise<PlanInput> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `Cannot read the plan input ${JSON.stringify(file)} (${code ?? 'unknown error'}).`,
      {
        hint: 'Pass a PlanInput JSON file, e.g. one of fixtures/plan-inputs/*.json.',
        cause,
      },
    );
  }
  try {
    // buildPlan validates the shape against planInputSchema.
    return JSON.parse(text) as PlanInput;
  } catch (cause) {
    throw new EncplanError('INVALID_ARGUMENT', `The plan input ${JSON.stringify(file)} is not JSON.`, {
      cause,
    });
  }
}
