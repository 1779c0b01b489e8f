import { z } from 'zod';
import { EncplanError } from '../errors.js';
import { devicePathSchema, FLAG_DEFINITIONS } from '../rules/flag-definitions.js';
import type { IoTestRef, IoTestResult } from '../domain/io-benchmark.js';

/** What the wizard (desktop main, `encplan ui`) asks for: one drive, and how much benchmarking. */
export const wizardAssessRequestSchema = z
  .object({
    /** The block device to assess; absolute, under /dev/, no leading dash (architecture 2.4). */
    device: devicePathSchema,
    /** none: facts only; quick: ≤ 60 s on a small machine (issue 4); full: every profile and backend. */
    benchmark: z.enum(['none', 'quick', 'full']),
    /** Encrypted backends to benchmark (empty = the platform's default choice). */
    backends: z.array(z.string().regex(/^[a-z0-9-]+$/)).max(16),
    /** Where the I/O benchmark writes (`--scratch`, one definition); absent: the disk's own filesystem. */
    scratchDirectory: FLAG_DEFINITIONS.scratch.schema.optional(),
  })
  .strict();
/** A validated {@link wizardAssessRequestSchema} value. */
export type WizardAssessRequest = z.infer<typeof wizardAssessRequestSchema>;

/** A finished benchmark result: a label for the live chart and, for an I/O test, which test it was. */
export interface AssessSample {
  readonly label: string;
  readonly bytesPerSecond: number;
  /** The slowest and fastest run of an I/O test (absent: not known), for the page-cache rule in the live chart. */
  readonly minBytesPerSecond?: number;
  readonly maxBytesPerSecond?: number;
  /** The I/O test (profile, direction, plain or which encrypted backend), for the results grid. */
  readonly test?: IoTestRef;
}

/**
 * The live-chart sample of a finished I/O test: labelled "SEQ1M Q8T1 read · fscrypt", with its median and, where
 * the runner reported them, its slowest and fastest run (so the chart can apply the page-cache rule).
 */
export function ioTestSample(result: IoTestResult): AssessSample & { readonly test: IoTestRef } {
  const { profile, direction, backend, variant } = result;
  return {
    label: `${profile} ${direction} · ${variant}`,
    bytesPerSecond: result.bytesPerSecond,
    ...(result.minBytesPerSecond === undefined ? {} : { minBytesPerSecond: result.minBytesPerSecond }),
    ...(result.maxBytesPerSecond === undefined ? {} : { maxBytesPerSecond: result.maxBytesPerSecond }),
    test: { profile, direction, backend, variant },
  };
}

/** A progress event of a long assessment: a phase, a fraction done and, for benchmarks, a live sample. */
export interface AssessProgress {
  readonly phase: string;
  /** 0 … 1. */
  readonly fraction: number;
  /** A throughput sample for the live chart, when the phase is a benchmark. */
  readonly sample: AssessSample | null;
  /** The time left from the benchmark's plan (probes/phase-schedule.ts), when a benchmark runs. */
  readonly etaMs?: number | null;
  /** The I/O test running now, to name it in words. */
  readonly test?: IoTestRef;
}

/** The assessment use case as the shells see it: the lead's `assess` is plugged in here. */
export type AssessFunction = (
  request: WizardAssessRequest,
  context: { readonly signal: AbortSignal; readonly onProgress: (progress: AssessProgress) => void },
) => Promise<unknown>;

/** A job's state, as the wizard polls it (the bridge document carries it as its result). */
export interface JobSnapshot {
  readonly jobId: string;
  readonly state: 'running' | 'done' | 'cancelled' | 'failed';
  readonly progress: AssessProgress;
  /** Throughput samples so far, oldest first, for the live chart. */
  readonly samples: readonly AssessSample[];
  /** The assessment envelope once done (errors arrive inside it). */
  readonly envelope: unknown;
}

/** Running assessments keyed by job id, so Cancel can stop one and the wizard can poll its progress. */
export interface AssessmentJobs {
  start(request: WizardAssessRequest): string;
  snapshot(jobId: string): JobSnapshot;
  /** Aborts the job (the use case cleans up through its AbortSignal) and waits until it has finished. */
  cancel(jobId: string): Promise<JobSnapshot>;
  /** Cancels every running job; for window close and server shutdown. */
  cancelAll(): Promise<void>;
}

interface Job {
  snapshot: JobSnapshot;
  readonly controller: AbortController;
  finished: Promise<void>;
}

/** The most samples a job keeps for the live chart; older ones are dropped. */
const MAX_SAMPLES = 500;

/**
 * Creates the job registry over an assess function. `makeErrorEnvelope` turns a thrown value into the
 * error envelope the shells return, since a job must always end with an envelope.
 */
export function createAssessmentJobs(
  assess: AssessFunction,
  makeErrorEnvelope: (error: unknown) => unknown,
  newJobId: () => string,
): AssessmentJobs {
  const jobs = new Map<string, Job>();

  const get = (jobId: string): Job => {
    const job = jobs.get(jobId);
    if (job === undefined) {
      throw new EncplanError('INVALID_ARGUMENT', `No assessment job ${jobId}.`, {
        hint: 'Start an assessment first.',
      });
    }
    return job;
  };

  return {
    start(request) {
      const jobId = newJobId();
      const controller = new AbortController();
      const snapshot: JobSnapshot = {
        jobId,
        state: 'running',
        progress: { phase: 'starting', fraction: 0, sample: null },
        samples: [],
        envelope: null,
      };
      // The job exists before assess starts: a use case may report progress synchronously.
      const job: Job = { snapshot, controller, finished: Promise.resolve() };
      jobs.set(jobId, job);
      // Started from a resolved promise, so a use case that throws synchronously still ends as an envelope.
      job.finished = Promise.resolve()
        .then(() => {
          if (controller.signal.aborted) {
            throw new EncplanError('CANCELLED', 'The assessment was cancelled before it started.');
          }
          return assess(request, {
            signal: controller.signal,
            onProgress: (progress) => {
              const samples =
                progress.sample === null
                  ? job.snapshot.samples
                  : [...job.snapshot.samples, progress.sample].slice(-MAX_SAMPLES);
              job.snapshot = { ...job.snapshot, progress, samples };
            },
          });
        })
        .then(
          (envelope) => {
            job.snapshot = {
              ...job.snapshot,
              state: controller.signal.aborted ? 'cancelled' : 'done',
              envelope,
              progress: { ...job.snapshot.progress, fraction: 1 },
            };
          },
          (error: unknown) => {
            job.snapshot = {
              ...job.snapshot,
              state: controller.signal.aborted ? 'cancelled' : 'failed',
              envelope: makeErrorEnvelope(error),
            };
          },
        );
      return jobId;
    },
    snapshot(jobId) {
      return get(jobId).snapshot;
    },
    async cancel(jobId) {
      const job = get(jobId);
      job.controller.abort();
      await job.finished;
      return job.snapshot;
    },
    async cancelAll() {
      for (const job of jobs.values()) {
        job.controller.abort();
      }
      await Promise.all([...jobs.values()].map((job) => job.finished));
    },
  };
}
