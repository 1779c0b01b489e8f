import type {
  BenchmarkFootprint,
  WizardAssessRequest,
  Capabilities,
  DeviceSummary,
  Envelope,
  JobSnapshot,
} from '@encplan/core';

/**
 * The whole contract between the wizard and whatever runs it (Electron main over IPC, `encplan ui` over
 * HTTP, the fake bridge in tests). Every method resolves to an envelope; errors arrive inside it and
 * nothing is thrown across the boundary (architecture 2.7).
 */
export type BridgeEnvelope<Result> = Envelope<'encplan.bridge', Result>;

/** What the wizard can ask for. */
export interface EncplanBridge {
  /** The drives to offer in step 1. */
  listDevices(): Promise<BridgeEnvelope<{ readonly devices: readonly DeviceSummary[] }>>;
  /** Benchmark backends this machine supports and whether privileged work is possible. */
  capabilities(): Promise<BridgeEnvelope<Capabilities>>;
  /** Where a benchmark with these choices would write and how much (null: not known yet, or no I/O chosen). */
  benchmarkFootprint(request: WizardAssessRequest): Promise<BridgeEnvelope<BenchmarkFootprint | null>>;
  /** Starts an assessment; poll {@link EncplanBridge.jobStatus} for progress and the final envelope. */
  startAssessment(request: WizardAssessRequest): Promise<BridgeEnvelope<{ readonly jobId: string }>>;
  /** The progress (and, when done, the assessment envelope) of a job. */
  jobStatus(jobId: string): Promise<BridgeEnvelope<JobSnapshot>>;
  /** Cancels a job; resolves once its clean-up has finished. */
  cancel(jobId: string): Promise<BridgeEnvelope<JobSnapshot>>;
}

/** The name of a bridge method. */
export type BridgeMethod = keyof EncplanBridge;

/** IPC channel per bridge method; the HTTP bridge uses the same names under /api/. */
export const channels = {
  listDevices: 'encplan:list-devices',
  capabilities: 'encplan:capabilities',
  benchmarkFootprint: 'encplan:benchmark-footprint',
  startAssessment: 'encplan:start-assessment',
  jobStatus: 'encplan:job-status',
  cancel: 'encplan:cancel',
} as const satisfies Record<BridgeMethod, string>;

/** The key under which the preload exposes the bridge: `window.encplan`. */
export const BRIDGE_GLOBAL = 'encplan';

declare global {
  interface Window {
    /** Present only inside the Electron window (exposed by the preload). */
    readonly encplan?: EncplanBridge;
  }
}
