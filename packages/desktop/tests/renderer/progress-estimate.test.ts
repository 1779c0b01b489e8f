import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextShownProgress, type ShownProgress } from '../../src/renderer/src/progress-estimate.js';

/** Feeds scripted progress events at scripted times (a fake clock) and returns what the step shows. */
function show(events: readonly { atMs: number; fraction: number; etaMs: number | null }[]): ShownProgress[] {
  const shown: ShownProgress[] = [];
  for (const event of events) {
    shown.push(nextShownProgress(shown.at(-1) ?? null, event, event.atMs));
  }
  return shown;
}

describe('the benchmark step’s progress and time left', () => {
  it('never moves the bar back, and lets the ETA grow by at most its stated spread per update', () => {
    // As issue 27 saw it: 50 % then back, an ETA that jumps from 1.5 s to 16 s.
    const shown = show([
      { atMs: 0, fraction: 0.02, etaMs: null },
      { atMs: 1000, fraction: 0.5, etaMs: 1500 },
      { atMs: 2000, fraction: 0.3, etaMs: 16_000 },
      { atMs: 3000, fraction: 0.7, etaMs: 4000 },
    ]);
    expect(shown.map((entry) => entry.fraction)).toEqual([0.02, 0.5, 0.5, 0.7]);
    expect(shown[0]?.etaMs).toBeNull();
    expect(shown[1]).toMatchObject({ etaMs: 1500, spreadMs: 5000 });
    // 1.5 s aged by 1 s, plus the 5 s spread stated with it: 5.5 s, not 16 s.
    expect(shown[2]?.etaMs).toBe(5500);
    // An ETA that shrinks is shown at once.
    expect(shown[3]?.etaMs).toBe(4000);
  });

  it('holds for any sequence of events', () => {
    const event = fc.record({
      stepMs: fc.integer({ min: 0, max: 10_000 }),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      etaMs: fc.option(fc.integer({ min: 0, max: 3_600_000 })),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (steps) => {
        let atMs = 0;
        const shown = show(
          steps.map((step) => {
            atMs += step.stepMs;
            return { atMs, fraction: step.fraction, etaMs: step.etaMs };
          }),
        );
        shown.forEach((entry, index) => {
          const before = shown[index - 1];
          if (before === undefined) {
            return;
          }
          expect(entry.fraction).toBeGreaterThanOrEqual(before.fraction);
          if (before.etaMs !== null && before.spreadMs !== null && entry.etaMs !== null) {
            expect(entry.etaMs).toBeLessThanOrEqual(before.etaMs + before.spreadMs);
          }
        });
      }),
    );
  });
});
