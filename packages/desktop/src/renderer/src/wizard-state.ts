import type {
  BenchmarkFootprint,
  Capabilities,
  DeviceSummary,
  ErrorBody,
  JobSnapshot,
  ReportView,
} from '@encplan/core';
import type { ShownProgress } from './progress-estimate.js';

/** The five steps, in order. */
export const STEPS = ['Drive', 'Health, TRIM and space', 'Benchmark', 'Plan', 'Export'] as const;

/** The plan's options as the plan step's controls hold them (numbers as typed, validated on use). */
export interface PlanChoices {
  targetTool: string | null;
  threatModel: string;
  workload: string;
  /** MiB as typed; empty: this machine's memory. */
  unlockMemoryMiB: string;
  /** Characters as typed; empty: unknown. */
  passwordLength: string;
  speedOverSecurity: boolean;
}

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
  /** The progress as shown: a bar that never goes back and an ETA that grows by at most its spread. */
  shownProgress: ShownProgress | null;
  /** Where a benchmark with the current choices writes and how much (null: not known yet). */
  footprint: BenchmarkFootprint | null;
  /** The latest finished assessment as measured (plans are made from it). */
  assessedEnvelope: unknown;
  /** The plan's options chosen in step 4, whether the person changed any, and why a re-plan failed. */
  planChoices: PlanChoices;
  planChoicesTouched: boolean;
  planError: string | null;
  /** The targets the assessed machine's plans can name, with their names. */
  targetChoices: readonly { readonly id: string; readonly label: string }[];
  /** The envelope (re-planned with {@link planChoices}) and view of the latest finished assessment. */
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
  /** Changes plan options and re-plans from the same assessment at once. */
  setPlanChoices(change: Partial<PlanChoices>): void;
}
