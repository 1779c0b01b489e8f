import { evidence, type Evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { targetOf, type PlanTargetId } from '../targets/registry.js';
import type { PlanFacts } from './facts.js';
import type { RuleResult } from './rule-result.js';

/** The rule id of a target's refusal (a critical finding; the plan then has no commands). */
export const TARGET_ADMISSION = 'target-admission';

/** The disk is behind a USB bridge: lsblk's transport, or TRIM found blocked by the bridge; null: unknown. */
function behindUsbBridge(facts: PlanFacts): boolean | null {
  if (facts.trim?.status === 'blocked-by-bridge') {
    return true;
  }
  const transport = facts.disk?.transport;
  return transport === undefined || transport === 'unknown' ? null : transport === 'usb';
}

/**
 * `target-admission`: a target offered only on request (luks2-opal) is planned only where its own admission
 * check (targets/<id>/: admit) lets it, and what the user gives up by choosing it is stated with the plan
 * (targets/<id>/: tradeOffs). Targets without an admission check pass. When the target is refused, the plan
 * gives no commands (plan.ts) and says why in a critical finding.
 */
export function checkTargetAdmission(
  facts: PlanFacts,
  targetTool: PlanTargetId,
): RuleResult & { readonly admitted: boolean } {
  const target = targetOf(targetTool);
  if (target.admit === undefined) {
    return { recommendations: [], findings: [], admitted: true };
  }
  const usb = behindUsbBridge(facts);
  const sed = facts.sed ?? null;
  const reasons: Evidence[] = [
    evidence('sed.status', sed?.status ?? null, sourceOf('sedutil-cli', '--scan')),
    evidence('sed.opal2', sed?.opal2 ?? null, sourceOf('sedutil-cli', '--scan')),
    evidence('sed.pyrite', sed?.pyrite ?? null, sourceOf('sedutil-cli', '--scan')),
    evidence('disk.transport', facts.disk?.transport ?? null, sourceOf('lsblk', 'tran')),
    ...(sed?.opalLocking === undefined
      ? []
      : [
          evidence(
            'sed.opalLocking.enabled',
            sed.opalLocking.enabled ?? null,
            sourceOf('sedutil-cli', '--query'),
          ),
          evidence(
            'sed.opalLocking.locked',
            sed.opalLocking.locked ?? null,
            sourceOf('sedutil-cli', '--query'),
          ),
          evidence(
            'sed.opalLocking.mbrShadowing.enabled',
            sed.opalLocking.mbrShadowing?.enabled ?? null,
            sourceOf('sedutil-cli', '--query'),
          ),
        ]),
  ];
  const admission = target.admit({ sed, behindUsbBridge: usb });
  if (!admission.admitted) {
    return {
      recommendations: [],
      admitted: false,
      findings: [
        {
          ruleId: TARGET_ADMISSION,
          severity: 'critical',
          message: `--target ${target.id} is not planned for this drive: ${admission.reason} encplan gives no commands for it.`,
          evidence: reasons,
        },
      ],
    };
  }
  const findings: Finding[] = [...target.tradeOffs, ...(admission.notes ?? [])].map((message) => ({
    ruleId: 'target-trade-offs',
    severity: 'warning',
    message,
    evidence: reasons,
  }));
  return { recommendations: [], findings, admitted: true };
}
