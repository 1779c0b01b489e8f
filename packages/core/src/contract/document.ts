import { z } from 'zod';
import type { Warning } from '../domain/warning.js';
import { TOOL_VERSION } from '../version.js';
import { envelopeSchema, errorEnvelope, okEnvelope } from './envelope.js';

/** What one JSON document is: its name, version and result schema. Everything else is derived. */
export interface DocumentSpec<Name extends string, Result extends z.ZodType> {
  /** The `schema` field of the envelope, e.g. `encplan.plan`. Never renamed. */
  readonly name: Name;
  /** [major, minor]: a new optional field bumps minor; removing, renaming or changing a field bumps major. */
  readonly version: readonly [number, number];
  /** One line for people: the command that prints it. Becomes the JSON Schema's title. */
  readonly title: string;
  /** The zod schema of `result`. */
  readonly result: Result;
}

/** One JSON document encplan prints: its zod schemas, envelope builders and committed JSON Schema. */
export interface JsonDocument<
  Name extends string = string,
  Result extends z.ZodType = z.ZodType,
> extends DocumentSpec<Name, Result> {
  /** The zod schema of the whole envelope, built on first use. */
  readonly envelope: ReturnType<typeof envelopeSchema<Name, Result>>;
  /** The committed JSON Schema's path from the repository root: `schemas/<name>.v<major>.json`. */
  readonly schemaFile: string;
  /** The ok envelope (`partial` when there are warnings) around `result`. */
  ok(
    result: z.output<Result>,
    warnings?: readonly Warning[],
    generatedAt?: Date,
  ): ReturnType<typeof okEnvelope<Name, z.output<Result>>>;
  /** The error envelope: `result` null, `error` from any thrown value. */
  error(
    error: unknown,
    warnings?: readonly Warning[],
    generatedAt?: Date,
  ): ReturnType<typeof errorEnvelope<Name>>;
  /** The JSON Schema (draft 2020-12) of the envelope, generated from the zod schemas. */
  jsonSchema(): Record<string, unknown>;
}

/** The committed file of a document: `encplan.benchmark-io` 1.x → `schemas/benchmark-io.v1.json`. */
function schemaFileOf(name: string, major: number): string {
  return `schemas/${name.replace(/^encplan\./, '')}.v${String(major)}.json`;
}

/**
 * Defines a JSON document once. Add the result to `DOCUMENTS` (contract/documents.ts) and run
 * `npm run schema`; the drift test and the CLI e2e tests then cover it.
 */
export function defineDocument<Name extends string, Result extends z.ZodType>(
  spec: DocumentSpec<Name, Result>,
): JsonDocument<Name, Result> {
  const meta = (generatedAt: Date) => ({
    schema: spec.name,
    schemaVersion: spec.version,
    toolVersion: TOOL_VERSION,
    generatedAt,
  });
  // The envelope schema is built on first use (a command validates one document, if any, of the ~20).
  let envelope: ReturnType<typeof envelopeSchema<Name, Result>> | undefined;
  const envelopeOf = () => (envelope ??= envelopeSchema(spec.name, spec.result));
  const schemaFile = schemaFileOf(spec.name, spec.version[0]);
  return {
    ...spec,
    get envelope() {
      return envelopeOf();
    },
    schemaFile,
    ok: (result, warnings = [], generatedAt = new Date()) => okEnvelope(meta(generatedAt), result, warnings),
    error: (error, warnings = [], generatedAt = new Date()) =>
      errorEnvelope(meta(generatedAt), error, warnings),
    jsonSchema: () => ({
      ...z.toJSONSchema(envelopeOf(), { target: 'draft-2020-12', io: 'output' }),
      $id: `https://encplan.dev/${schemaFile}`,
      title: spec.title,
    }),
  };
}

/**
 * A document in the usual form: named `encplan.<id>`, titled `encplan <printedBy> envelope` after what
 * prints it (`benchmark ciphers`, `man page`).
 */
export function commandDocument<Id extends string, Result extends z.ZodType>(
  id: Id,
  version: readonly [number, number],
  printedBy: string,
  result: Result,
): JsonDocument<`encplan.${Id}`, Result> {
  return defineDocument({ name: `encplan.${id}`, version, title: `encplan ${printedBy} envelope`, result });
}

/** The result type of a document, for code that builds one without importing zod. */
export type DocumentResult<Document extends JsonDocument> = Parameters<Document['ok']>[0];
