import type { Warning, WarningCode } from '../../domain/warning.js';
import { isEncplanError, type ErrorCode } from '../../errors.js';

/** What a probe found, and what it could not find out. */
export interface ProbeResult<Facts> {
  readonly facts: Facts;
  readonly warnings: readonly Warning[];
}

const WARNING_OF: Partial<Record<ErrorCode, WarningCode>> = {
  TOOL_NOT_FOUND: 'TOOL_MISSING',
  TOOL_TIMED_OUT: 'TOOL_TIMED_OUT',
  TOOL_OUTPUT_UNRECOGNIZED: 'TOOL_OUTPUT_UNRECOGNIZED',
  TOOL_OUTPUT_TOO_LARGE: 'TOOL_FAILED',
  TOOL_FAILED: 'TOOL_FAILED',
  PERMISSION_DENIED: 'PERMISSION_LIMITED',
  KERNEL_FEATURE_MISSING: 'KERNEL_FEATURE_MISSING',
};

/**
 * Runs one step of a probe. An expected failure (tool missing, timed out, output not recognised) becomes a warning
 * and null, so the rest of the probe still runs; cancellation and bugs propagate.
 */
export async function attemptProbeStep<T>(warnings: Warning[], source: string, step: () => Promise<T>): Promise<T | null> {
  try {
    return await step();
  } catch (error) {
    if (!isEncplanError(error)) {
      throw error;
    }
    const code = WARNING_OF[error.code];
    if (code === undefined) {
      throw error;
    }
    warnings.push({ code, message: error.message, source });
    return null;
  }
}

/** The first line of a tool's stderr, for warnings. */
export function firstLineOf(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '(no message)';
}
