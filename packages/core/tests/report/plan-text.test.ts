import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planFromAssessment } from '@encplan/core';
import { renderPlan } from '../../src/report/plan-text.js';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../fixtures/plan-inputs',
);
const input = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as unknown;

describe('renderPlan', () => {
  it('puts the health gate and its critical finding before the recommendations', () => {
    const text = renderPlan(planFromAssessment(input('sata-failing-realloc304-seagate')), {
      includeDestructive: false,
    });
    const gate = text.indexOf('Health gate: BACK-UP-FIRST (failing)');
    const critical = text.indexOf('[critical] health-gate');
    const recommendations = text.indexOf('Recommendations:');
    expect(gate).toBeGreaterThan(-1);
    expect(gate).toBeLessThan(critical);
    expect(critical).toBeLessThan(recommendations);
  });

  it('shows each recommendation with its value, reason and evidence, rates in MiB/s', () => {
    const text = renderPlan(planFromAssessment(input('x64-aesni-laptop-nvme')), {
      includeDestructive: false,
    });
    expect(text).toContain('cipher-mode: aes-xts-plain64  (confidence high)');
    expect(text).toMatch(/why: The CPU has AES instructions/);
    expect(text).toContain('aes-xts 512b encrypt, one core: 2334.9 MiB/s (cryptsetup: cryptsetup benchmark)');
  });

  it('states the regime and assumption of every prediction', () => {
    const text = renderPlan(planFromAssessment(input('arm64-aes-rpi5')), { includeDestructive: false });
    expect(text).toMatch(/seq1m-q8t1 .*cipher limit/);
    expect(text).toContain('qd1-latency: One small request at a time');
    expect(text).toContain('one-core-stream: One large request at a time');
  });

  it('says where GPU figures do not transfer', () => {
    const text = renderPlan(planFromAssessment(input('x64-aesni-laptop-nvme')), {
      includeDestructive: false,
    });
    expect(text).toContain('luks2-argon2id on rtx-4090, 41.4-bit password: no published figure applies');
  });

  it('ends with the script, destructive lines commented out unless asked', () => {
    // The laptop input names its disk but not its usage; add what `assess` reports for an empty disk.
    const size = 250_059_350_016;
    const plan = planFromAssessment({
      ...(input('x64-aesni-laptop-nvme') as Record<string, unknown>),
      disk: {
        path: '/dev/nvme0n1',
        sizeBytes: size,
        logicalSectorBytes: 512,
        partitionTable: 'none',
        mountpoints: [],
        isSystemDisk: false,
      },
      partitions: [],
      stack: { path: '/dev/nvme0n1', type: 'disk', filesystem: null, mountpoints: [], children: [] },
      space: { regions: [{ startBytes: 0, sizeBytes: size, location: 'whole-disk' }] },
    });
    expect(renderPlan(plan, { includeDestructive: false })).toMatch(
      /Commands \(planning ran none of them\):\n#!\/bin\/sh[\s\S]*^# cryptsetup luksFormat/m,
    );
    expect(renderPlan(plan, { includeDestructive: true })).toMatch(/^cryptsetup luksFormat/m);
  });
});
