import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PlanFacts } from '../../src/rules/facts.js';
import { type Pbkdf2Hash } from '../../src/domain/kdf.js';
import { GIB } from '../../src/domain/units.js';
import {
  recommendLuks2Pbkdf,
  recommendVeracryptKdf,
  veracryptIterations,
} from '../../src/rules/key-derivation.js';
import { VERACRYPT_GPU_RATES } from '../../src/rules/reference-rates.js';
import { facts, machine, optionsWith } from './facts-builder.js';

/** The argon2id row cryptsetup benchmark prints, as the assessment's cipherBenchmark.kdfSpeed holds it. */
const bench = (timeCost: number, memoryKibibytes: number, threads: number): PlanFacts => ({
  cipherBenchmark: {
    kdfSpeed: {
      argon2: [
        {
          variant: 'argon2id',
          timeCost,
          memoryKibibytes,
          threads,
          derivedKeyBits: 256,
          requestedDurationMs: 2000,
        },
      ],
    },
  },
});

/** One argon2id row as cryptsetup benchmark prints it (2000 ms asked). */
const row = (timeCost: number, memoryKibibytes: number, threads: number) => ({
  variant: 'argon2id' as const,
  timeCost,
  memoryKibibytes,
  threads,
  derivedKeyBits: 256,
  requestedDurationMs: 2000,
});

describe('recommendLuks2Pbkdf', () => {
  it.each([
    {
      name: 'reproduces the benchmark on the formatting machine itself (x86 laptop: 5 × 1 GiB × 4)',
      input: facts(machine({ cores: 4, memoryBytes: 16 * GIB }), bench(5, 1_048_576, 4)),
      unlock: {},
      expected: { memoryKiB: 1_048_576, parallel: 4, iterations: 5, iterTimeMs: null },
    },
    {
      name: 'gives a 1 GiB, 2-core unlocking machine a quarter of its RAM, its lanes, and keeps 2 s',
      input: facts(machine({ cores: 4 }), bench(5, 1_048_576, 4)),
      unlock: { unlockMachine: { memoryBytes: GIB, cores: 2 } },
      expected: {
        memoryKiB: 262_144,
        parallel: 2,
        iterations: 10,
        iterTimeMs: null,
        predictedUnlockMs: 2000,
      },
    },
    {
      name: 'keeps the policy memory and pins 4 iterations on a slow CPU (Pi 4: 4 × 321984 KiB in 2 s)',
      input: facts(machine({ cores: 4 }), bench(4, 321_984, 4)),
      unlock: { unlockMachine: { memoryBytes: 8 * GIB, cores: 4 } },
      // 4 × 1 GiB at the Pi's measured 0.0062 ms per KiB·iteration·lane over 4 lanes: about 6.5 s (6513 ms).
      expected: { memoryKiB: 1_048_576, parallel: 4, iterations: 4, predictedUnlockMs: 6513 },
    },
    {
      name: 'caps memory at a quarter of a 256 MiB unlocking machine',
      input: facts(machine({ cores: 4 }), bench(5, 1_048_576, 4)),
      unlock: { unlockMachine: { memoryBytes: 256 * 1_048_576, cores: 1 } },
      expected: { memoryKiB: 65_536, parallel: 1 },
    },
    {
      name: 'caps memory at half of the formatting machine, which cryptsetup never exceeds (utils_pbkdf.c)',
      input: facts(machine({ cores: 2, memoryBytes: GIB }), bench(5, 1_048_576, 2)),
      unlock: { unlockMachine: { memoryBytes: 8 * GIB, cores: 4 } },
      expected: { memoryKiB: 524_288, parallel: 2 },
    },
    {
      name: 'never asks a 2 GiB machine without a benchmark for 1 GiB (agama#2907: OOM-killed luksFormat)',
      input: facts(machine({ cores: 2, memoryBytes: 2 * GIB })),
      unlock: {},
      expected: { memoryKiB: 524_288, parallel: 2, iterations: 4, iterTimeMs: null, predictedUnlockMs: null },
    },
    {
      name: 'uses the 256 MiB safe default when neither RAM nor a benchmark is known',
      input: facts(machine({ cores: 4 })),
      unlock: {},
      expected: { memoryKiB: 262_144, parallel: 4, iterations: 4 },
    },
    {
      name: "pins memory, lanes and cryptsetup's minimum iterations without a benchmark (no --iter-time)",
      input: facts(machine({ cores: 8, memoryBytes: 16 * GIB })),
      unlock: {},
      expected: { memoryKiB: 1_048_576, parallel: 4, iterations: 4, iterTimeMs: null },
    },
  ])('$name', ({ input, unlock, expected }) => {
    const result = recommendLuks2Pbkdf(input, optionsWith(unlock));
    expect(result.pbkdf).toMatchObject(expected);
    expect(result.recommendations[0]?.ruleId).toBe('luks2-pbkdf');
  });

  it('says which basis capped the memory', () => {
    const unknown = recommendLuks2Pbkdf(facts(machine({ cores: 4 })), optionsWith());
    expect(unknown.recommendations[0]?.reason).toContain('RAM is unknown');
    const small = recommendLuks2Pbkdf(facts(machine({ cores: 2, memoryBytes: 2 * GIB })), optionsWith());
    expect(small.recommendations[0]?.reason).toContain('a quarter of');
  });

  it('takes memory and lanes from the policy: no argon2id benchmark, however slow, changes them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 12 }),
        fc.integer({ min: 32, max: 1_048_576 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1000, 2000),
        fc.constantFrom(2 * GIB, 8 * GIB, 64 * GIB),
        (timeCost, memoryKiB, threads, targetMs, ram) => {
          const host = machine({ cores: 2, memoryBytes: ram });
          const benched = recommendLuks2Pbkdf(
            facts(host, {
              cipherBenchmark: {
                kdfSpeed: {
                  argon2: [{ ...row(timeCost, memoryKiB, threads), requestedDurationMs: targetMs }],
                },
              },
            }),
            optionsWith(),
          ).pbkdf;
          const unbenched = recommendLuks2Pbkdf(facts(host), optionsWith()).pbkdf;
          expect(benched.memoryKiB).toBe(unbenched.memoryKiB);
          expect(benched.parallel).toBe(unbenched.parallel);
          expect(benched.iterations).toBeGreaterThanOrEqual(4);
          expect(benched.iterTimeMs).toBeNull();
        },
      ),
    );
  });

  it('sizes iterations from the median run, so one run slowed by a busy CPU does not move them', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.5, max: 8, noNaN: true }), (slowdown) => {
        const host = machine({ cores: 4, memoryBytes: 16 * GIB });
        // A busy CPU makes cryptsetup lower the memory it fills in the time asked (1 GiB → 1 GiB / slowdown).
        const idle = row(5, 1_048_576, 4);
        const busy = row(5, Math.round(1_048_576 / slowdown), 4);
        const plan = (rows: ReturnType<typeof row>[]) =>
          recommendLuks2Pbkdf(facts(host, { cipherBenchmark: { kdfSpeed: { argon2: rows } } }), optionsWith())
            .pbkdf;
        expect(plan([idle, busy, idle])).toEqual(plan([idle, idle, idle]));
        expect(plan([busy, idle, idle]).memoryKiB).toBe(plan([idle]).memoryKiB);
      }),
    );
  });

  it('states the spread of the repeated argon2id runs the iterations follow', () => {
    const host = machine({ cores: 4, memoryBytes: 16 * GIB });
    const reason = (rows: ReturnType<typeof row>[]) =>
      recommendLuks2Pbkdf(facts(host, { cipherBenchmark: { kdfSpeed: { argon2: rows } } }), optionsWith())
        .recommendations[0]?.reason;
    // Costs per KiB 1, 1 and 2 (half the memory in the same time): (2 − 1) / 1 = 100 %.
    expect(reason([row(5, 1_048_576, 4), row(5, 524_288, 4), row(5, 1_048_576, 4)])).toContain(
      'the median of 3 argon2id benchmark run(s), whose cost per KiB spread 100 %',
    );
    expect(reason([row(5, 1_048_576, 4)])).not.toContain('spread');
  });

  describe("an argon2id benchmark stopped at cryptsetup's minimum cost is a lower bound (issue 24 item 4)", () => {
    // A loaded CPU: cryptsetup could not meet the 500 ms asked even at 4 iterations and 64 MiB (quick mode).
    const floored = { ...row(4, 65_536, 4), requestedDurationMs: 500 };
    const host = machine({ cores: 4, memoryBytes: 16 * GIB });
    const small = optionsWith({ unlockMachine: { memoryBytes: 256 * 1_048_576, cores: 4 } });
    const pbkdfOf = (rows: ReturnType<typeof row>[], options = small) =>
      recommendLuks2Pbkdf(facts(host, { cipherBenchmark: { kdfSpeed: { argon2: rows } } }), options);

    it('pins cryptsetup\'s minimum iterations and states the unlock time as "at least", in the reason and the JSON', () => {
      const result = pbkdfOf([floored, floored]);
      // Sized from the floored runs, 2000 ms would have asked for 16 iterations at 64 MiB: four times what the
      // 500 ms the benchmark could not even meet suggests.
      expect(result.pbkdf).toMatchObject({
        memoryKiB: 65_536,
        iterations: 4,
        predictedUnlockMs: 500,
        predictedUnlockLowerBound: true,
      });
      const reason = result.recommendations[0]?.reason ?? '';
      expect(reason).toContain("4 iterations, cryptsetup's minimum (at least 500 ms per unlock");
      expect(reason).toContain('not sized from a measurement');
      expect(reason).not.toContain('about 500 ms');
      expect(result.recommendations[0]?.confidence).toBe('medium');
    });

    it('sizes iterations from the runs that met the time asked, and marks them an estimate', () => {
      const idle = { ...row(4, 262_144, 4), requestedDurationMs: 500 };
      const mixed = pbkdfOf([floored, idle, floored]).pbkdf;
      expect(mixed).toEqual(pbkdfOf([idle]).pbkdf);
      expect(mixed.predictedUnlockLowerBound).toBe(false);
      expect(mixed.iterations).toBeGreaterThan(4);
    });

    it('property: however many runs a loaded CPU stops at the minimum, the settings stay the same', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 4 }), fc.constantFrom(500, 1000, 2000), (runs, targetMs) => {
          const rows = Array.from({ length: runs }, () => ({ ...floored, requestedDurationMs: targetMs }));
          const { pbkdf } = pbkdfOf(rows);
          expect(pbkdf.iterations).toBe(4);
          expect(pbkdf.memoryKiB).toBe(pbkdfOf([floored]).pbkdf.memoryKiB);
          expect(pbkdf.predictedUnlockLowerBound).toBe(true);
        }),
      );
    });
  });

  it('says the per-core speed assumption when the unlocking machine differs', () => {
    const result = recommendLuks2Pbkdf(
      facts(machine({ cores: 4 }), bench(5, 1_048_576, 4)),
      optionsWith({ unlockMachine: { memoryBytes: GIB, cores: 2 } }),
    );
    expect(result.recommendations[0]).toMatchObject({ confidence: 'medium' });
    expect(result.recommendations[0]?.reason).toContain('as fast as this one');
  });
});

describe('recommendVeracryptKdf', () => {
  const speeds = (rows: Array<[Pbkdf2Hash, number]>): PlanFacts => ({
    cipherBenchmark: {
      kdfSpeed: {
        pbkdf2: rows.map(([hash, iterationsPerSecond]) => ({
          hash,
          iterationsPerSecond,
          derivedKeyBits: 256,
        })),
      },
    },
  });
  it.each([
    {
      name: 'picks Whirlpool and PIM 1342 for 2 s on the x86 laptop',
      input: facts(
        speeds([
          ['sha512', 1_685_813],
          ['whirlpool', 678_250],
          ['sha256', 4_088_015],
        ]),
      ),
      options: {},
      hash: 'whirlpool',
      pim: 1342,
    },
    {
      name: 'keeps PIM 485 for a short password even when a lower PIM would meet the time',
      input: facts(speeds([['sha512', 1_685_813]])),
      options: { unlockTimeMs: 100, passwordLength: 12 },
      hash: 'sha512',
      pim: 485,
    },
    {
      name: 'allows a low PIM for a password of 20 characters or more',
      input: facts(speeds([['sha512', 1_685_813]])),
      options: { unlockTimeMs: 100, passwordLength: 20 },
      hash: 'sha512',
      // 0.1 s × 1,685,813 = 168,581 iterations → (168,581 − 15,000) / 1000 → 154
      pim: 154,
    },
    {
      name: 'counts two SHA-256 blocks per 64-byte VeraCrypt key',
      input: facts(speeds([['sha256', 4_088_015]])),
      options: {},
      hash: 'sha256',
      // 2 s × 4,088,015 / 2 blocks = 4,088,015 iterations → PIM 4074
      pim: 4074,
    },
    {
      name: 'keeps the defaults without any measurement',
      input: facts(),
      options: {},
      hash: 'sha512',
      pim: 485,
    },
  ])('$name', ({ input, options, hash, pim }) => {
    const result = recommendVeracryptKdf(input, optionsWith({ targetTool: 'veracrypt', ...options }), 1);
    expect(result.kdf).toMatchObject({ hash, pim, iterations: veracryptIterations(pim) });
    expect(result.recommendations.map((r) => r.ruleId)).toEqual(['veracrypt-hash', 'veracrypt-pim']);
  });

  it('leaves SHA-512 for another hash only when its lead lies beyond the spread of the repeated runs', () => {
    // Whirlpool's work per unlock second against SHA-512's, as the rule computes it: iterations/s over hashcat's
    // RTX 4090 rate (both hashes derive VeraCrypt's 64-byte key in one block).
    const rate = (hash: 'sha512' | 'whirlpool') => {
      const gpu = VERACRYPT_GPU_RATES[hash]['rtx-4090']!;
      return gpu.guessesPerSecond * gpu.iterations;
    };
    const sha512 = 1_685_813;
    /** Both hashes run three times, ±5 % around the median; Whirlpool `lead` × SHA-512's attacker work. */
    const repeated = (lead: number): PlanFacts => {
      const whirlpool = Math.round((sha512 / rate('sha512')) * rate('whirlpool') * lead);
      const runs = (median: number) => [0.95, 1, 1.05].map((f) => Math.round(median * f));
      return {
        cipherBenchmark: {
          kdfSpeed: {
            pbkdf2: [
              {
                hash: 'sha512',
                iterationsPerSecond: sha512,
                derivedKeyBits: 256,
                iterationsPerSecondSamples: runs(sha512),
              },
              {
                hash: 'whirlpool',
                iterationsPerSecond: whirlpool,
                derivedKeyBits: 256,
                iterationsPerSecondSamples: runs(whirlpool),
              },
            ],
          },
        },
      };
    };
    const options = optionsWith({ targetTool: 'veracrypt' });
    // 4 % ahead at the medians, but the runs overlap: a medians-only comparison would pick Whirlpool.
    const close = recommendVeracryptKdf(repeated(1.04), options, 1);
    expect(close.kdf.hash).toBe('sha512');
    expect(close.recommendations[0]?.reason).toContain('a lead inside the spread of the repeated runs');
    expect(close.recommendations[0]?.reason).toContain('whirlpool measured 1.04×');
    // 20 % ahead: Whirlpool's slowest run beats SHA-512's fastest, and the reason states the lead with its
    // spread: 0.95 × 1.2 / 1.05 = 1.09 to 1.05 × 1.2 / 0.95 = 1.33.
    const ahead = recommendVeracryptKdf(repeated(1.2), options, 1);
    expect(ahead.kdf.hash).toBe('whirlpool');
    expect(ahead.recommendations[0]?.reason).toContain('sha512 1.2× (1.1–1.3× over their runs)');
  });

  it('words the PIM floor by the rule that set it (a 24-character password is not "under 20")', () => {
    const fast = speeds([['sha512', 1_685_813]]);
    const reasonFor = (passwordLength: number) =>
      recommendVeracryptKdf(
        fast,
        optionsWith({ targetTool: 'veracrypt', unlockTimeMs: 1, passwordLength }),
        1,
      )
        .recommendations.map((r) => r.reason)
        .join(' ');
    expect(reasonFor(24)).not.toContain('under 20 characters');
    expect(reasonFor(24)).toContain('20 or more characters');
    expect(reasonFor(12)).toContain("485 is VeraCrypt's floor for passwords under 20 characters");
  });

  it.each([
    { pim: 485, iterations: 500_000 },
    { pim: 1, iterations: 16_000 },
    { pim: 2000, iterations: 2_015_000 },
  ])('computes $iterations iterations for PIM $pim (15000 + 1000·PIM)', ({ pim, iterations }) => {
    expect(veracryptIterations(pim)).toBe(iterations);
  });
});
