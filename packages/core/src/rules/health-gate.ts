import { z } from 'zod';
import { evidence, type Evidence, type Recommendation } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatBytes } from '../domain/units.js';
import { healthVerdictSchema, verdictMeetsThreshold, type HealthThreshold } from '../domain/health.js';
import type { PlanInput } from '../plan/plan-input.js';
import type { RuleResult } from './rule-result.js';

/**
 * Wear at which a drive counts as heavily worn: GSmartControl warns at percentage_used ≥ 90 and
 * CrystalDiskInfo cautions at ≤ 10 % life left (reference-facts §1.11, §1.12).
 */
export const HEAVY_WEAR_PERCENT = 90;

/** What the health gate says before any encryption advice. */
export const healthGateSchema = z.object({
  status: z.enum(['proceed', 'caution', 'back-up-first']),
  /** The verdict the gate acts on: the drive's verdict, raised to `warning` by heavy wear. */
  effectiveVerdict: healthVerdictSchema,
  reason: z.string(),
});
export type HealthGate = z.infer<typeof healthGateSchema>;

/**
 * `health-gate`: a failing or heavily worn drive gets "back up / replace first" ahead of all advice; a
 * warning verdict gets "back up first"; an unknown verdict is said plainly.
 */
export function evaluateHealthGate(input: PlanInput): RuleResult & { readonly gate: HealthGate } {
  const { verdict, wearPercentUsed, findings } = input.health;
  const heavilyWorn = wearPercentUsed !== null && wearPercentUsed >= HEAVY_WEAR_PERCENT;
  const facts: Evidence[] = [
    evidence('health.verdict', verdict, input.health.source),
    evidence('health.wearPercentUsed', wearPercentUsed, input.health.source),
    ...findings.map((text) => evidence('health finding', text, input.health.source)),
  ];
  const findingText = findings.length === 0 ? '' : ` (${findings.join('; ')})`;
  let gate: HealthGate;
  if (verdict === 'failing' || heavilyWorn) {
    gate = {
      status: 'back-up-first',
      effectiveVerdict: verdict === 'failing' ? 'failing' : 'warning',
      reason:
        verdict === 'failing'
          ? `The drive is failing${findingText}: back up now and replace it before encrypting, because encrypting rewrites every sector and a failure mid-way loses data.`
          : `The drive has used ${String(wearPercentUsed)} % of its rated wear: back up and plan its replacement before encrypting, which rewrites the whole capacity.`,
    };
  } else if (verdict === 'warning') {
    gate = {
      status: 'caution',
      effectiveVerdict: 'warning',
      reason: `The drive shows warning signs${findingText}: take a verified backup before encrypting.`,
    };
  } else if (verdict === 'unknown') {
    gate = {
      status: 'caution',
      effectiveVerdict: 'unknown',
      reason:
        "The drive's health could not be read (no SMART data): take a verified backup before encrypting.",
    };
  } else {
    gate = {
      status: 'proceed',
      effectiveVerdict: 'healthy',
      reason: 'The drive reports healthy; a backup before encrypting is still wise.',
    };
  }
  const recommendation: Recommendation = {
    ruleId: 'health-gate',
    value: gate.status,
    reason: gate.reason,
    evidence: facts,
    confidence: verdict === 'unknown' ? 'low' : 'high',
  };
  const critical =
    gate.status === 'back-up-first'
      ? [{ ruleId: 'health-gate', severity: 'critical' as const, message: gate.reason, evidence: facts }]
      : [];
  return { recommendations: [recommendation], findings: critical, gate };
}

/**
 * `in-place-write-cost`: encrypting in place rewrites the whole capacity once; as a share of the rated
 * endurance (TBW), and of what remains — estimated from wear and bytes written when no TBW is known
 * (NVMe percentage_used is the share of rated endurance used, §1.9).
 */
export function estimateInPlaceWriteCost(input: PlanInput): RuleResult {
  const size = input.device.sizeBytes;
  if (size === null || input.device.rotational === true) {
    return { recommendations: [], findings: [] };
  }
  const { ratedEnduranceBytes, dataWrittenBytes, wearPercentUsed } = input.health;
  const estimatedRated =
    ratedEnduranceBytes ??
    (dataWrittenBytes !== null && wearPercentUsed !== null && wearPercentUsed > 0
      ? (dataWrittenBytes * 100) / wearPercentUsed
      : null);
  if (estimatedRated === null) {
    return { recommendations: [], findings: [] };
  }
  const remaining =
    dataWrittenBytes !== null
      ? Math.max(0, estimatedRated - dataWrittenBytes)
      : wearPercentUsed !== null
        ? (estimatedRated * Math.max(0, 100 - wearPercentUsed)) / 100
        : null;
  const percentOfRated = (size / estimatedRated) * 100;
  const percentOfRemaining = remaining === null || remaining === 0 ? null : (size / remaining) * 100;
  const round2 = (value: number) => Math.round(value * 100) / 100;
  const basis = ratedEnduranceBytes === null ? 'estimated from wear and bytes written' : 'rated';
  return {
    recommendations: [
      {
        ruleId: 'in-place-write-cost',
        value: {
          rewriteBytes: size,
          percentOfRatedEndurance: round2(percentOfRated),
          percentOfRemainingEndurance: percentOfRemaining === null ? null : round2(percentOfRemaining),
        },
        reason: `Encrypting in place writes the full ${formatBytes(size)} once: ${round2(percentOfRated).toString()} % of the ${basis} endurance of ${formatBytes(estimatedRated)}${percentOfRemaining === null ? '' : `, ${round2(percentOfRemaining).toString()} % of what remains`}.`,
        evidence: [
          evidence('device.sizeBytes', size, sourceOf('lsblk', 'size')),
          evidence('health.ratedEnduranceBytes', ratedEnduranceBytes, input.health.source),
          evidence('health.dataWrittenBytes', dataWrittenBytes, input.health.source),
          evidence('health.wearPercentUsed', wearPercentUsed, input.health.source),
        ],
        confidence: ratedEnduranceBytes === null ? 'medium' : 'high',
      },
    ],
    findings: [],
  };
}

/** True when `gate`'s effective verdict is at or past `threshold`; unknown meets it only with `unknownFails`. */
export function gateMeetsThreshold(
  gate: HealthGate,
  threshold: HealthThreshold | null,
  options: { readonly unknownFails?: boolean } = {},
): boolean {
  return verdictMeetsThreshold(gate.effectiveVerdict, threshold, options);
}
