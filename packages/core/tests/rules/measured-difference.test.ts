import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  differenceBeyondSpread,
  exactly,
  leadsBeyondSpread,
  rangeOfRuns,
  scaleRange,
} from '../../src/rules/measured-difference.js';

describe('differenceBeyondSpread (issue 24 item 4: a difference decides only beyond its spread)', () => {
  it('says within when the medians differ but the runs overlap', () => {
    const a = rangeOfRuns([95, 104, 110])!;
    const b = rangeOfRuns([96, 100, 105])!;
    // The medians alone say a is 4 % faster; the runs say a rerun could reverse it.
    expect(a.value).toBeGreaterThan(b.value);
    expect(differenceBeyondSpread(a, b)).toBe('within');
    expect(leadsBeyondSpread(a, b, 'compare-figures')).toBe(false);
  });

  it('says above or below only when the slowest run of one beats the fastest of the other', () => {
    expect(differenceBeyondSpread(rangeOfRuns([120, 125, 130])!, rangeOfRuns([95, 100, 105])!)).toBe('above');
    expect(differenceBeyondSpread(rangeOfRuns([70, 80, 90])!, rangeOfRuns([95, 100, 105])!)).toBe('below');
  });

  it('says unknown for a single run, and the rule chooses what that means', () => {
    const one = rangeOfRuns([130])!;
    const three = rangeOfRuns([95, 100, 105])!;
    expect(one.spreadKnown).toBe(false);
    expect(differenceBeyondSpread(one, three)).toBe('unknown');
    expect(leadsBeyondSpread(one, three, 'compare-figures')).toBe(true);
    expect(leadsBeyondSpread(one, three, 'keep-reference')).toBe(false);
    expect(rangeOfRuns([])).toBeNull();
  });

  it('compares a spread of runs with an exact reference (zero, a published figure)', () => {
    const gain = { value: 20, low: -3, high: 40, spreadKnown: true };
    expect(differenceBeyondSpread(gain, exactly(0))).toBe('within');
    expect(differenceBeyondSpread({ ...gain, low: 5 }, exactly(0))).toBe('above');
  });

  it('never calls a difference beyond the spread when the runs of the two overlap (any runs)', () => {
    const runs = fc.array(fc.double({ min: 1, max: 1e9, noNaN: true }), { minLength: 2, maxLength: 9 });
    fc.assert(
      fc.property(runs, runs, fc.double({ min: 0.01, max: 100, noNaN: true }), (a, b, factor) => {
        const left = rangeOfRuns(a)!;
        const right = rangeOfRuns(b)!;
        const verdict = differenceBeyondSpread(left, right);
        const overlap = Math.min(...a) <= Math.max(...b) && Math.min(...b) <= Math.max(...a);
        expect(verdict === 'within').toBe(overlap);
        // Scaling both sides alike (a rate per derived key, per guess) never changes the verdict.
        expect(differenceBeyondSpread(scaleRange(left, factor), scaleRange(right, factor))).toBe(verdict);
      }),
    );
  });
});
