/**
 * Milliseconds on the monotonic clock, for durations (Node's process.hrtime.bigint(): "relative to an arbitrary time in the
 * past, and not related to the time of day"). Not `performance.now()`: Node builds the `performance` global on first
 * use from 11 built-in modules (perf_hooks, its histograms and observers), ~1 ms of every `assess` that reads it
 * (issue 28, docs/performance.md).
 */
export function monotonicNowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
