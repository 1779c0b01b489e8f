import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan, type Plan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { STANDARD_PROFILE_SHAPES, type StandardProfileId } from '../../src/domain/io-benchmark.js';
import { MIB } from '../../src/domain/units.js';
import { emptyDisk, facts } from '../rules/facts-builder.js';
import { planFactsFromDocument } from '../../src/use-cases/plan-from-assessment.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/plan-inputs/', import.meta.url));
const fixture = (name: string): PlanFacts =>
  planFactsFromDocument(JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')));

/** The facts with every cipher and argon2 benchmark figure scaled by its own factor (benchmark noise). */
function withNoise(facts: PlanFacts, factors: readonly number[]): PlanFacts {
  let next = 0;
  function noisy<T extends number | null | undefined>(value: T): T {
    const factor = factors[next % factors.length] ?? 1;
    next += 1;
    return (typeof value === 'number' ? Math.round(value * factor) : value) as T;
  }
  const bench = facts.cipherBenchmark;
  return {
    ...facts,
    cipherBenchmark: {
      ...bench,
      cipherSpeed: {
        ...bench?.cipherSpeed,
        measurements: (bench?.cipherSpeed?.measurements ?? []).map((row) => ({
          ...row,
          ...(row.encryptBytesPerSecond === undefined
            ? {}
            : { encryptBytesPerSecond: noisy(row.encryptBytesPerSecond) }),
          ...(row.decryptBytesPerSecond === undefined
            ? {}
            : { decryptBytesPerSecond: noisy(row.decryptBytesPerSecond) }),
        })),
      },
      kdfSpeed: {
        ...bench?.kdfSpeed,
        argon2: (bench?.kdfSpeed?.argon2 ?? []).map((row) => ({
          ...row,
          ...(row.memoryKibibytes === undefined ? {} : { memoryKibibytes: noisy(row.memoryKibibytes) }),
        })),
      },
    },
  };
}

/** What a user acts on: the settings and the recommended values, not the prose around them. */
function decisions(facts: PlanFacts) {
  const plan = buildPlan(facts);
  return {
    cipher: plan.settings.cipher,
    keySizeBits: plan.settings.keySizeBits,
    sectorSizeBytes: plan.settings.sectorSizeBytes,
    workqueueBypass: plan.settings.workqueueBypass,
    allowDiscards: plan.settings.allowDiscards,
    pbkdfMemoryKiB: plan.settings.luks2Pbkdf?.memoryKiB ?? null,
    recommendations: plan.recommendations
      .filter((r) => r.ruleId !== 'luks2-pbkdf')
      .map((r) => [r.ruleId, JSON.stringify(r.value)]),
  };
}

/** Plan inputs from four real machines (fixtures/plan-inputs, each with its PROVENANCE). */
const names = [
  'x64-aesni-laptop-nvme',
  'arm64-aes-rpi5',
  'arm64-no-aes-rpi4-adiantum',
  'arm64-no-aes-rpi4-manjaro',
];

describe('plan stability (issue 11: the same machine gives the same plan)', () => {
  it.each(names)('%s: planning twice gives the identical plan', (name) => {
    expect(buildPlan(fixture(name))).toEqual(buildPlan(fixture(name)));
  });

  it.each(names)('%s: ±3 %% benchmark noise changes no decision', (name) => {
    const base = decisions(fixture(name));
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.97, max: 1.03, noNaN: true }), { minLength: 1, maxLength: 8 }),
        (factors) => {
          expect(decisions(withNoise(fixture(name), factors))).toEqual(base);
        },
      ),
      { numRuns: 40 },
    );
  });
});

/** The settings a user applies (issue 24 item 4): what two runs on one machine must agree on. */
function settingsOf(facts: PlanFacts) {
  const plan = buildPlan(facts);
  const { cipher, keySizeBits, sectorSizeBytes, workqueueBypass, allowDiscards, luks2Pbkdf, space } =
    plan.settings;
  return {
    cipher,
    keySizeBits,
    sectorSizeBytes,
    workqueueBypass,
    allowDiscards,
    argon2MemoryKiB: luks2Pbkdf?.memoryKiB ?? null,
    argon2Threads: luks2Pbkdf?.parallel ?? null,
    space,
    strategy: plan.strategy?.kind ?? null,
  };
}

describe('plan stability under a busy CPU (issue 24: Argon2 memory 1 GiB, 512, 128, 256, 768 MiB on one machine)', () => {
  it.each(names)('%s: a benchmark run while other work holds the CPU gives the same settings', (name) => {
    const idle = settingsOf(fixture(name));
    fc.assert(
      fc.property(fc.double({ min: 0.3, max: 1, noNaN: true }), (share) => {
        // A busy CPU slows every cipher figure alike and makes cryptsetup's argon2id search fill less memory
        // in the time asked (it lowers memory, not time: cryptsetup-luksFormat(8), --pbkdf).
        expect(settingsOf(withNoise(fixture(name), [share]))).toEqual(idle);
      }),
      { numRuns: 40 },
    );
  });
});

/** A measured figure with its recorded spread: the median and the slowest and fastest run. */
interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** One standard profile and direction measured on a target, with the spread of its runs. */
interface MeasuredRow {
  readonly profile: StandardProfileId;
  readonly direction: 'read' | 'write';
  readonly rate: Spread;
}

/** A generated assessment: a real machine's benchmark, a disk, and I/O runs with their spread. */
interface GeneratedAssessment {
  readonly machine: string;
  readonly disk: 'none' | 'empty-ssd' | 'empty-hdd';
  readonly trim: boolean | null;
  readonly targetTool: 'luks2' | 'veracrypt';
  readonly workload: 'desktop' | 'server' | 'write-heavy';
  /** Relative spread of each cipher measurement's repeated runs, in the order of the fixture's rows. */
  readonly cipherSpread: readonly number[];
  /** Relative spread of each PBKDF2 hash's repeated runs (quick revision 6 repeats every hash a rule reads). */
  readonly kdfSpread: readonly number[];
  readonly plain: readonly MeasuredRow[];
  readonly luks2: readonly { readonly variant: string; readonly rows: readonly MeasuredRow[] }[];
}

const spreadOf = (median: number, relative: number): Spread => ({
  median: Math.round(median),
  min: Math.round(median * (1 - relative / 2)),
  max: Math.round(median * (1 + relative / 2)),
});

const PROFILES = ['seq1m-q8t1', 'seq1m-q1t1', 'rnd4k-q32t1', 'rnd4k-q1t1'] as const;
const rowsArbitrary = (scale: number) =>
  fc
    .subarray(
      PROFILES.flatMap((profile) =>
        (['read', 'write'] as const).map((direction) => ({ profile, direction })),
      ),
      { minLength: 1 },
    )
    .chain((cells) =>
      fc.tuple(
        ...cells.map((cell) =>
          fc
            .record({
              mib: fc.double({ min: 20 * scale, max: 3500 * scale, noNaN: true }),
              spread: fc.double({ min: 0, max: 0.2, noNaN: true }),
            })
            .map(({ mib, spread }) => ({ ...cell, rate: spreadOf(mib * MIB, spread) })),
        ),
      ),
    );

const generatedArbitrary: fc.Arbitrary<GeneratedAssessment> = fc.record({
  machine: fc.constantFrom(...names),
  disk: fc.constantFrom('none' as const, 'empty-ssd' as const, 'empty-hdd' as const),
  trim: fc.constantFrom(true, false, null),
  targetTool: fc.constantFrom('luks2' as const, 'veracrypt' as const),
  workload: fc.constantFrom('desktop' as const, 'server' as const, 'write-heavy' as const),
  cipherSpread: fc.array(fc.double({ min: 0, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 8 }),
  kdfSpread: fc.array(fc.double({ min: 0, max: 0.3, noNaN: true }), { minLength: 1, maxLength: 3 }),
  plain: rowsArbitrary(1),
  luks2: fc.uniqueArray(
    fc.record({
      variant: fc.constantFrom(
        'luks2 sector 512',
        'luks2 sector 4096',
        'luks2 sector 512, no workqueues',
        'luks2 sector 4096, no workqueues',
      ),
      rows: rowsArbitrary(0.5),
    }),
    { selector: (target) => target.variant, maxLength: 4 },
  ),
});

/** The summary of repeated runs whose median is `median` and whose runs spread over [min, max]. */
function summaryOf(rate: Spread, median: number) {
  return {
    runCount: 3,
    medianBytesPerSecond: Math.round(median),
    minBytesPerSecond: rate.min,
    maxBytesPerSecond: rate.max,
    spreadPercent: rate.median === 0 ? 0 : ((rate.max - rate.min) / rate.median) * 100,
  };
}

/**
 * The assessment's facts, every measured figure placed at `position` (0 = its slowest run, 1 = its fastest) of
 * its recorded spread, the KDF benchmark slowed to `kdfShare` of its speed (a busy CPU).
 */
function assessmentFacts(shape: GeneratedAssessment, position: () => number, kdfShare: number): PlanFacts {
  const base = fixture(shape.machine);
  const within = (rate: Spread) => rate.min + (rate.max - rate.min) * position();
  const target = (rows: readonly MeasuredRow[]) =>
    rows.map((row) => ({
      profile: {
        id: `${row.profile}-${row.direction}`,
        pattern: STANDARD_PROFILE_SHAPES[row.profile].pattern,
        direction: row.direction,
        blockSizeBytes: STANDARD_PROFILE_SHAPES[row.profile].blockBytes,
        queueDepth: STANDARD_PROFILE_SHAPES[row.profile].queueDepth,
        threads: 1,
      },
      summary: summaryOf(row.rate, within(row.rate)),
    }));
  const bench = base.cipherBenchmark;
  const disk =
    shape.disk === 'none'
      ? {}
      : facts(emptyDisk(250_059_350_016, '/dev/sdz'), {
          media: { kind: shape.disk === 'empty-ssd' ? 'ssd' : 'hdd' },
          disk: { rotational: shape.disk === 'empty-hdd', kernelName: 'sdz' },
          trim: {
            deviceSupportsTrim: shape.trim,
            kernelDiscardMaxBytes: shape.trim === false ? 0 : 2_147_450_880,
          },
        });
  return {
    ...base,
    ...disk,
    cipherBenchmark: {
      ...bench,
      cipherSpeed: {
        ...bench?.cipherSpeed,
        measurements: (bench?.cipherSpeed?.measurements ?? []).map((row, index) => {
          const relative = shape.cipherSpread[index % shape.cipherSpread.length] ?? 0;
          const encrypt = row.encryptBytesPerSecond ?? null;
          if (encrypt === null) {
            return row;
          }
          const recorded = spreadOf(encrypt, relative);
          const moved = within(recorded);
          const ratio = moved / encrypt;
          return {
            ...row,
            // The repeated runs as the assessment records them; the figure the rules read lies among them.
            encryptSamplesBytesPerSecond: [recorded.min, recorded.median, recorded.max],
            encryptBytesPerSecond: Math.round(moved),
            ...(row.decryptBytesPerSecond === null || row.decryptBytesPerSecond === undefined
              ? {}
              : { decryptBytesPerSecond: Math.round(row.decryptBytesPerSecond * ratio) }),
          };
        }),
      },
      kdfSpeed: {
        ...bench?.kdfSpeed,
        pbkdf2: (bench?.kdfSpeed?.pbkdf2 ?? []).map((row, index) => {
          const measured = row.iterationsPerSecond;
          if (measured === undefined || measured === null) {
            return row;
          }
          // Three runs spreading as generated (cryptsetup's PBKDF2 runs on this project's VM spread 12–30 %:
          // fixtures/cryptsetup-benchmark/PROVENANCE-pbkdf2-runs.md); the figure the rules read lies among them,
          // and a busy CPU slows every run alike.
          const recorded = spreadOf(measured, shape.kdfSpread[index % shape.kdfSpread.length] ?? 0);
          return {
            ...row,
            iterationsPerSecondSamples: [recorded.min, recorded.median, recorded.max].map((run) =>
              Math.round(run * kdfShare),
            ),
            iterationsPerSecond: Math.round(within(recorded) * kdfShare),
          };
        }),
        argon2: (bench?.kdfSpeed?.argon2 ?? []).map((row) => ({
          ...row,
          ...(row.memoryKibibytes === undefined || row.memoryKibibytes === null
            ? {}
            : { memoryKibibytes: Math.round(row.memoryKibibytes * kdfShare) }),
        })),
      },
    },
    ioBenchmark: {
      plain: { backend: 'plain', variant: 'plain', profiles: target(shape.plain) },
      encrypted: shape.luks2.map((run) => ({
        backend: 'luks2',
        variant: run.variant,
        profiles: target(run.rows),
      })),
    },
  };
}

/**
 * Every setting a user applies, and the KDF apart from what may follow the measured speed: the iterations (and
 * the unlock time predicted from them), and VeraCrypt's PIM, which is its iteration count.
 */
function appliedSettings(plan: Plan) {
  const { luks2Pbkdf, veracrypt, ...rest } = plan.settings;
  return {
    ...rest,
    luks2Pbkdf:
      luks2Pbkdf === null ? null : { ...luks2Pbkdf, iterations: undefined, predictedUnlockMs: undefined },
    veracrypt:
      veracrypt === null
        ? null
        : { ...veracrypt, pim: undefined, iterations: undefined, predictedUnlockMs: undefined },
    strategy: plan.strategy?.kind ?? null,
    recommendations: plan.recommendations
      .filter((r) => !['luks2-pbkdf', 'veracrypt-pim'].includes(r.ruleId))
      .map((r) => [r.ruleId, JSON.stringify(r.value)]),
  };
}

describe('plan stability over generated assessments (issue 24 item 4: every measured figure within its spread)', () => {
  it('perturbing every measured figure within its recorded spread, and slowing the KDF benchmark, moves no setting; only iterations may follow', () => {
    fc.assert(
      fc.property(
        generatedArbitrary,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 16 }),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        (shape, positions, kdfShare) => {
          const options = { targetTool: shape.targetTool, workload: shape.workload };
          const reference = buildPlan(
            assessmentFacts(shape, () => 0.5, 1),
            options,
          );
          let next = 0;
          const position = () => positions[next++ % positions.length] ?? 0.5;
          const perturbed = buildPlan(assessmentFacts(shape, position, kdfShare), options);
          expect(appliedSettings(perturbed)).toEqual(appliedSettings(reference));
          // Only the iterations move, and only the way the speed did: never up when the KDF ran slower.
          const before = reference.settings.luks2Pbkdf?.iterations ?? null;
          const after = perturbed.settings.luks2Pbkdf?.iterations ?? null;
          expect(after === null).toBe(before === null);
          if (before !== null && after !== null) {
            expect(after).toBeLessThanOrEqual(before);
          }
        },
      ),
      {
        numRuns: 150,
        examples: [
          // Found by this test (seed 1683386687): Twofish's 512-bit speed is derived from its 256-bit row, whose
          // runs' spread was not read, so the cascade against the device compared medians and flipped.
          [
            {
              machine: 'x64-aesni-laptop-nvme',
              disk: 'none',
              trim: true,
              targetTool: 'veracrypt',
              workload: 'desktop',
              cipherSpread: [0],
              kdfSpread: [0],
              plain: [
                {
                  profile: 'seq1m-q8t1',
                  direction: 'write',
                  rate: { median: 864598899, min: 864598894, max: 864598905 },
                },
                {
                  profile: 'rnd4k-q1t1',
                  direction: 'read',
                  rate: { median: 20971520, min: 20971520, max: 20971520 },
                },
                {
                  profile: 'rnd4k-q1t1',
                  direction: 'write',
                  rate: { median: 20971520, min: 20971520, max: 20971520 },
                },
              ],
              luks2: [],
            },
            [0],
            0.3,
          ],
        ],
      },
    );
  });
});
