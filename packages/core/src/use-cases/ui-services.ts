import { z } from 'zod';
import type { AssessFunction, WizardAssessRequest } from './assessment-jobs.js';
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

/**
 * Where a benchmark of a drive writes and how much, before it starts: the folder the run itself will choose
 * (use-cases/assess.ts chooseScratchDirectory, as `encplan assess --benchmark`), or, for a saved assessment
 * (`replay`), the folder its run wrote in on the machine it was taken on (nothing is written here).
 */
export const benchmarkFootprintSchema = z.object({
  replay: z.boolean(),
  /** Null: no filesystem of the drive is mounted, so no I/O is measured. */
  directory: z.string().nullable(),
  scratchBytes: z.number().int().nonnegative(),
  freeNeededBytes: z.number().int().nonnegative(),
});
/** A validated {@link benchmarkFootprintSchema} value. */
export type BenchmarkFootprint = z.infer<typeof benchmarkFootprintSchema>;

/** The use cases a wizard shell (Electron main, `encplan ui`) exposes; the composition root provides them. */
export interface UiServices {
  readonly listDevices: ListDevicesFunction;
  readonly assess: AssessFunction;
  readonly capabilities: () => Promise<Capabilities>;
  /** Null when no I/O backend is chosen or the drive has not been read yet. */
  readonly benchmarkFootprint: (request: WizardAssessRequest) => Promise<BenchmarkFootprint | null>;
}
