import { linuxResultOf } from '../../src/contract/assessment.js';
import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { groupRuns, LIST_LIMIT } from '../../src/report/large-layouts.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-23T12:00:00.000Z') };
const MIB = 1024 * 1024;

describe('groupRuns', () => {
  const one = (n: number): string => String(n);
  const many = (run: readonly number[]): string => `${String(run[0])}-${String(run[run.length - 1])}`;
  const parity = (n: number): string | null => (n === 7 ? null : 'same');

  it('leaves a list of up to LIST_LIMIT items as it is', () => {
    const items = Array.from({ length: LIST_LIMIT }, (_, index) => index);
    expect(groupRuns(items, parity, one, many)).toEqual(items.map(String));
  });

  it('groups runs of alike items in a long list, keeping the odd one out and the order', () => {
    const items = Array.from({ length: 20 }, (_, index) => index);
    expect(groupRuns(items, parity, one, many)).toEqual(['0-6', '7', '8-19']);
  });
});

describe('a disk with 128 GPT partitions (a real bundle)', () => {
  const bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-128-partitions-debian12/bundle.json')));

  it('keeps every partition in the JSON, with sizes and free space that add up', async () => {
    const assessed = (await assessBundle(bundle, clock)).result;
    const result = assessed === null ? null : linuxResultOf(assessed);
    if (result === null) {
      throw new Error('no Linux result');
    }
    expect(result.partitions).toHaveLength(128);
    expect(result.partitions.map((part) => part.number)).toEqual(
      Array.from({ length: 128 }, (_, i) => i + 1),
    );
    result.partitions.forEach((part, index) => {
      expect(part.startBytes).toBe((index + 1) * MIB);
      expect(part.sizeBytes).toBe(MIB);
    });
    const partitioned = result.partitions.reduce((sum, part) => sum + part.sizeBytes, 0);
    expect(partitioned).toBe(128 * MIB);
    // 160 MiB = 1 MiB before partition 1 (GPT header and entries, alignment) + 128 MiB + the 31 MiB tail,
    // of which GPT's backup entries and header (33 sectors) are table metadata, not free space.
    expect(result.disk.sizeBytes).toBe(160 * MIB);
    expect(result.space.regions).toEqual([
      expect.objectContaining({ location: 'tail', startBytes: 129 * MIB, sizeBytes: 31 * MIB - 33 * 512 }),
    ]);
    expect(result.space.unallocatedBytes).toBe(31 * MIB - 33 * 512);
  });

  it('plans no command that would add a 129th partition to the full table', async () => {
    const plan = (await assessBundle(bundle, clock)).result?.plan;
    expect(plan?.commands.some((command) => command.argv.includes('sgdisk'))).toBe(false);
    expect(plan?.commands.some((command) => command.id === 'partition-layout')).toBe(false);
    // …and says why, as a warning the summary shows, with the way out (31 MiB are still free).
    expect(plan?.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'gpt-full',
        severity: 'warning',
        message: expect.stringContaining('all 128 entries') as unknown,
      }),
    );
  });

  it('prints a readable text report: the partitions, the stack and the discard paths summarised', async () => {
    const text = renderTextReport(toReportView(await assessBundle(bundle, clock)), { verbose: true });
    const lines = text.split('\n');
    // 128 partitions listed one by one would add 128 lines; the plan's attacker-cost table and the model's
    // assumptions (about 15 lines, the same for any disk) are part of every --verbose report.
    expect(lines.length).toBeLessThan(215);
    expect(text).toContain('Partitions 1–128 (/dev/loop3p1 … /dev/loop3p128)');
    expect(text).toContain('128 × 1.0 MiB from 1.0 MiB to 129.0 MiB');
    expect(text).toContain('loop3p1 … loop3p128: 128 ×');
    expect(text).toContain('Discards from 128 paths (/dev/loop3p1 … /dev/loop3p128) reach the drive.');
    expect(lines.filter((line) => line.includes('loop3p64'))).toEqual([]);
  });
});
