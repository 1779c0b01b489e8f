import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
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
