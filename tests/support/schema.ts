import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { REPO_ROOT } from './fake-tools.js';

/** Validates a document against the committed schemas/assessment.v1.json; returns the errors as text. */
export function assessmentSchemaErrors(document: unknown): string | null {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/assessment.v1.json'), 'utf8')) as object;
  const validate = ajv.compile(schema);
  return validate(document) ? null : ajv.errorsText(validate.errors);
}
