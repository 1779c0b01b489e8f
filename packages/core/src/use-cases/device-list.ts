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
  /** Present when the drive comes from a saved assessment (`encplan ui --assessment FILE`): where and when. */
  savedFrom: z
    .object({
      /** The file's name (no folder), or null when it has none. */
      file: z.string().nullable(),
      /** The machine it was taken on, in words (OS and CPU), or null when unknown. */
      machine: z.string().nullable(),
      /** When it was collected (ISO 8601). */
      collectedAt: z.string(),
    })
    .optional(),
});
/** A validated {@link deviceSummarySchema} value. */
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/** Lists the drives the wizard offers; resolves to an envelope whose result is `{ devices: DeviceSummary[] }`. */
export type ListDevicesFunction = (signal: AbortSignal) => Promise<unknown>;
