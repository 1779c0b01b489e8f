import { installHint, type Host, type ToolName } from './ports.js';

/**
 * The error taxonomy. `code` is part of the JSON contract (docs/json-contract.md): never rename one.
 */
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'TOOL_NOT_FOUND',
  'TOOL_TIMED_OUT',
  'TOOL_FAILED',
  'TOOL_OUTPUT_UNRECOGNIZED',
  'TOOL_OUTPUT_TOO_LARGE',
  'PERMISSION_DENIED',
  'DEVICE_NOT_FOUND',
  'DEVICE_UNSUPPORTED',
  'DEVICE_IN_USE',
  'KERNEL_FEATURE_MISSING',
  'DESTRUCTIVE_OPERATION_REFUSED',
  'BUNDLE_INVALID',
  'CANCELLED',
  'INTERNAL_ERROR',
] as const;

/** One of the stable error codes of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Extra, optional context of an {@link EncplanError}. */
export interface EncplanErrorOptions {
  readonly hint?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/** An expected failure the user can act on: bad input, a missing tool, a device we cannot use. */
export class EncplanError extends Error {
  readonly hint: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: EncplanErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'EncplanError';
    this.hint = options.hint;
    this.details = options.details;
  }
}

/** A bug in encplan. Never thrown for bad input or a misbehaving tool. */
export class InvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvariantError';
  }
}

/** True when `error` is an {@link EncplanError}, optionally with one of the given codes. */
export function isEncplanError(error: unknown, ...codes: ErrorCode[]): error is EncplanError {
  return error instanceof EncplanError && (codes.length === 0 || codes.includes(error.code));
}

/**
 * The error for a tool that is not installed, with how to get it on the platform that missed it (the Debian
 * package on Linux, Homebrew on a Mac, the project's installer on Windows: ports.ts `installHint`).
 */
export function toolNotFound(tool: ToolName, platform: Host['platform'] = 'linux'): EncplanError {
  return new EncplanError('TOOL_NOT_FOUND', `${tool} is not installed or not on PATH.`, {
    hint: installHint(tool, platform),
    details: { tool },
  });
}

/** The error for an operation the user stopped (Ctrl-C, SIGTERM, Cancel button). */
export function cancelled(what = 'The operation'): EncplanError {
  return new EncplanError('CANCELLED', `${what} was cancelled.`);
}

/** Throws CANCELLED when `signal` has fired: for the checkpoints of work that cannot listen to it. */
export function throwIfCancelled(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted === true) {
    throw cancelled(what);
  }
}
