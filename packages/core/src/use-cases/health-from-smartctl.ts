import { summariseDrive, type DriveSummary } from '../analyses/drive-summary.js';
import {
  assessHealth,
  exitStatusMismatchWarning,
  implausibleValueWarnings,
  smartUnavailableWarning,
} from '../analyses/health.js';
import type { Health } from '../domain/health.js';
import type { Warning } from '../domain/warning.js';
import { parseSmartctlJson } from '../parsers/smartctl/smartctl-json.js';

/** A health section plus the warnings that make an assessment `partial`. */
export interface HealthResult {
  readonly health: Health;
  /** Media kind and TRIM capability from the same output (what `encplan health` adds to the verdict). */
  readonly drive: DriveSummary;
  readonly warnings: readonly Warning[];
}

/**
 * Parses saved or live `smartctl --json` output and judges it. SMART being unavailable is a SMART_UNAVAILABLE
 * warning (verdict `unknown`), and a disagreement between `smartctl.exit_status` and the process exit code a
 * DATA_INCONSISTENT warning. Throws only for output that is not smartctl JSON (TOOL_OUTPUT_UNRECOGNIZED).
 */
export function healthFromSmartctlJson(text: string, processExitCode: number | null = null): HealthResult {
  const report = parseSmartctlJson(text, processExitCode);
  const health = assessHealth(report.facts);
  const warnings: Warning[] = [];
  if (health.unavailable !== null) {
    warnings.push(smartUnavailableWarning(health.unavailable.reason, health.unavailable.detail, 'smartctl'));
  }
  if (report.exitStatusMismatch !== null) {
    warnings.push(exitStatusMismatchWarning(report.exitStatusMismatch));
  }
  warnings.push(...implausibleValueWarnings(report.implausible, 'smartctl'));
  return { health, drive: summariseDrive(report), warnings };
}
