import type { AssessmentResult } from '@encplan/core';
import { formatBytes } from './format.js';
import { renderHealth } from './health.js';

/** Health, TRIM, discard passthrough, SED and spare area: the drive half of the assessment report. */
export function renderDriveSections(result: AssessmentResult): string[] {
  const { trim, discardPassthrough, sed, overProvisioning } = result;
  const lines = ['', renderHealth(result.health), '', `TRIM at the drive: ${trim.status}`, `  ${trim.explanation}`];
  if (trim.fix !== null) {
    lines.push(`  fix: ${trim.fix}`);
  }
  lines.push('', 'Discard passthrough (from each filesystem down to the drive)');
  if (discardPassthrough.paths.length === 0) {
    lines.push('  no filesystem or mapping on this disk yet');
  }
  for (const path of discardPassthrough.paths) {
    const verdict = path.passesToDisk === null ? 'unknown' : path.passesToDisk ? 'discards reach the drive' : `blocked at ${path.firstBlockingLayer ?? 'an unknown layer'}`;
    lines.push(`  ${path.topPath}${path.filesystemType === null ? '' : ` (${path.filesystemType})`}: ${verdict}`);
    for (const layer of path.layers) {
      lines.push(`    ${layer.blocksHere ? '✗' : layer.passesDiscards === true ? '✓' : '?'} ${layer.kernelName} (${layer.kind}): ${layer.reason}`);
    }
    if (path.fix !== null) {
      lines.push(`    fix: ${path.fix}`);
    }
    for (const leak of path.leaks) {
      lines.push(`    leaks: ${leak}`);
    }
  }
  lines.push(
    '',
    `Spare area: ${overProvisioning.status} — ${formatBytes(overProvisioning.unallocatedBytes)} unallocated (${overProvisioning.unallocatedPercent.toFixed(2)} %), counts as spare: ${overProvisioning.unallocatedCountsAsSpare}`,
    ...overProvisioning.advice.map((advice) => `  - ${advice}`),
    '',
    `Self-encrypting drive: ${sed.status} — ${sed.explanation}`,
  );
  return lines;
}

/** Findings about the machine that come before any advice (e.g. the kernel's AES is not accelerated). */
export function renderFindings(result: AssessmentResult): string[] {
  if (result.findings.length === 0) {
    return [];
  }
  return ['', 'First things to fix', ...result.findings.flatMap((finding) => [`  ! ${finding.message}`, `    fix: ${finding.hint}`])];
}
