import { z } from 'zod';
import { evidence, type Evidence, type Recommendation } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { formatBytes } from '../domain/units.js';
import { ENDURANCE_NEARLY_EXHAUSTED, healthVerdictSchema } from '../domain/health.js';
import { healthSourceOf, rotationalOf, type PlanFacts } from './facts.js';
import type { RuleResult } from './rule-result.js';

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
 * warning verdict gets "back up first"; an unknown verdict is said plainly. It acts on the assessment's health
 * section as analyses/health.ts judged it (verdict and findings) and judges nothing again.
 */
export function evaluateHealthGate(facts: PlanFacts): RuleResult & { readonly gate: HealthGate } {
  const source = healthSourceOf(facts);
  const verdict = facts.health?.verdict ?? 'unknown';
  const wearPercentUsed = facts.health?.percentageUsed ?? null;
  const judged = facts.health?.findings ?? [];
  const findings = judged.flatMap((finding) =>
    finding.severity === 'info' || finding.message === undefined ? [] : [finding.message],
  );
  const heavilyWorn = judged.some((finding) => finding.id === ENDURANCE_NEARLY_EXHAUSTED);
  const reasons: Evidence[] = [
    evidence('health.verdict', verdict, source),
    evidence('health.percentageUsed', wearPercentUsed, source),
    ...findings.map((text) => evidence('health finding', text, source)),
  ];
  // The analysis writes each finding as a sentence ("304 sectors were reallocated to spare area."): inside the
  // parentheses its full stop would read ".):".
  const findingText =
    findings.length === 0 ? '' : ` (${findings.map((text) => text.replace(/\.$/, '')).join('; ')})`;
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
    evidence: reasons,
    confidence: verdict === 'unknown' ? 'low' : 'high',
  };
  const critical =
    gate.status === 'back-up-first'
      ? [{ ruleId: 'health-gate', severity: 'critical' as const, message: gate.reason, evidence: reasons }]
      : [];
  return { recommendations: [recommendation], findings: critical, gate };
}

/**
 * `in-place-write-cost`: encrypting in place rewrites the whole capacity once; as a share of the rated
 * endurance, and of what remains. The assessment holds no rated TBW, so the endurance is estimated from wear and
 * bytes written (NVMe percentage_used is the share of rated endurance used: NVM Express Base Specification 2.0,
 * SMART / Health Information log, "Percentage Used").
 */
export function estimateInPlaceWriteCost(facts: PlanFacts): RuleResult {
  const size = facts.disk?.sizeBytes ?? null;
  if (size === null || rotationalOf(facts) === true) {
    return { recommendations: [], findings: [] };
  }
  const source = healthSourceOf(facts);
  const dataWrittenBytes = facts.health?.dataWrittenBytes ?? null;
  const wearPercentUsed = facts.health?.percentageUsed ?? null;
  const estimatedRated =
    dataWrittenBytes !== null && wearPercentUsed !== null && wearPercentUsed > 0
      ? (dataWrittenBytes * 100) / wearPercentUsed
      : null;
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
  const basis = 'estimated from wear and bytes written';
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
          evidence('disk.sizeBytes', size, sourceOf('lsblk', 'size')),
          evidence('health.dataWrittenBytes', dataWrittenBytes, source),
          evidence('health.percentageUsed', wearPercentUsed, source),
        ],
        confidence: 'medium',
      },
    ],
    findings: [],
  };
}
