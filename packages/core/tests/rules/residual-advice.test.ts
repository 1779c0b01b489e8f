import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanOptions } from '@encplan/core';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { cipherMiB, ciphers, facts, ioBenchmark, machine } from './facts-builder.js';

const MB = 1e6;
/** The plain device: one sequential 1 MiB stream at 1500 MB/s read. */
const PLAIN = { 'seq1m-q1t1': [1500 * MB, null] } as const;
/** A flash-or-unknown Linux machine whose one core's AES-XTS-512 (2000 MiB/s) outruns the device. */
const base = (extra: PlanFacts = {}): PlanFacts =>
  facts(
    { provenance: { platform: 'linux' } },
    machine({ aes: true, cores: 4, kernel: '6.1.0' }),
    ciphers(cipherMiB('aes-xts', 512, 2000), cipherMiB('aes-xts', 256, 2500)),
    extra,
  );
const measured = (variant: string, readBytesPerSecond: number): PlanFacts =>
  ioBenchmark(PLAIN, [{ variant, rates: { 'seq1m-q1t1': [readBytesPerSecond, null] } }]);
const unmeasured = ioBenchmark(PLAIN);

const plan = (input: PlanFacts, options: PlanOptions = {}) => buildPlan(input, options);
const decision = (input: PlanFacts, ruleId: string, options: PlanOptions = {}) =>
  plan(input, options).recommendations.find((recommendation) => recommendation.ruleId === ruleId);
const fact = (
  recommendation: ReturnType<typeof decision>,
  name: string,
): string | number | boolean | null | undefined =>
  recommendation?.evidence.find((item) => item.fact === name)?.value;

describe('residual-advice: a measurement that contradicts the model moves the advice', () => {
  it('bypasses the workqueues when the stock run is far below the prediction (media unknown)', () => {
    const without = plan(base(unmeasured));
    expect(without.settings.workqueueBypass).toBe(false);

    const stockSlow = base(measured('luks2 sector 4096', 300 * MB));
    const moved = plan(stockSlow);
    expect(moved.settings.workqueueBypass).toBe(true);
    // The commands open the volume with the moved flags.
    const bypass = decision(stockSlow, 'workqueue-bypass');
    expect(bypass?.value).toBe(true);
    expect(bypass?.reason).toMatch(
      /measured 286\.1 MiB\/s in seq1m-q1t1 read against a predicted 1430\.5 MiB\/s \(\+400 %\)/,
    );
    expect(fact(bypass, 'measured encrypted throughput (bytes/s)')).toBe(300 * MB);
    expect(fact(bypass, 'predicted encrypted throughput (bytes/s)')).toBe(1500 * MB);
    expect(fact(bypass, 'residual (%)')).toBe(400);
    expect(fact(bypass, 'moved by')).toBe('performance-residual → workqueue-bypass');
    // The residual finding still explains it against the settings before the move.
    expect(moved.findings.find((finding) => finding.ruleId === 'performance-residual')?.message).toMatch(
      /workqueues/,
    );
  });

  it('moves nothing when the measurement agrees with the model', () => {
    const agreeing = plan(base(measured('luks2 sector 4096', 1400 * MB)));
    const without = plan(base(unmeasured));
    expect(agreeing.settings).toEqual(without.settings);
    expect(agreeing.recommendations).toEqual(without.recommendations);
  });

  it('keeps the workqueues on a spinning disk, an old kernel, or when the bypass was measured too', () => {
    const slow = measured('luks2 sector 4096', 300 * MB);
    expect(plan(base(facts(slow, { media: { kind: 'hdd' } }))).settings.workqueueBypass).toBe(false);
    expect(plan(facts(base(slow), machine({ kernel: '5.4.0' }))).settings.workqueueBypass).toBe(false);
  });

  it('property: below the model by more than 25 % moves the bypass; within it nothing moves', () => {
    const without = plan(base(unmeasured));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: 0.05, max: 0.75, noNaN: true }),
          fc.double({ min: 0.82, max: 1.5, noNaN: true }),
        ),
        (share) => {
          const input = base(measured('luks2 sector 4096', 1500 * MB * share));
          const result = plan(input);
          if (share <= 0.75) {
            expect(result.settings).toEqual({ ...without.settings, workqueueBypass: true });
            expect(fact(decision(input, 'workqueue-bypass'), 'moved by')).toBe(
              'performance-residual → workqueue-bypass',
            );
          } else {
            expect(result.settings).toEqual(without.settings);
          }
          // Planning twice gives the same plan.
          expect(plan(input)).toEqual(result);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a 512-byte run alone cannot confirm 4096-byte sectors: the model has no 512-byte prediction', () => {
    // The run used to be compared with the cipher scaled by 0.44, a share misread from E. Biggers' AES-XTS gain
    // table; no source gives the 512-byte rate, so there is no residual and the choice keeps its own confidence.
    const disk = { disk: { logicalSectorBytes: 512, physicalSectorBytes: 512 } };
    const input = base(facts(measured('luks2 sector 512', 200 * MB), disk));
    const sector = decision(input, 'sector-size');
    expect(sector).toMatchObject({ value: 4096, confidence: 'medium' });
    expect(fact(sector, 'moved by')).toBeUndefined();
    // Without the measurement: the same value, its own reason and confidence.
    expect(decision(base(facts(unmeasured, disk)), 'sector-size')).toMatchObject({
      value: 4096,
      confidence: 'medium',
    });
  });

  describe('key size: a cipher-bound run with the workqueues bypassed', () => {
    // A flash device the cipher (one core, 2000 MiB/s) outruns: not cipher-bound by the model.
    const ssd = { media: { kind: 'ssd' } } as const;
    const slowBypassed = base(facts(ssd, measured('luks2 sector 4096, no workqueues', 700 * MB)));

    it('moves to a 256-bit key under --speed-over-security, naming the figures', () => {
      expect(plan(base(facts(ssd, unmeasured)), { speedOverSecurity: true }).settings.keySizeBits).toBe(512);
      const moved = plan(slowBypassed, { speedOverSecurity: true });
      expect(moved.settings.keySizeBits).toBe(256);
      expect(moved.commands.find((command) => command.id === 'luks-format')?.argv).toEqual(
        expect.arrayContaining(['--key-size', '256']),
      );
      const key = decision(slowBypassed, 'cipher-key-size', { speedOverSecurity: true });
      expect(key?.reason).toMatch(/measured 667\.6 MiB\/s .* predicted 1430\.5 MiB\/s \(\+114 %\)/);
      expect(fact(key, 'moved by')).toBe('performance-residual → cipher-key-size');
    });

    it('keeps the 512-bit key without --speed-over-security', () => {
      expect(plan(slowBypassed).settings.keySizeBits).toBe(512);
    });

    it('decides "cipher-bound" by the spread of repeated runs where both profiles ran more than once', () => {
      /** SEQ1M Q1T1 read: three runs each with this median, slowest and fastest (MB/s). */
      const runs = (median: number, low: number, high: number) => ({
        profile: {
          id: 'seq1m-q1t1-read',
          pattern: 'sequential' as const,
          direction: 'read' as const,
          blockSizeBytes: 1024 * 1024,
          queueDepth: 1,
          threads: 1,
        },
        summary: {
          runCount: 3,
          medianBytesPerSecond: median * MB,
          minBytesPerSecond: low * MB,
          maxBytesPerSecond: high * MB,
        },
      });
      const repeated = (plainLow: number) =>
        base(
          facts(ssd, {
            ioBenchmark: {
              plain: { backend: 'plain', variant: 'plain', profiles: [runs(1500, plainLow, 1600)] },
              encrypted: [
                {
                  backend: 'luks2',
                  variant: 'luks2 sector 4096, no workqueues',
                  profiles: [runs(700, 650, 750)],
                },
              ],
            },
          }),
        );
      // The plain runs reach down to 600 MB/s, inside the encrypted run's 650–750: the loss is within the
      // spread, so the key stays (a fixed 10 % margin at the medians moved it).
      expect(plan(repeated(600), { speedOverSecurity: true }).settings.keySizeBits).toBe(512);
      // The plain runs all beat the encrypted ones: the key moves.
      expect(plan(repeated(1400), { speedOverSecurity: true }).settings.keySizeBits).toBe(256);
    });
  });

  it('makes an unaccelerated kernel AES driver the first thing to fix when a run is far below', () => {
    const generic = {
      kernelCrypto: { xtsAesImplementation: 'generic', xtsAes: { driver: 'xts(ecb(aes-generic))' } },
    } as const;
    const driverOf = (input: PlanFacts) =>
      plan(input).findings.find((finding) => finding.ruleId === 'kernel-aes-driver-unaccelerated');
    expect(driverOf(base(facts(generic, unmeasured)))?.severity).toBe('warning');
    const escalated = driverOf(base(facts(generic, measured('luks2 sector 4096', 300 * MB))));
    expect(escalated?.severity).toBe('critical');
    expect(escalated?.message).toMatch(/Fix this first: .* measured 286\.1 MiB\/s/);
    expect(plan(base(facts(generic, measured('luks2 sector 4096', 300 * MB)))).findings[0]?.ruleId).toBe(
      'kernel-aes-driver-unaccelerated',
    );
  });
});
