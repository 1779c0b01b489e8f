import type { ErrorCode } from '@encplan/core';

/**
 * encplan's exit codes (README "Exit codes"). They say whether encplan *worked*; a failing disk is data and
 * exits 0 unless `--fail-on` asks otherwise.
 */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  missingCapability: 3,
  device: 4,
  /** `--fail-on` matched: the assessment ran, and the drive's verdict is at or past the threshold. */
  gateFailed: 5,
  cancelled: 130,
} as const;

/** The exit code for an error code. */
export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'INVALID_ARGUMENT':
    case 'BUNDLE_INVALID':
      return ExitCode.usage;
    case 'TOOL_NOT_FOUND':
    case 'PERMISSION_DENIED':
    case 'KERNEL_FEATURE_MISSING':
    case 'TOOL_TIMED_OUT':
    case 'TOOL_FAILED':
    case 'TOOL_OUTPUT_UNRECOGNIZED':
    case 'TOOL_OUTPUT_TOO_LARGE':
      return ExitCode.missingCapability;
    case 'DEVICE_NOT_FOUND':
    case 'DEVICE_UNSUPPORTED':
    case 'DEVICE_IN_USE':
    case 'DESTRUCTIVE_OPERATION_REFUSED':
      return ExitCode.device;
    case 'CANCELLED':
      return ExitCode.cancelled;
    case 'INTERNAL_ERROR':
      return ExitCode.internal;
  }
}
