import type { IoTestRef, IoTestResult, ProgressEvent } from '../domain/io-benchmark.js';

/** One step of a benchmark, planned before it runs: what it measures and how long it is expected to take. */
export interface PlannedPhase {
  /** Stable id, e.g. "openssl:aes-256-xts:1", "io:fscrypt:seq1m-q8t1-read:1". */
  readonly id: string;
  /** What the step competes for: the CPU (cipher, KDF) or the disk (fio, mkfs). */
  readonly resource: 'cpu' | 'disk';
  readonly expectedMs: number;
}

/** A phase as it went: planned, measured (null while pending), skipped when the run did not need it. */
export interface PhaseTiming extends PlannedPhase {
  readonly measuredMs: number | null;
  readonly skipped: boolean;
}

/** What a probe needs to run its steps as phases: one at a time, with progress. */
export interface PhaseRunner {
  /** Runs `work` as the phase `id` once every earlier phase has finished; phases never overlap. */
  run<T>(
    id: string,
    message: string,
    work: () => Promise<T>,
    phase?: ProgressEvent['phase'],
    test?: IoTestRef,
  ): Promise<T>;
  /** Drops the pending phases whose id starts with `prefix` (a tool that is missing, a backend skipped). */
  skip(prefix: string): void;
}

/** The expected time is corrected by how fast the finished phases ran, but never below a fifth or above 5×. */
const PACE_LIMITS = [0.2, 5] as const;
/**
 * Every planned phase measures for a fixed time (fio's runtime, openssl's -seconds, cryptsetup's iteration
 * time), so one that ends in under a quarter of it did not measure (a tool that failed at once, a missing
 * kernel interface) and says nothing about the machine's pace.
 */
const FAILED_FAST_SHARE = 0.25;

/**
 * Runs the phases of a benchmark strictly one after another and reports progress with a remaining time that
 * comes from the plan (expected durations) corrected by the measured pace of the phases already done:
 * ETA = (expected time of the pending phases + what is left of the current one) × measured ÷ expected so far.
 * Measurements that compete for the same CPU or disk must not overlap, so `run` queues: a second phase
 * started while one runs waits for it.
 */
export class PhaseSchedule implements PhaseRunner {
  private readonly phases: { planned: PlannedPhase; measuredMs: number | null; skipped: boolean }[];
  private queue: Promise<unknown> = Promise.resolve();
  private current: { id: string; startedAt: number; test: IoTestRef | undefined } | null = null;

  constructor(
    planned: readonly PlannedPhase[],
    private readonly emit: ((event: ProgressEvent) => void) | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.phases = planned.map((phase) => ({ planned: phase, measuredMs: null, skipped: false }));
  }

  /** Adds phases to the plan, after those already planned; a phase already planned (same id) is kept once. */
  plan(phases: readonly PlannedPhase[]): void {
    for (const phase of phases) {
      if (!this.phases.some((entry) => entry.planned.id === phase.id)) {
        this.phases.push({ planned: phase, measuredMs: null, skipped: false });
      }
    }
  }

  run<T>(
    id: string,
    message: string,
    work: () => Promise<T>,
    phase: ProgressEvent['phase'] = 'measure',
    test?: IoTestRef,
  ): Promise<T> {
    const next = this.queue.then(async () => {
      const entry = this.entry(id);
      this.current = { id, startedAt: this.now(), test };
      this.report(phase, message);
      try {
        return await work();
      } finally {
        entry.measuredMs = Math.max(0, this.now() - this.current.startedAt);
        this.current = null;
      }
    });
    // The queue goes on after a failed phase: the caller handles the error, the next phase still runs alone.
    this.queue = next.catch(() => undefined);
    return next;
  }

  skip(prefix: string): void {
    for (const phase of this.phases) {
      if (
        phase.measuredMs === null &&
        this.current?.id !== phase.planned.id &&
        phase.planned.id.startsWith(prefix)
      ) {
        phase.skipped = true;
      }
    }
  }

  /**
   * Reports a step that is not a planned phase (set-up messages, "Done") with the current estimate; `result`:
   * an I/O test that has just finished, so a results grid can fill in as each one ends.
   */
  report(phase: ProgressEvent['phase'], message: string, result?: IoTestResult): void {
    const counted = this.phases.filter((entry) => !entry.skipped);
    const finished = counted.filter((entry) => entry.measuredMs !== null);
    const eta = phase === 'done' ? 0 : this.remainingMs();
    const elapsed = finished.reduce((sum, entry) => sum + (entry.measuredMs ?? 0), 0);
    this.emit?.({
      phase,
      message,
      runIndex: Math.min(counted.length, finished.length + (this.current === null ? 0 : 1)),
      runCount: counted.length,
      fraction: phase === 'done' ? 1 : elapsed + eta === 0 ? 0 : Math.min(1, elapsed / (elapsed + eta)),
      etaMs: eta,
      ...(this.current?.test === undefined ? {} : { test: this.current.test }),
      ...(result === undefined ? {} : { result }),
    });
  }

  /** Every phase with its expected and measured duration, in plan order (phases skipped included). */
  timings(): PhaseTiming[] {
    return this.phases.map((entry) => ({
      ...entry.planned,
      measuredMs: entry.measuredMs,
      skipped: entry.skipped,
    }));
  }

  /**
   * The remaining time: each pending phase's expected time (the current one's minus what it has run) × the
   * measured pace of the finished phases of the same resource (CPU-only runs and disk runs slow down
   * differently on a busy machine), or of all finished phases while none of that resource has finished.
   */
  remainingMs(): number {
    const done = { cpu: { expected: 0, measured: 0 }, disk: { expected: 0, measured: 0 } };
    for (const entry of this.phases) {
      const { measuredMs, planned } = entry;
      if (!entry.skipped && measuredMs !== null && measuredMs >= planned.expectedMs * FAILED_FAST_SHARE) {
        done[planned.resource].expected += planned.expectedMs;
        done[planned.resource].measured += measuredMs;
      }
    }
    const ratio = (expected: number, measured: number): number | null =>
      expected === 0 ? null : Math.min(PACE_LIMITS[1], Math.max(PACE_LIMITS[0], measured / expected));
    const overall =
      ratio(done.cpu.expected + done.disk.expected, done.cpu.measured + done.disk.measured) ?? 1;
    const pace = {
      cpu: ratio(done.cpu.expected, done.cpu.measured) ?? overall,
      disk: ratio(done.disk.expected, done.disk.measured) ?? overall,
    };
    const runningFor = this.current === null ? 0 : Math.max(0, this.now() - this.current.startedAt);
    const pending = this.phases
      .filter((entry) => !entry.skipped && entry.measuredMs === null)
      .reduce((sum, entry) => sum + entry.planned.expectedMs * pace[entry.planned.resource], 0);
    return Math.max(0, Math.round(pending - runningFor));
  }

  private entry(id: string): { planned: PlannedPhase; measuredMs: number | null; skipped: boolean } {
    const found = this.phases.find((entry) => entry.planned.id === id && entry.measuredMs === null);
    if (found !== undefined) {
      found.skipped = false;
      return found;
    }
    // A step the plan did not foresee still runs alone and counts; it was expected to take no time.
    const added = {
      planned: { id, resource: 'disk' as const, expectedMs: 0 },
      measuredMs: null,
      skipped: false,
    };
    this.phases.push(added);
    return added;
  }
}

/** A runner for callers that plan nothing (direct probe calls, tests): runs each step at once, in order. */
export const RUN_DIRECTLY: PhaseRunner = {
  run: (_id, _message, work) => work(),
  skip: () => undefined,
};
