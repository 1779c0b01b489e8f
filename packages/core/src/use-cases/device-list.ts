import { z } from 'zod';
import { transportSchema } from '../domain/device.js';

/** One drive in the wizard's first step. */
export const deviceSummarySchema = z.object({
  path: z.string(),
  model: z.string().nullable(),
  sizeBytes: z.number().int(),
  transport: transportSchema,
  rotational: z.boolean(),
  /** True when / or /boot or swap lives on this disk. */
  isSystemDisk: z.boolean(),
  /** The health verdict when it is already known (SMART read), else unknown. */
  healthVerdict: z.enum(['healthy', 'warning', 'failing', 'unknown']),
});
/** A validated {@link deviceSummarySchema} value. */
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/** Lists the drives the wizard offers; resolves to an envelope whose result is `{ devices: DeviceSummary[] }`. */
export type ListDevicesFunction = (signal: AbortSignal) => Promise<unknown>;
