import { z } from 'zod';
import {
  EncplanError,
  wizardAssessRequestSchema,
  benchmarkFootprintSchema,
  capabilitiesSchema,
  deviceSummarySchema,
  bridgeDocument,
  type AssessmentJobs,
  type UiServices,
} from '@encplan/core';
import type { BridgeEnvelope, BridgeMethod, EncplanBridge } from '../shared/bridge.js';

/** One handler per bridge method: takes the raw input from the other side, resolves to an envelope. */
export type BridgeHandlers = {
  readonly [Method in BridgeMethod]: (input: unknown) => ReturnType<EncplanBridge[Method]>;
};

/** Job ids are the UUIDs the registry makes; anything else is refused before it reaches a map lookup. */
export const jobIdSchema = z.string().regex(/^[0-9a-f-]{8,64}$/);

const deviceListSchema = z.object({ devices: z.array(deviceSummarySchema) });

function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new EncplanError('INVALID_ARGUMENT', `Invalid request: ${z.prettifyError(parsed.error)}`, {
      hint: 'The wizard sent a request the contract does not allow; reload it.',
    });
  }
  return parsed.data;
}

/**
 * The bridge's handler table, shared by Electron main (IPC) and `encplan ui` (HTTP): validates every input
 * with the contract's zod schema, calls the use case and wraps the answer in an envelope. Never throws:
 * failures become error envelopes, so nothing but data crosses the boundary.
 */
export function createBridgeHandlers(
  services: UiServices,
  jobs: AssessmentJobs,
  now: () => Date = () => new Date(),
): BridgeHandlers {
  const wrap =
    <Result>(body: (input: unknown) => Promise<Result>) =>
    async (input: unknown): Promise<BridgeEnvelope<Result>> => {
      try {
        return bridgeDocument.ok(await body(input), [], now()) as BridgeEnvelope<Result>;
      } catch (error) {
        return bridgeDocument.error(error, [], now());
      }
    };
  const signalFor = (): AbortSignal => AbortSignal.timeout(120_000);
  return {
    listDevices: wrap(async () => parseInput(deviceListSchema, await services.listDevices(signalFor()))),
    capabilities: wrap(async () => parseInput(capabilitiesSchema, await services.capabilities())),
    benchmarkFootprint: wrap(async (input) =>
      parseInput(
        benchmarkFootprintSchema.nullable(),
        await services.benchmarkFootprint(parseInput(wizardAssessRequestSchema, input)),
      ),
    ),
    startAssessment: wrap((input) =>
      Promise.resolve({ jobId: jobs.start(parseInput(wizardAssessRequestSchema, input)) }),
    ),
    jobStatus: wrap((input) => Promise.resolve(jobs.snapshot(parseInput(jobIdSchema, input)))),
    cancel: wrap((input) => jobs.cancel(parseInput(jobIdSchema, input))),
  };
}
