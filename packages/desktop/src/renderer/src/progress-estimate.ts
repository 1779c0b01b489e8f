/** What the benchmark step shows of a running job's progress: a bar that only moves forward and an ETA ± spread. */
export interface ShownProgress {
  /** 0 … 1; never less than an earlier one. */
  readonly fraction: number;
  /** The time left as shown, or null while there is no estimate yet. */
  readonly etaMs: number | null;
  /** The stated uncertainty of {@link etaMs} ("± 10 s"). */
  readonly spreadMs: number | null;
  /** When this was shown (the clock of the caller), to age the estimate. */
  readonly atMs: number;
}

/**
 * The spread stated with an ETA: a quarter of it, at least five seconds. The core's ETA is the planned jobs'
 * expected durations corrected by the pace of the finished ones (probes/phase-schedule.ts), so the pace of
 * the next, different job can differ by that much.
 */
function spreadOf(etaMs: number): number {
  return Math.max(5000, Math.round(etaMs / 4));
}

/**
 * The next shown progress from the job's latest `progress` at `nowMs`: the fraction never goes back, and the
 * ETA never grows beyond what the last shown ETA (aged by the time since) plus its stated spread allows; an
 * ETA that shrinks is shown at once. Pure, so tests drive it with scripted events and a fake clock.
 */
export function nextShownProgress(
  previous: ShownProgress | null,
  progress: { readonly fraction: number; readonly etaMs?: number | null },
  nowMs: number,
): ShownProgress {
  const fraction = Math.min(1, Math.max(previous?.fraction ?? 0, progress.fraction));
  const raw = progress.etaMs ?? null;
  if (raw === null) {
    return { fraction, etaMs: previous?.etaMs ?? null, spreadMs: previous?.spreadMs ?? null, atMs: nowMs };
  }
  const ceiling =
    previous?.etaMs === null || previous?.etaMs === undefined || previous.spreadMs === null
      ? Number.POSITIVE_INFINITY
      : Math.max(0, previous.etaMs - (nowMs - previous.atMs)) + previous.spreadMs;
  const etaMs = Math.max(0, Math.min(raw, ceiling));
  return { fraction, etaMs, spreadMs: spreadOf(etaMs), atMs: nowMs };
}
