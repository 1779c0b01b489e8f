import { evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { PlanFacts } from './facts.js';
import { argon2MemoryPolicy } from './key-derivation.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import type { RuleResult } from './rule-result.js';

/**
 * VeraCrypt's Argon2id header KDF (non-system volumes; VeraCrypt documentation doc/html/en/Argon2id.html and
 * "Personal Iterations Multiplier (PIM).html", section "Argon2id Key Derivation", added with commit 26a754b
 * "Documentation: … Add Argon2 related information", after the 1.26.24 release): the PIM sets both costs,
 * m_cost(pim) = min(64 MiB + (pim − 1) × 32 MiB, 1024 MiB); t_cost(pim) = 3 + ⌊(pim − 1) / 3⌋ for pim ≤ 31,
 * else 13 + (pim − 31); parallelism fixed at 1; no PIM = 96 MiB and 3 passes ("equivalent to PIM = 2").
 */
const VERACRYPT_ARGON2 = {
  baseMemoryMiB: 64,
  memoryMiBPerPim: 32,
  maxMemoryMiB: 1024,
  basePasses: 3,
  pimsPerPass: 3,
  cappedPim: 31,
  passesAtCap: 13,
} as const;

/** Memory (MiB) and passes VeraCrypt's Argon2id uses at `pim` (≥ 1; see {@link VERACRYPT_ARGON2}). */
export function veracryptArgon2Cost(pim: number): { readonly memoryMiB: number; readonly passes: number } {
  const v = VERACRYPT_ARGON2;
  return {
    memoryMiB: Math.min(v.baseMemoryMiB + (pim - 1) * v.memoryMiBPerPim, v.maxMemoryMiB),
    passes:
      pim <= v.cappedPim
        ? v.basePasses + Math.floor((pim - 1) / v.pimsPerPass)
        : v.passesAtCap + (pim - v.cappedPim),
  };
}

/** The largest PIM whose Argon2id memory fits in `memoryMiB`; null when even PIM 1 (64 MiB) does not. */
export function largestVeracryptArgon2Pim(memoryMiB: number): number | null {
  const v = VERACRYPT_ARGON2;
  if (memoryMiB < v.baseMemoryMiB) {
    return null;
  }
  // Past 1024 MiB the memory no longer grows with the PIM: the cap, not the machine, stops it there.
  return Math.min(Math.floor((memoryMiB - v.baseMemoryMiB) / v.memoryMiBPerPim) + 1, v.cappedPim);
}

const MIB_PER_KIB = 1024;

/**
 * `veracrypt-argon2-pim` (info finding): where VeraCrypt offers Argon2id instead of PBKDF2, the largest PIM
 * whose memory the weakest unlocking machine can spare (the same policy as LUKS2's Argon2 memory:
 * key-derivation.ts argon2MemoryPolicy), and that the PIM planned for PBKDF2 must not be reused with Argon2id
 * when it asks more.
 */
export function adviseVeracryptArgon2(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  plannedPbkdf2Pim: number,
): RuleResult {
  const policy = argon2MemoryPolicy(facts, options);
  const spareMiB = Math.floor(policy.memoryKiB / MIB_PER_KIB);
  const largest = largestVeracryptArgon2Pim(spareMiB);
  const planned = veracryptArgon2Cost(plannedPbkdf2Pim);
  const source = sourceOf('VeraCrypt documentation', 'Argon2id.html');
  const items = [
    evidence(
      'Argon2id memory the unlocking machine can spare (MiB)',
      spareMiB,
      sourceOf('encplan', 'rule luks2-pbkdf policy'),
    ),
    evidence('largest Argon2id PIM within it', largest, source),
    evidence('planned PBKDF2 PIM', plannedPbkdf2Pim, sourceOf('encplan', 'rule veracrypt-pim')),
  ];
  const formula =
    'PIM p asks min(64 + (p − 1) × 32, 1024) MiB and 3 + ⌊(p − 1)/3⌋ passes on one thread (VeraCrypt documentation, "Argon2id")';
  const reuse =
    largest !== null && plannedPbkdf2Pim > largest
      ? ` Do not reuse the PBKDF2 PIM ${String(plannedPbkdf2Pim)} with Argon2id: it would ask ${String(planned.memoryMiB)} MiB and ${String(planned.passes)} passes.`
      : '';
  const message =
    largest === null
      ? `If you choose Argon2id in VeraCrypt: ${formula}; even PIM 1 needs 64 MiB, more than the ${String(spareMiB)} MiB the unlocking machine can spare (${policy.basis}). Keep PBKDF2.`
      : (() => {
          const cost = veracryptArgon2Cost(largest);
          if (largest === VERACRYPT_ARGON2.cappedPim) {
            return `If you choose Argon2id in VeraCrypt (non-system volumes): ${formula}. The unlocking machine can spare ${String(spareMiB)} MiB (${policy.basis}): every PIM fits, since the memory stops at ${String(cost.memoryMiB)} MiB from PIM ${String(largest)} on and higher PIMs only add passes; no PIM means 96 MiB and 3 passes.`;
          }
          return `If you choose Argon2id in VeraCrypt (non-system volumes): ${formula}. The unlocking machine can spare ${String(spareMiB)} MiB (${policy.basis}): use PIM ≤ ${String(largest)} (${String(cost.memoryMiB)} MiB, ${String(cost.passes)} passes); no PIM means 96 MiB and 3 passes.${reuse}`;
        })();
  return {
    recommendations: [],
    findings: [
      { ruleId: 'veracrypt-argon2-pim', severity: 'info', message, evidence: items } satisfies Finding,
    ],
  };
}
