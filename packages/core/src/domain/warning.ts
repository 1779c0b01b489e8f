import { z } from 'zod';

/**
 * A stable warning code. Warnings make an assessment `partial`: something could not be asked, and the
 * report says what and why. Codes are part of the JSON contract (docs/json-contract.md).
 */
const warningCodeSchema = z.enum([
  'TOOL_MISSING',
  'TOOL_FAILED',
  'TOOL_TIMED_OUT',
  'TOOL_OUTPUT_UNRECOGNIZED',
  'PERMISSION_LIMITED',
  'SMART_UNAVAILABLE',
  'KERNEL_FEATURE_MISSING',
  'DATA_INCONSISTENT',
  'PLATFORM_LIMITED',
]);
export type WarningCode = z.infer<typeof warningCodeSchema>;

/** Something encplan could not find out, with the probe that failed. */
export const warningSchema = z.object({
  code: warningCodeSchema,
  message: z.string(),
  /** The tool or file the warning is about, e.g. "smartctl" or "/sys/block/sda/queue". */
  source: z.string().nullable(),
});
/** A validated {@link warningSchema} value. */
export type Warning = z.infer<typeof warningSchema>;
