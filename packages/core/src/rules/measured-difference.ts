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
