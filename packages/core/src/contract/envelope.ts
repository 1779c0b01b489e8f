import { z } from 'zod';
import { ERROR_CODES, EncplanError, type ErrorCode } from '../errors.js';
import { warningSchema, type Warning } from '../domain/warning.js';

/** The error object inside an error envelope: a stable code, a message for people, an optional hint. */
export const errorBodySchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  hint: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
/** A validated {@link errorBodySchema} value. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** ok: everything ran. partial: some probes failed (see warnings). error: nothing to report (see error). */
export const statusSchema = z.enum(['ok', 'partial', 'error']);
export type Status = z.infer<typeof statusSchema>;

/**
 * Builds the versioned envelope schema around a result schema. Every JSON document encplan prints is one
 * of these, modelled on smartctl's `json_format_version`: a schema name, [major, minor], and the status.
 */
export function envelopeSchema<Name extends string, Result extends z.ZodType>(name: Name, result: Result) {
  return z.object({
    schema: z.literal(name),
    /** [major, minor]: a new optional field bumps minor; removing, renaming or changing a field bumps major. */
    schemaVersion: z.tuple([z.number().int(), z.number().int()]),
    toolVersion: z.string(),
    generatedAt: z.iso.datetime(),
    status: statusSchema,
    result: result.nullable(),
    warnings: z.array(warningSchema),
    error: errorBodySchema.nullable(),
  });
}

/** Turns any thrown value into the error body of an envelope. Unknown throws become INTERNAL_ERROR. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof EncplanError) {
    return {
      code: error.code,
      message: error.message,
      hint: error.hint ?? null,
      details: error.details ? { ...error.details } : null,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'INTERNAL_ERROR' satisfies ErrorCode,
    message: `Internal error: ${message}`,
    hint: 'This is a bug in encplan; please report it with the output of --json.',
    details: null,
  };
}

/** Common fields of every envelope. */
export interface EnvelopeMeta<Name extends string> {
  readonly schema: Name;
  readonly schemaVersion: readonly [number, number];
  readonly toolVersion: string;
  readonly generatedAt: Date;
}

/** A successful envelope: `partial` when there are warnings. */
export function okEnvelope<Name extends string, Result>(
  meta: EnvelopeMeta<Name>,
  result: Result,
  warnings: readonly Warning[],
) {
  return {
    schema: meta.schema,
    schemaVersion: [meta.schemaVersion[0], meta.schemaVersion[1]] as [number, number],
    toolVersion: meta.toolVersion,
    generatedAt: meta.generatedAt.toISOString(),
    status: warnings.length > 0 ? ('partial' as const) : ('ok' as const),
    result,
    warnings: [...warnings],
    error: null,
  };
}

/** An error envelope: `result` is null and `error` says what went wrong. */
export function errorEnvelope<Name extends string>(
  meta: EnvelopeMeta<Name>,
  error: unknown,
  warnings: readonly Warning[] = [],
) {
  return {
    schema: meta.schema,
    schemaVersion: [meta.schemaVersion[0], meta.schemaVersion[1]] as [number, number],
    toolVersion: meta.toolVersion,
    generatedAt: meta.generatedAt.toISOString(),
    status: 'error' as const,
    result: null,
    warnings: [...warnings],
    error: toErrorBody(error),
  };
}

/** The shape of every envelope, for code that handles envelopes whose result it does not look into. */
export interface Envelope<Name extends string, Result> {
  readonly schema: Name;
  readonly schemaVersion: readonly [number, number];
  readonly toolVersion: string;
  readonly generatedAt: string;
  readonly status: Status;
  readonly result: Result | null;
  readonly warnings: readonly Warning[];
  readonly error: ErrorBody | null;
}
