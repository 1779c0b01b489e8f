import { describe, expect, it } from 'vitest';
import { summarizeRuns } from '@encplan/core';
import { computeOverhead } from '../../src/analyses/io-overhead.js';
import { median } from '../../src/analyses/run-summary.js';
import { MIB, fioRun, targetMeasurement } from '../../../../tests/support/io-measurements.js';

const run = fioRun;
const target = targetMeasurement;

describe('summarizeRuns', () => {
  it('reports the median and the spread relative to it', () => {
    const summary = summarizeRuns([run(100 * MIB, 10), run(120 * MIB, 30), run(110 * MIB, 20)]);
    expect(summary.medianBytesPerSecond).toBe(110 * MIB);
    expect(summary.spreadPercent).toBeCloseTo((20 / 110) * 100, 6);
    expect(summary.medianCpuPercent).toBe(20);
    expect(summary.medianClatP999Ns).toBeNull();
  });

  it('averages the middle two values of an even count', () => {
    expect(median([1, 4, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('computeOverhead', () => {
  // SEQ1M Q8T1 read is profile 0; RND4K Q1T1 read is profile 3.
  it.each([
    {
      name: 'near-plain throughput is device-bound',
      plain: 500,
      enc: 470,
      cipher: null,
      index: 0,
      bound: 'device',
    },
    {
      name: 'a slow cipher explains a queued run',
      plain: 500,
      enc: 180,
      cipher: 200,
      index: 0,
      bound: 'cipher',
    },
    {
      name: 'far below min(device, cipher) is queueing',
      plain: 500,
      enc: 80,
      cipher: 4000,
      index: 0,
      bound: 'queueing',
    },
    { name: 'QD1 uses the serial model', plain: 100, enc: 75, cipher: 300, index: 3, bound: 'cipher' },
    {
      name: 'without a cipher speed a slow run is undetermined',
      plain: 500,
      enc: 200,
      cipher: null,
      index: 0,
      bound: 'undetermined',
    },
  ])('$name', ({ plain, enc, cipher, index, bound }) => {
    const [overhead] = computeOverhead(
      target('plain', index, [run(plain * MIB, 10)]),
      target('fscrypt', index, [run(enc * MIB, 20)]),
      cipher === null ? null : cipher * MIB,
    );
    expect(overhead!.bound).toBe(bound);
    expect(overhead!.throughputRatio).toBeCloseTo(enc / plain, 6);
    expect(overhead!.cpuPerByteRatio).toBeCloseTo(20 / enc / (10 / plain), 6);
  });

  it('explains an encrypted run faster than plain as caching, not as a free cipher', () => {
    const [overhead] = computeOverhead(
      target('plain', 6, [run(27 * MIB, 22)]),
      target('fscrypt', 6, [run(254 * MIB, 61)]),
      5000 * MIB,
    );
    // The page cache served it: no bound, no ratio, and the reason says it is left out (issue 24).
    expect(overhead!.bound).toBe('undetermined');
    expect(overhead!.boundReason).toMatch(/page cache/);
    expect(overhead!.boundReason).toMatch(/kept out of ratios, charts and the answer/);
    expect(overhead!.throughputRatio).toBeNull();
    expect(overhead!.cpuPerByteRatio).toBeNull();
  });

  it("calls a faster encrypted median within the runs' spread noise, not page cache (issue 24: beyond its spread)", () => {
    // fscrypt RND4K Q1T1 write 132–764 MiB/s against 1.7–40 MiB/s plain (issue 24) is beyond the spread …
    const [cached] = computeOverhead(
      target('plain', 7, [run(1.7 * MIB, 5), run(20 * MIB, 5), run(40 * MIB, 5)]),
      target('fscrypt', 7, [run(132 * MIB, 30), run(400 * MIB, 30), run(764 * MIB, 30)]),
    );
    expect(cached!.throughputRatio).toBeNull();
    // … while overlapping runs are noise around the device's pace.
    const [noisy] = computeOverhead(
      target('plain', 7, [run(20 * MIB, 5), run(30 * MIB, 5), run(60 * MIB, 5)]),
      target('fscrypt', 7, [run(25 * MIB, 5), run(40 * MIB, 5), run(50 * MIB, 5)]),
    );
    expect(noisy!.bound).toBe('device');
    expect(noisy!.throughputRatio).toBeCloseTo(40 / 30, 6);
  });

  it('says "no measurable cost" only when the plain load reached the cipher ceiling, else that it was too light', () => {
    const reached = computeOverhead(
      target('plain', 0, [run(500 * MIB, 10)]),
      target('fscrypt', 0, [run(480 * MIB, 20)]),
      400 * MIB,
    );
    expect(reached[0]!.boundReason).toMatch(/no measurable cost/);
    const light = computeOverhead(
      target('plain', 0, [run(500 * MIB, 10)]),
      target('fscrypt', 0, [run(480 * MIB, 20)]),
      4000 * MIB,
    );
    expect(light[0]!.boundReason).toMatch(/too light to tell/);
    expect(light[0]!.boundReason).toMatch(/harvester\/harvester#11442/);
  });

  it('skips profiles the plain run does not have and reports null ratios for empty plain runs', () => {
    expect(computeOverhead(target('plain', 0, [run(1, 1)]), target('fscrypt', 1, [run(1, 1)]))).toEqual([]);
    const [overhead] = computeOverhead(target('plain', 0, [run(0, 0)]), target('fscrypt', 0, [run(MIB, 1)]));
    expect(overhead!.throughputRatio).toBeNull();
    expect(overhead!.cpuPerByteRatio).toBeNull();
  });
});
