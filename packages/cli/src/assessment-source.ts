import { readFile } from 'node:fs/promises';
import { assessBundle, EncplanError } from '@encplan/core';
import { createEnvironment, readBundleDirectory } from '@encplan/core/node';

/** Where `encplan plan` gets its assessment; everything after reading it is the same whatever the source. */
export type AssessmentSource =
  { readonly kind: 'file'; readonly file: string } | { readonly kind: 'bundle'; readonly directory: string };

async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `Cannot read the assessment ${JSON.stringify(file)} (${code ?? 'unknown error'}).`,
      {
        hint: 'Check the path; encplan only reads it.',
        cause,
      },
    );
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new EncplanError('INVALID_ARGUMENT', `The assessment ${JSON.stringify(file)} is not JSON.`, {
      cause,
    });
  }
}

/**
 * Reads the assessment document to plan from: a JSON file (the envelope `assess --json` emits, its bare
 * `result`, or either with sections left out), or a bundle assessed offline. planFromAssessment validates it.
 */
export async function readAssessmentDocument(source: AssessmentSource, signal: AbortSignal): Promise<unknown> {
  switch (source.kind) {
    case 'file':
      return readJsonFile(source.file);
    case 'bundle':
      return assessBundle(await readBundleDirectory(source.directory), createEnvironment().clock, { signal });
  }
}
