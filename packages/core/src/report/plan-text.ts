import type { Evidence } from '../domain/recommendation.js';
import { formatBytes, formatDuration, formatPercent, formatRate } from '../domain/units.js';
import type { Plan } from '../plan/plan.js';
import { renderPlanScript } from './command-script.js';
import { formatEvidence, formatRecommendationValue, UNKNOWN } from './labels.js';
import { toStrategyView } from './strategy-view.js';

/** How to render a plan for people. */
export interface PlanRenderOptions {
  /** Leave data-destroying commands uncommented in the script (the user's --destructive flag). */
  readonly includeDestructive: boolean;
}

/** Evidence through the shared label table (the same labels as the reports and the wizard). */
function formatEvidenceLine(item: Evidence): string {
  const where =
    item.source.field === null ? item.source.origin : `${item.source.origin}: ${item.source.field}`;
  const { label, value } = formatEvidence(item);
  return `${label}: ${value} (${where})`;
}

function rate(value: number | null): string {
  return value === null ? UNKNOWN : formatRate(value);
}

function percent(value: number | null): string {
  return value === null ? UNKNOWN : formatPercent(value, true);
}

/** The plan as text: strategy, health gate, findings, recommendations with reasons and evidence, predictions, then the script. */
export function renderPlan(plan: Plan, options: PlanRenderOptions): string {
  const lines: string[] = [];
  const device = plan.devicePlaceholder
    ? `${plan.devicePath} (stand-in: the input names no device)`
    : plan.devicePath;
  lines.push(
    `encplan plan for ${device}: ${plan.targetTool}, threat model ${plan.threatModel}, workload ${plan.workload}`,
    '',
  );
  if (plan.strategy !== undefined) {
    const strategy = toStrategyView(plan.strategy);
    lines.push(`Strategy: ${strategy.title}`, `  ${strategy.reason}`);
    lines.push(...strategy.lines.map((line) => `  - ${line}`), '');
  }
  lines.push(
    `Health gate: ${plan.healthGate.status.toUpperCase()} (${plan.healthGate.effectiveVerdict})`,
    `  ${plan.healthGate.reason}`,
    '',
  );

  if (plan.findings.length > 0) {
    lines.push('Fix or know first:');
    for (const finding of plan.findings) {
      lines.push(`  [${finding.severity}] ${finding.ruleId}: ${finding.message}`);
    }
    lines.push('');
  }

  lines.push('Recommendations:');
  for (const recommendation of plan.recommendations) {
    lines.push(
      `  ${recommendation.ruleId}: ${formatRecommendationValue(recommendation.value)}  (confidence ${recommendation.confidence})`,
    );
    lines.push(`    why: ${recommendation.reason}`);
    for (const item of recommendation.evidence) {
      lines.push(`    - ${formatEvidenceLine(item)}`);
    }
  }
  lines.push('');

  const space = plan.settings.space;
  if (space !== null && space.unallocatedBytes > 0) {
    lines.push(
      `Space: leave ${formatBytes(space.unallocatedBytes)} (${space.unallocatedPercent.toFixed(1)} %) unallocated; the partition ends at sector ${String(space.partitionEndSector)}.`,
      '',
    );
  }

  lines.push('Predicted encrypted throughput (read / write):');
  for (const row of plan.predictedPerformance) {
    const measured =
      row.measuredReadBytesPerSecond === null && row.measuredWriteBytesPerSecond === null
        ? ''
        : `  measured ${rate(row.measuredReadBytesPerSecond)} / ${rate(row.measuredWriteBytesPerSecond)} (error ${percent(row.readErrorPercent)} / ${percent(row.writeErrorPercent)})`;
    lines.push(
      `  ${row.profile.padEnd(12)} plain ${rate(row.plainReadBytesPerSecond)} / ${rate(row.plainWriteBytesPerSecond)}  →  ${rate(row.predictedReadBytesPerSecond)} / ${rate(row.predictedWriteBytesPerSecond)}  (cipher limit ${rate(row.cipherReadBytesPerSecond)})${measured}`,
    );
    lines.push(`    ${row.regime}: ${row.assumption}`);
  }
  lines.push('');

  if (plan.attackerCost.length > 0) {
    lines.push('Attacker cost (expected time to guess, one attacker):');
    for (const row of plan.attackerCost) {
      const time =
        row.expectedSeconds === null ? 'no published figure applies' : formatDuration(row.expectedSeconds);
      lines.push(`  ${row.kdf} on ${row.attacker}, ${row.entropyBits.toFixed(1)}-bit password: ${time}`);
    }
    const notes = [...new Set(plan.attackerCost.map((row) => row.note))];
    for (const note of notes) {
      lines.push(`    note: ${note}`);
    }
    lines.push('');
  }

  lines.push(
    'Commands (planning ran none of them):',
    renderPlanScript(plan.commands, options.includeDestructive),
  );
  return lines.join('\n');
}
