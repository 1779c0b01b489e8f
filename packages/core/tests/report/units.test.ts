import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatRate } from '@encplan/core';
import { formatPercent } from '../../src/domain/units.js';
import { formatBytesExact, formatDurationMs } from '../../src/domain/units.js';

const IEC = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4, PiB: 1024 ** 5 } as const;

describe('the one unit formatter', () => {
  it.each([
    [4096, '4.0 KiB'],
    [512, '512 B'],
    [1_000_204_886_016, '931.5 GiB'],
    [2_567_440_000_000_000, '2.3 PiB'],
    [1024 * 1024 - 1, '1.0 MiB'],
  ])('writes %d bytes as %s (IEC, never kB or GB)', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('reads back within rounding, with a unit below 1024 of its kind, for every size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (bytes) => {
        const match = /^(\d+(?:\.\d)?) (B|KiB|MiB|GiB|TiB|PiB)$/.exec(formatBytes(bytes));
        expect(match).not.toBeNull();
        const value = Number(match![1]);
        const unit = IEC[match![2] as keyof typeof IEC];
        if (match![2] !== 'PiB') {
          expect(value).toBeLessThan(1024);
        }
        expect(Math.abs(value * unit - bytes)).toBeLessThanOrEqual(0.05 * unit + 0.5);
      }),
    );
  });

  it('keeps the exact byte count a script can read', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1024, max: Number.MAX_SAFE_INTEGER }), (bytes) => {
        expect(formatBytesExact(bytes)).toBe(`${formatBytes(bytes)} (${String(bytes)} bytes)`);
      }),
    );
  });

  it('writes rates in MiB/s (KiB/s below 1 MiB/s), monotonic in the rate', () => {
    expect(formatRate(992_034_816)).toBe('946.1 MiB/s');
    expect(formatRate(4096)).toBe('4.0 KiB/s');
    fc.assert(
      fc.property(
        fc.integer({ min: 1024 * 1024, max: 2 ** 45 }),
        fc.integer({ min: 1024 * 1024, max: 2 ** 45 }),
        (a, b) => {
          const read = (text: string): number => Number(text.replace(' MiB/s', ''));
          if (a <= b) {
            expect(read(formatRate(a))).toBeLessThanOrEqual(read(formatRate(b)));
          }
        },
      ),
    );
  });

  it('writes percentages and durations', () => {
    expect(formatPercent(78.26)).toBe('78.3 %');
    expect(formatPercent(-0.01)).toBe('0.0 %');
    expect(formatDurationMs(850)).toBe('850 ms');
    expect(formatDurationMs(2000)).toBe('2.0 s');
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (percent) => {
        expect(formatPercent(percent)).toMatch(/^\d{1,3}\.\d %$/);
      }),
    );
  });
});
