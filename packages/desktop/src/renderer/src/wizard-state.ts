import type { Capabilities, DeviceSummary, ErrorBody, JobSnapshot, ReportView } from '@encplan/core';

/** The five steps, in order. */
export const STEPS = ['Drive', 'Health, TRIM and space', 'Benchmark', 'Plan', 'Export'] as const;

/** Everything the wizard shows; steps render from it, actions change it. */
export interface WizardState {
  step: number;
  devices: readonly DeviceSummary[] | null;
  capabilities: Capabilities | null;
  /** The last error a bridge call returned, shown above the current step. */
  error: ErrorBody | null;
  selectedDevice: string | null;
  /** The drive the latest assessment was for (kept when a refresh drops a vanished drive from the list). */
  lastDevice: string | null;
  benchmarkMode: 'quick' | 'full';
  selectedBackends: string[];
  /** The running or last finished job, and whether it reads facts only or also benchmarks. */
  job: JobSnapshot | null;
  jobKind: 'facts' | 'benchmark';
  /** When the current job started (Date.now()), for the remaining-time estimate. */
  jobStartedAtMs: number | null;
  /** The envelope and view of the latest finished assessment. */
  envelope: unknown;
  view: ReportView | null;
  /** A short status message for the live region ("Copied", "Cancelled"). */
  notice: string;
}

/** The actions steps may trigger. */
export interface WizardActions {
  selectDevice(path: string): void;
  goTo(step: number): void;
  /** Reads the facts of the selected drive (again: Try again after a failed read). */
  assessFacts(): void;
  /** Re-reads the drive list and what this machine can measure, and goes back to step 1. */
  refreshDevices(): void;
  setBenchmarkMode(mode: 'quick' | 'full'): void;
  toggleBackend(id: string, on: boolean): void;
  startBenchmark(): void;
  cancelJob(): void;
  notify(message: string): void;
}
