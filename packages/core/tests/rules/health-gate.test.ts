import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { healthFromSmartctlJson } from '@encplan/core';
import { estimateInPlaceWriteCost, evaluateHealthGate } from '../../src/rules/health-gate.js';
import { facts } from './facts-builder.js';

/** A real NVMe smartctl capture (Intel DC P4500 at 75 % wear, fixtures/plan-inputs/PROVENANCE.md). */
const WORN_NVME = readFileSync(
  new URL(
    '../../../../fixtures/plan-inputs/sources/nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3.json',
    import.meta.url,
  ),
  'utf8',
);

/** The health section the analysis makes of that capture with percentage_used set to `wear`. */
function healthAtWear(wear: number) {
  const text = WORN_NVME.replace('"percentage_used": 75,', `"percentage_used": ${String(wear)},`);
  return healthFromSmartctlJson(text).health;
}

describe('evaluateHealthGate', () => {
  it.each([
    {
      name: 'stops at "back up / replace first" for a failing drive',
      verdict: 'failing',
      status: 'back-up-first',
      effective: 'failing',
      critical: 1,
    },
    {
      name: 'cautions on a warning verdict',
      verdict: 'warning',
      status: 'caution',
      effective: 'warning',
      critical: 0,
    },
    {
      name: 'cautions when health is unknown',
      verdict: 'unknown',
      status: 'caution',
      effective: 'unknown',
      critical: 0,
    },
    {
      name: 'proceeds on a healthy drive',
      verdict: 'healthy',
      status: 'proceed',
      effective: 'healthy',
      critical: 0,
    },
  ] as const)('$name', ({ verdict, status, effective, critical }) => {
    const result = evaluateHealthGate(
      facts({
        health: {
          verdict,
          findings: [
            { id: 'ata-reallocated-sectors', severity: 'failing', message: 'Reallocated_Sector_Ct raw 304' },
          ],
        },
      }),
    );
    expect(result.gate).toMatchObject({ status, effectiveVerdict: effective });
    expect(result.findings.filter((finding) => finding.severity === 'critical')).toHaveLength(critical);
    expect(result.recommendations[0]).toMatchObject({ ruleId: 'health-gate', value: status });
  });

  it('quotes the health findings inside the reason without their full stops', () => {
    const result = evaluateHealthGate(
      facts({
        health: {
          verdict: 'failing',
          findings: [
            {
              id: 'ata-reallocated-sectors',
              severity: 'failing',
              message: '304 sectors were reallocated to spare area.',
            },
            {
              id: 'ata-pending-sectors',
              severity: 'warning',
              message: '8 sectors are waiting to be reallocated (unreadable).',
            },
          ],
        },
      }),
    );
    expect(result.gate.reason).toContain(
      'The drive is failing (304 sectors were reallocated to spare area; 8 sectors are waiting to be reallocated (unreadable)): back up now',
    );
  });

  it('cautions when the assessment has no health section at all', () => {
    expect(evaluateHealthGate(facts()).gate).toMatchObject({
      status: 'caution',
      effectiveVerdict: 'unknown',
    });
  });

  // Wear is judged once, by the health analysis (≥ 80 % → endurance-low, ≥ 90 % → endurance-nearly-exhausted);
  // the gate acts on its verdict and findings.
  it.each([
    { wear: 95, status: 'back-up-first', effective: 'warning' },
    { wear: 90, status: 'back-up-first', effective: 'warning' },
    { wear: 89, status: 'caution', effective: 'warning' },
    { wear: 80, status: 'caution', effective: 'warning' },
    { wear: 79, status: 'proceed', effective: 'healthy' },
    { wear: 100, status: 'back-up-first', effective: 'failing' },
  ] as const)('gates a real NVMe capture at $wear % wear: $status', ({ wear, status, effective }) => {
    const result = evaluateHealthGate(facts({ health: healthAtWear(wear) }));
    expect(result.gate).toMatchObject({ status, effectiveVerdict: effective });
  });
});

describe('estimateInPlaceWriteCost', () => {
  const TB = 1e12;
  it('estimates the rating from wear and bytes written', () => {
    const result = estimateInPlaceWriteCost(
      facts({
        disk: { sizeBytes: TB },
        media: { kind: 'ssd' },
        health: { dataWrittenBytes: 75 * TB, percentageUsed: 75 },
      }),
    );
    expect(result.recommendations[0]).toMatchObject({
      ruleId: 'in-place-write-cost',
      value: { rewriteBytes: TB, percentOfRatedEndurance: 1, percentOfRemainingEndurance: 4 },
    });
  });

  it.each([
    {
      name: 'says nothing for a rotational disk',
      slice: facts({
        disk: { sizeBytes: 1e12 },
        media: { kind: 'hdd' },
        health: { dataWrittenBytes: 1e14, percentageUsed: 10 },
      }),
    },
    {
      name: 'says nothing without endurance data',
      slice: facts({ disk: { sizeBytes: 1e12 }, media: { kind: 'ssd' } }),
    },
    {
      name: 'says nothing when the wear is unknown (null is not zero)',
      slice: facts({
        disk: { sizeBytes: 1e12 },
        media: { kind: 'ssd' },
        health: { dataWrittenBytes: 1e14, percentageUsed: null },
      }),
    },
  ])('$name', ({ slice }) => {
    expect(estimateInPlaceWriteCost(slice).recommendations).toEqual([]);
  });
});
