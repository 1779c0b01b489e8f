import {
  linuxResultOf,
  type AssessmentResult,
  type DiskSummary,
  type LinuxAssessmentResult,
} from '../contract/assessment.js';
import { EncplanError } from '../errors.js';
import type { ErrorBody, Status } from '../contract/envelope.js';

function discardPathOf(assessment: LinuxAssessmentResult): DiskSummary['discardPath'] {
  const paths = assessment.discardPassthrough.paths.filter((path) => path.filesystemType !== null);
  if (paths.length === 0) {
    return 'no-filesystem';
  }
  const reaching = paths.filter((path) => path.discardsReachDrive === true).length;
  if (paths.some((path) => path.discardsReachDrive === null)) {
    return reaching > 0 ? 'some' : 'unknown';
  }
  return reaching === paths.length ? 'all' : reaching === 0 ? 'none' : 'some';
}

/**
 * Plan findings about the machine rather than the disk (rules/cipher.ts: the kernel's AES driver). `assess
 * --all` reports them once for the machine (see {@link machineFindings}), not on every disk's line.
 */
const MACHINE_RULES: ReadonlySet<string> = new Set(['kernel-aes-driver-unaccelerated']);

/** The machine-level findings of the disks' plans, each message once. */
export function machineFindings(assessments: readonly AssessmentResult[]): string[] {
  const messages = assessments.flatMap((assessment) =>
    (assessment.plan?.findings ?? [])
      .filter((finding) => MACHINE_RULES.has(finding.ruleId))
      .map((finding) => finding.message),
  );
  return [...new Set(messages)];
}

/** The one-line summary of an assessed disk. */
export function summariseDisk(result: AssessmentResult, status: Status): DiskSummary {
  // `assess --all` reads Linux machines only: each disk's result has every Linux section.
  const assessment = linuxResultOf(result);
  if (assessment === null) {
    throw new EncplanError('INTERNAL_ERROR', 'A disk of assess --all has no Linux sections.');
  }
  const fix: string[] = [];
  const add = (text: string | null | undefined): void => {
    if (text !== null && text !== undefined && text !== '' && !fix.includes(text)) {
      fix.push(text);
    }
  };
  const findings = (assessment.plan?.findings ?? []).filter((finding) => !MACHINE_RULES.has(finding.ruleId));
  findings.filter((finding) => finding.severity === 'critical').forEach((finding) => add(finding.message));
  findings.filter((finding) => finding.severity === 'warning').forEach((finding) => add(finding.message));
  add(assessment.trim.fix);
  assessment.discardPassthrough.paths.forEach((path) => add(path.fix));
  const { overProvisioning: spare } = assessment;
  return {
    device: assessment.disk.path,
    model: assessment.disk.model,
    sizeBytes: assessment.disk.sizeBytes,
    status,
    healthVerdict: assessment.health.verdict,
    // The drive's own support: the kernel sending discards ('supported') is not the drive saying it can TRIM,
    // so unknown stays unknown and a drive that says no is not-supported (issue 24 item 5).
    trim:
      assessment.trim.status !== 'supported' || assessment.trim.deviceSupportsTrim === true
        ? assessment.trim.status
        : assessment.trim.deviceSupportsTrim === false
          ? 'not-supported'
          : 'unknown',
    discardPath: discardPathOf(assessment),
    spareArea: spare.status,
    spareAreaPercent:
      spare.diskSizeBytes > 0
        ? Math.round((spare.effectiveSpareBytes / spare.diskSizeBytes) * 1000) / 10
        : null,
    fix,
  };
}

/** The one-line summary of a disk that could not be assessed: its error is what to fix. */
export function summariseFailedDisk(device: string, sizeBytes: number | null, error: ErrorBody): DiskSummary {
  return {
    device,
    model: null,
    sizeBytes,
    status: 'error',
    healthVerdict: 'unknown',
    trim: null,
    discardPath: 'unknown',
    spareArea: null,
    spareAreaPercent: null,
    fix: [`${error.message}${error.hint === null ? '' : ` ${error.hint}`}`],
  };
}
