import { median } from '../domain/statistics.js';

/**
 * A measured figure with the range its repeated runs spread over (issue 24 item 4). `spreadKnown` is false after
 * a single run: one run shows no spread, so `low` and `high` are the figure itself and say nothing about noise.
 * A fixed reference (a published figure, zero) is exact: its spread is known to be nil.
 */
export interface MeasuredRange {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly spreadKnown: boolean;
}

/** How a measured difference compares with the spread of the runs it rests on. */
export type SpreadVerdict = 'above' | 'below' | 'within' | 'unknown';

/** A fixed reference value (a published figure, zero): no runs, no spread. */
export function exactly(value: number): MeasuredRange {
  return { value, low: value, high: value, spreadKnown: true };
}

/** The median of repeated runs with the slowest and fastest; null for no runs. */
export function rangeOfRuns(samples: readonly number[]): MeasuredRange | null {
  const value = median(samples);
  if (value === null) {
    return null;
  }
  return { value, low: Math.min(...samples), high: Math.max(...samples), spreadKnown: samples.length > 1 };
}

/** `range` scaled by `factor` (a rate derived from the measured one, e.g. per derived key or per attacker guess). */
export function scaleRange(range: MeasuredRange, factor: number): MeasuredRange {
  const [low, high] = factor >= 0 ? [range.low, range.high] : [range.high, range.low];
  return { ...range, value: range.value * factor, low: low * factor, high: high * factor };
}

/**
 * The one test of every decision that rests on a measured difference (issue 24 item 4: a recommendation "changes
 * only when the difference is larger than the spread"): whether `candidate` lies beyond `reference` by more than
 * the runs of both spread. 'above' when the candidate's slowest run beats the reference's fastest, 'below' when
 * its fastest falls short of the reference's slowest, 'within' when the two ranges overlap (the medians may differ,
 * but a rerun could reverse them), 'unknown' when either figure comes from one run, whose spread is unknown; each
 * rule says what unknown means for it.
 */
export function differenceBeyondSpread(candidate: MeasuredRange, reference: MeasuredRange): SpreadVerdict {
  if (!candidate.spreadKnown || !reference.spreadKnown) {
    return 'unknown';
  }
  if (candidate.low > reference.high) {
    return 'above';
  }
  if (candidate.high < reference.low) {
    return 'below';
  }
  return 'within';
}

/**
 * Whether `candidate` replaces `reference` (the default, or the choice so far): only when it leads beyond the
 * spread of both figures' runs ({@link differenceBeyondSpread}). Figures from single runs have no spread; then
 * `singleRuns` says what the rule does: 'compare-figures' lets the figures decide (the only evidence there is,
 * as before repeated runs existed), 'keep-reference' keeps the reference.
 */
export function leadsBeyondSpread(
  candidate: MeasuredRange,
  reference: MeasuredRange,
  singleRuns: 'compare-figures' | 'keep-reference',
): boolean {
  const verdict = differenceBeyondSpread(candidate, reference);
  if (verdict === 'unknown') {
    return singleRuns === 'compare-figures' && candidate.value > reference.value;
  }
  return verdict === 'above';
}

/**
 * The dead band for a decision whose figures come from single runs, whose spread is unknown: the candidate must
 * exceed the reference by more than 10 %. It is the tolerance cryptsetup gives its own timing benchmark, which
 * accepts a run within 95–110 % of its target as meeting it (cryptsetup lib/crypto_backend/pbkdf_check.c,
 * BENCH_PERCENT_ATLEAST 95 and BENCH_PERCENT_ATMOST 110). Used only where one run is all there is: where both
 * figures have repeated runs, their spread decides ({@link differenceBeyondSpread}).
 */
const SINGLE_RUN_DEAD_BAND = 1.1;

/** How {@link exceedsBeyondNoise} decided: by the runs' spread, or by the fixed band for single runs. */
export type NoiseBasis = 'spread' | 'single-run-dead-band';

/**
 * Whether `candidate` exceeds `reference` by more than noise: beyond the spread of both figures' repeated runs
 * ({@link differenceBeyondSpread} 'above'), or, where either figure comes from one run, by more than
 * {@link SINGLE_RUN_DEAD_BAND} at the medians. `basis` says which test decided, for the rule's reason.
 */
export function exceedsBeyondNoise(
  candidate: MeasuredRange,
  reference: MeasuredRange,
): { readonly exceeds: boolean; readonly basis: NoiseBasis } {
  const verdict = differenceBeyondSpread(candidate, reference);
  return verdict === 'unknown'
    ? { exceeds: candidate.value > reference.value * SINGLE_RUN_DEAD_BAND, basis: 'single-run-dead-band' }
    : { exceeds: verdict === 'above', basis: 'spread' };
}

/**
 * One fio profile's summary as a range: the median with its slowest and fastest run. A summary states its run
 * count; one without says it ran more than once by stating a slowest or fastest run. Null without a median.
 */
export function rangeOfSummary(
  summary:
    | {
        readonly medianBytesPerSecond?: number | null;
        readonly minBytesPerSecond?: number | null;
        readonly maxBytesPerSecond?: number | null;
        readonly runCount?: number | null;
      }
    | null
    | undefined,
): MeasuredRange | null {
  const value = summary?.medianBytesPerSecond;
  if (value === undefined || value === null || value <= 0) {
    return null;
  }
  const low = summary?.minBytesPerSecond ?? null;
  const high = summary?.maxBytesPerSecond ?? null;
  const repeated =
    summary?.runCount === undefined || summary.runCount === null
      ? low !== null || high !== null
      : summary.runCount > 1;
  return {
    value,
    low: repeated && low !== null ? low : value,
    high: repeated && high !== null ? high : value,
    spreadKnown: repeated,
  };
}
