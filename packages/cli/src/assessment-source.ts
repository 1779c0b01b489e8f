import { assessBundle, EncplanError } from '@encplan/core';
import { createEnvironment, MAX_BUNDLE_BYTES, readBundleDirectory, readUserFile } from '@encplan/core/node';

/** Where `encplan plan` gets its assessment; everything after reading it is the same whatever the source. */
export type AssessmentSource =
  { readonly kind: 'file'; readonly file: string } | { readonly kind: 'bundle'; readonly directory: string };

/** Reads a user-named JSON file: type-checked (never a FIFO), bounded and cancellable (core/node/user-files.ts). */
async function readJsonFile(file: string, signal: AbortSignal): Promise<unknown> {
  const text = await readUserFile(file, {
    what: 'assessment',
    maxBytes: MAX_BUNDLE_BYTES,
    signal,
    hint: 'Check the path; encplan only reads it.',
  });
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
export async function readAssessmentDocument(
  source: AssessmentSource,
  signal: AbortSignal,
): Promise<unknown> {
  switch (source.kind) {
    case 'file':
      return readJsonFile(source.file, signal);
    case 'bundle':
      return assessBundle(await readBundleDirectory(source.directory, signal), createEnvironment().clock, {
        signal,
      });
  }
}
