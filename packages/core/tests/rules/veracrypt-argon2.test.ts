import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildPlan } from '../../src/plan/plan.js';
import {
  adviseVeracryptArgon2,
  largestVeracryptArgon2Pim,
  veracryptArgon2Cost,
} from '../../src/rules/veracrypt-argon2.js';
import { facts, machine, optionsWith } from './facts-builder.js';

const GIB = 2 ** 30;

describe('VeraCrypt Argon2id: PIM → memory and passes (VeraCrypt documentation, "Argon2id")', () => {
  it('matches the documented examples and the default', () => {
    // "For PIM = 12: Memory Cost = 416 MiB, Time Cost = 6 iterations"; the default equals PIM 2: 96 MiB, 3 passes.
    expect(veracryptArgon2Cost(12)).toEqual({ memoryMiB: 416, passes: 6 });
    expect(veracryptArgon2Cost(2)).toEqual({ memoryMiB: 96, passes: 3 });
    expect(veracryptArgon2Cost(1)).toEqual({ memoryMiB: 64, passes: 3 });
    expect(veracryptArgon2Cost(31)).toEqual({ memoryMiB: 1024, passes: 13 });
    expect(veracryptArgon2Cost(32)).toEqual({ memoryMiB: 1024, passes: 14 });
    expect(veracryptArgon2Cost(485)).toEqual({ memoryMiB: 1024, passes: 467 });
  });

  it('gives the largest PIM that fits, and never one that asks more than the memory given', () => {
    expect(largestVeracryptArgon2Pim(512)).toBe(15);
    expect(largestVeracryptArgon2Pim(63)).toBeNull();
    expect(largestVeracryptArgon2Pim(64)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 64, max: 4096 }), (memoryMiB) => {
        const pim = largestVeracryptArgon2Pim(memoryMiB);
        expect(pim).not.toBeNull();
        expect(veracryptArgon2Cost(pim ?? 0).memoryMiB).toBeLessThanOrEqual(memoryMiB);
        if ((pim ?? 0) < 31) {
          expect(veracryptArgon2Cost((pim ?? 0) + 1).memoryMiB).toBeGreaterThan(memoryMiB);
        }
      }),
    );
  });
});

describe('veracrypt-argon2-pim finding', () => {
  it('caps the PIM by the weakest unlocking machine (2 GiB → 512 MiB → PIM ≤ 15) and warns against reusing the PBKDF2 PIM', () => {
    const result = adviseVeracryptArgon2(
      facts(machine({ memoryBytes: 16 * GIB })),
      optionsWith({ targetTool: 'veracrypt', unlockMachine: { memoryBytes: 2 * GIB, cores: null } }),
      485,
    );
    const message = result.findings[0]?.message ?? '';
    expect(message).toContain('use PIM ≤ 15 (512 MiB, 7 passes)');
    expect(message).toContain(
      'Do not reuse the PBKDF2 PIM 485 with Argon2id: it would ask 1024 MiB and 467 passes',
    );
  });

  it('says every PIM fits at the 1 GiB cap, and to keep PBKDF2 below 64 MiB', () => {
    const big = adviseVeracryptArgon2(
      facts(machine({ memoryBytes: 16 * GIB })),
      optionsWith({ targetTool: 'veracrypt' }),
      485,
    );
    expect(big.findings[0]?.message).toContain('every PIM fits');
    const tiny = adviseVeracryptArgon2(
      facts(machine({ memoryBytes: 16 * GIB })),
      optionsWith({ targetTool: 'veracrypt', unlockMachine: { memoryBytes: 200 * 2 ** 20, cores: null } }),
      485,
    );
    expect(tiny.findings[0]?.message).toContain('Keep PBKDF2');
  });

  it('reaches the VeraCrypt plan, not the LUKS2 plan', () => {
    const input = facts(machine({ aes: true, memoryBytes: 8 * GIB, cores: 4 }));
    const ids = (target: 'veracrypt' | 'luks2') =>
      buildPlan(input, { targetTool: target }).findings.map((finding) => finding.ruleId);
    expect(ids('veracrypt')).toContain('veracrypt-argon2-pim');
    expect(ids('luks2')).not.toContain('veracrypt-argon2-pim');
  });
});
