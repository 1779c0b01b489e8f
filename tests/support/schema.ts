import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { REPO_ROOT } from './fake-tools.js';

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
const compiled = new Map<string, ValidateFunction>();

/** The committed file an envelope's own header names: `encplan.plan` 1.x → schemas/plan.v1.json. */
function committedSchemaFile(envelope: unknown): string {
  const { schema, schemaVersion } = envelope as { schema?: unknown; schemaVersion?: unknown };
  if (typeof schema !== 'string' || !Array.isArray(schemaVersion) || typeof schemaVersion[0] !== 'number') {
    throw new Error(`Not an envelope: ${JSON.stringify(envelope).slice(0, 200)}`);
  }
  return `schemas/${schema.replace(/^encplan\./, '')}.v${String(schemaVersion[0])}.json`;
}

/**
 * Validates an envelope with ajv against the committed JSON Schema its header names (not against the zod
 * schema: the committed file is what users validate with). Returns the errors as text, or null.
 */
export function envelopeSchemaErrors(envelope: unknown): string | null {
  const file = committedSchemaFile(envelope);
  let validate = compiled.get(file);
  if (validate === undefined) {
    validate = ajv.compile(JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as object);
    compiled.set(file, validate);
  }
  return validate(envelope) ? null : ajv.errorsText(validate.errors);
}

/** Validates a document against the committed schemas/assessment.v1.json; returns the errors as text. */
export function assessmentSchemaErrors(document: unknown): string | null {
  const errors = envelopeSchemaErrors(document);
  const name = (document as { schema?: unknown }).schema;
  return name === 'encplan.assessment' ? errors : `schema is ${String(name)}, not encplan.assessment`;
}
