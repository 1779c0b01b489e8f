import type { Health, HealthFinding } from '../domain/health.js';
import { formatBytes } from '../domain/units.js';

const VERDICT_LINES: Readonly<Record<Health['verdict'], string>> = {
  healthy: 'HEALTHY: no SMART finding suggests the drive is wearing out or failing.',
  warning: 'WARNING: the drive shows signs of wear or errors; back it up and watch it.',
  failing: 'FAILING: replace this drive before you encrypt it; back up its data first.',
  unknown: 'UNKNOWN: SMART data could not be read.',
};

const SEVERITY_MARKS: Readonly<Record<HealthFinding['severity'], string>> = {
  failing: '!!',
  warning: ' !',
  info: '  ',
};

function formatSource(finding: HealthFinding): string {
  const where =
    finding.source.field === null
      ? finding.source.origin
      : `${finding.source.origin} ${finding.source.field}`;
  const rule =
    finding.threshold === null
      ? ''
      : `; rule ${finding.threshold}${finding.thresholdSource === null ? '' : ` (${finding.thresholdSource})`}`;
  return `from ${where}${rule}`;
}

/** The health section as human text: the verdict first, then the key figures, then each finding with its source. */
export function renderHealth(health: Health): string {
  const lines: string[] = [`Health: ${VERDICT_LINES[health.verdict]}`];
  const identity = [
    health.model,
    health.protocol === 'unknown' ? null : health.protocol.toUpperCase(),
    health.smartctlDeviceType === null ? null : `-d ${health.smartctlDeviceType}`,
  ]
    .filter((part) => part !== null)
    .join(', ');
  if (identity !== '') {
    lines.push(
      `  Drive: ${identity}${health.toolVersion === null ? '' : ` (${health.source} ${health.toolVersion})`}`,
    );
  }
  if (health.unavailable !== null) {
    lines.push(`  Why: ${health.unavailable.reason}: ${health.unavailable.detail}`);
    return lines.join('\n');
  }
  const figures: string[] = [];
  if (health.percentageUsed !== null) {
    figures.push(`endurance used ${health.percentageUsed} %`);
  }
  if (health.estimatedRemainingLifeYears !== null) {
    figures.push(`~${health.estimatedRemainingLifeYears} years left at the wear rate so far`);
  }
  if (health.availableSparePercent !== null) {
    figures.push(
      `spare ${health.availableSparePercent} %${health.availableSpareThresholdPercent === null ? '' : ` (threshold ${health.availableSpareThresholdPercent} %)`}`,
    );
  }
  if (health.dataWrittenBytes !== null) {
    figures.push(`written ${formatBytes(health.dataWrittenBytes)}`);
  }
  if (health.powerOnHours !== null) {
    figures.push(`${health.powerOnHours} power-on hours`);
  }
  if (health.temperatureCelsius !== null) {
    figures.push(`${health.temperatureCelsius} °C`);
  }
  if (figures.length > 0) {
    lines.push(`  ${figures.join(' · ')}`);
  }
  const ordered = [...health.findings].sort((a, b) => rank(b) - rank(a));
  for (const finding of ordered) {
    lines.push(`  ${SEVERITY_MARKS[finding.severity]} ${finding.message}`);
    lines.push(`       ${formatSource(finding)}`);
  }
  return lines.join('\n');
}

function rank(finding: HealthFinding): number {
  return finding.severity === 'failing' ? 2 : finding.severity === 'warning' ? 1 : 0;
}
