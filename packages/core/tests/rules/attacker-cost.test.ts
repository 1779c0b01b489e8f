import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTROPY_BITS } from '../../src/rules/plan-options.js';
import {
  estimateLuks2AttackerCost,
  estimateVeracryptAttackerCost,
  expectedGuessSeconds,
} from '../../src/rules/attacker-cost.js';
import { veracryptIterations } from '../../src/rules/key-derivation.js';

const YEAR = 365.25 * 24 * 3600;

describe('attacker cost', () => {
  // The rows of reference-facts §4.2 (RTX 4090, VeraCrypt SHA-512): [PIM, 8 random a-z0-9, 10 random a-z0-9].
  it.each([
    { pim: 485, eightCharsYears: 6.9, tenCharsYears: 9100 },
    { pim: 1000, eightCharsYears: 14, tenCharsYears: 18_300 },
    { pim: 2000, eightCharsYears: 28, tenCharsYears: 36_000 },
  ])(
    'reproduces the reference table for PIM $pim on an RTX 4090',
    ({ pim, eightCharsYears, tenCharsYears }) => {
      const rows = estimateVeracryptAttackerCost(
        {
          hash: 'sha512',
          pim,
          iterations: veracryptIterations(pim),
          derivationsPerSecond: null,
          predictedUnlockMs: null,
        },
        DEFAULT_ENTROPY_BITS,
      ).filter((row) => row.attacker === 'rtx-4090');
      expect(rows).toHaveLength(3);
      const relativeError = (seconds: number | null | undefined, years: number) =>
        Math.abs((seconds ?? 0) / YEAR - years) / years;
      // The table rounds to two significant figures.
      expect(relativeError(rows[0]?.expectedSeconds, eightCharsYears)).toBeLessThan(0.03);
      expect(relativeError(rows[1]?.expectedSeconds, tenCharsYears)).toBeLessThan(0.03);
    },
  );

  it('gives rows for every GPU with a published rate, and only Whirlpool on the RTX 4090', () => {
    const sha = estimateVeracryptAttackerCost(
      { hash: 'sha512', pim: 485, iterations: 500_000, derivationsPerSecond: null, predictedUnlockMs: null },
      [40],
    );
    const whirlpool = estimateVeracryptAttackerCost(
      {
        hash: 'whirlpool',
        pim: 485,
        iterations: 500_000,
        derivationsPerSecond: null,
        predictedUnlockMs: null,
      },
      [40],
    );
    expect(sha.map((row) => row.attacker)).toEqual(['rtx-4090', 'rtx-5090', 'h100-pcie']);
    expect(whirlpool.map((row) => [row.attacker, row.guessesPerSecond])).toEqual([['rtx-4090', 776]]);
  });

  it('marks GPU figures as not transferring to argon2id and prices guesses in unlock times instead', () => {
    const rows = estimateLuks2AttackerCost(
      { memoryKiB: 1_048_576, parallel: 4, iterations: 5, iterTimeMs: null, predictedUnlockMs: 2000 },
      [41],
    );
    expect(rows.find((row) => row.attacker === 'rtx-4090')).toMatchObject({
      transfers: false,
      guessesPerSecond: null,
      expectedSeconds: null,
    });
    expect(rows.find((row) => row.attacker === 'unlock-machine')).toMatchObject({
      transfers: true,
      guessesPerSecond: 0.5,
      expectedSeconds: 2 ** 40 * 2,
    });
  });

  it('averages half the key space', () => {
    expect(expectedGuessSeconds(10, 1)).toBe(512);
  });
});
