import { describe, expect, it } from 'vitest';
import {
  assessBundle,
  buildPlan,
  parseBundle,
  planInputFromAssessment,
  planInputSchema,
  type AssessmentResult,
} from '@encplan/core';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };

async function assessedLoop(): Promise<AssessmentResult> {
  const bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));
  const envelope = await assessBundle(bundle, clock);
  if (envelope.result === null) {
    throw new Error('the bundle did not assess');
  }
  return envelope.result;
}

describe('planInputFromAssessment on a real loop-device bundle', () => {
  it('maps the CPU, disk, space and partitions it knows, and leaves the rest unknown', async () => {
    const input = planInputFromAssessment(await assessedLoop());
    expect(planInputSchema.parse(input)).toEqual(input);
    expect(input.os).toBe('linux');
    expect(input.cpu).toMatchObject({ hasAes: true, arch: expect.any(String) as string });
    expect(input.device).toMatchObject({
      path: '/dev/loop0',
      transport: 'loop',
      rotational: null,
      sizeBytes: 1_073_741_824,
      logicalSectorBytes: 512,
    });
    // The only partition spans 1 MiB … 1 MiB + 836,763,648 bytes: last sector (1,048,576 + 836,763,648) / 512 − 1.
    expect(input.space).toMatchObject({ partitionTable: 'gpt', lastPartitionEndSector: 1_636_351 });
    expect(input.health.verdict).toBe('unknown');
    expect(input.trim.passthroughKnown).toBe(false);
    expect(input.existingEncryption).toBeNull();
  });

  it('gives a plan that adds the LUKS partition after the existing one, leaving a tail', async () => {
    const plan = buildPlan(planInputFromAssessment(await assessedLoop()));
    const layout = plan.commands.find((command) => command.id === 'partition-layout');
    expect(layout?.argv[1]).toMatch(/^--new=0:1636352:\d+$/);
    expect(plan.settings.cipher).toBe('aes-xts-plain64');
    expect(plan.settings.space?.unallocatedBytes ?? 0).toBeGreaterThan(0);
  });
});
