import { describe, expect, it } from 'vitest';
import { estimateInPlaceWriteCost, evaluateHealthGate } from '../../src/rules/health-gate.js';
import { inputWith } from './plan-input-builder.js';

describe('evaluateHealthGate', () => {
  it.each([
    {
      name: 'stops at "back up / replace first" for a failing drive',
      verdict: 'failing',
      wear: null,
      status: 'back-up-first',
      effective: 'failing',
      critical: 1,
    },
    {
      name: 'stops a healthy-looking drive at 95 % wear',
      verdict: 'healthy',
      wear: 95,
      status: 'back-up-first',
      effective: 'warning',
      critical: 1,
    },
    {
      name: 'stops exactly at 90 % wear',
      verdict: 'healthy',
      wear: 90,
      status: 'back-up-first',
      effective: 'warning',
      critical: 1,
    },
    {
      name: 'lets 89 % wear proceed',
      verdict: 'healthy',
      wear: 89,
      status: 'proceed',
      effective: 'healthy',
      critical: 0,
    },
    {
      name: 'cautions on a warning verdict',
      verdict: 'warning',
      wear: null,
      status: 'caution',
      effective: 'warning',
      critical: 0,
    },
    {
      name: 'cautions when health is unknown',
      verdict: 'unknown',
      wear: null,
      status: 'caution',
      effective: 'unknown',
      critical: 0,
    },
  ] as const)('$name', ({ verdict, wear, status, effective, critical }) => {
    const result = evaluateHealthGate(
      inputWith({
        health: { verdict: verdict, wearPercentUsed: wear, findings: ['Reallocated_Sector_Ct raw 304'] },
      }),
    );
    expect(result.gate).toMatchObject({ status, effectiveVerdict: effective });
    expect(result.findings.filter((finding) => finding.severity === 'critical')).toHaveLength(critical);
    expect(result.recommendations[0]).toMatchObject({ ruleId: 'health-gate', value: status });
  });
});

describe('estimateInPlaceWriteCost', () => {
  const TB = 1e12;
  it.each([
    {
      name: 'uses the rated TBW when known',
      health: { ratedEnduranceBytes: 600 * TB, dataWrittenBytes: 100 * TB, wearPercentUsed: null },
      rated: 0.17,
      remaining: 0.2,
    },
    {
      name: 'estimates the rating from wear and bytes written',
      health: { ratedEnduranceBytes: null, dataWrittenBytes: 75 * TB, wearPercentUsed: 75 },
      rated: 1,
      remaining: 4,
    },
  ])('$name', ({ health, rated, remaining }) => {
    const result = estimateInPlaceWriteCost(
      inputWith({ device: { sizeBytes: TB, rotational: false }, health }),
    );
    expect(result.recommendations[0]).toMatchObject({
      ruleId: 'in-place-write-cost',
      value: { rewriteBytes: TB, percentOfRatedEndurance: rated, percentOfRemainingEndurance: remaining },
    });
  });

  it.each([
    {
      name: 'says nothing for a rotational disk',
      device: { sizeBytes: 1e12, rotational: true },
      health: { ratedEnduranceBytes: 1e15 },
    },
    {
      name: 'says nothing without endurance data',
      device: { sizeBytes: 1e12, rotational: false },
      health: {},
    },
  ])('$name', ({ device, health }) => {
    expect(estimateInPlaceWriteCost(inputWith({ device, health })).recommendations).toEqual([]);
  });
});
