import { z } from 'zod';
import type { AssessFunction } from './assessment-jobs.js';
import type { ListDevicesFunction } from './device-list.js';

/** Whether root-needing work can run, and how (a pkexec helper; never the whole app as root). */
const privilegeStatusSchema = z.object({
  method: z.enum(['already-root', 'pkexec', 'none']),
  available: z.boolean(),
  /** Plain-language reason when unavailable, e.g. "pkexec is not installed". */
  reason: z.string().nullable(),
});
/** A validated {@link privilegeStatusSchema} value. */
export type PrivilegeStatus = z.infer<typeof privilegeStatusSchema>;

/** What the wizard may offer on this machine: benchmark backends and privileged work. */
export const capabilitiesSchema = z.object({
  backends: z.array(
    z.object({ id: z.string(), label: z.string(), available: z.boolean(), reason: z.string().nullable() }),
  ),
  privilege: privilegeStatusSchema,
});
/** A validated {@link capabilitiesSchema} value. */
export type Capabilities = z.infer<typeof capabilitiesSchema>;

/** The use cases a wizard shell (Electron main, `encplan ui`) exposes; the composition root provides them. */
export interface UiServices {
  readonly listDevices: ListDevicesFunction;
  readonly assess: AssessFunction;
  readonly capabilities: () => Promise<Capabilities>;
}
