import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import { toPlanView, toReportView } from '../../src/report/report-view.js';
import { storageSectionViews } from '../../src/report/storage-sections.js';
import { recommendCipherMode, recommendKeySize } from '../../src/rules/cipher.js';
import { GIB } from '../../src/domain/units.js';
import { fixture } from '../support/fixtures.js';
import { parseBundle } from '../../src/capture/bundle.js';
import { assessBundle } from '../../src/use-cases/collect.js';

const clock = { now: () => new Date('2026-11-23T00:00:00Z') };
import {
  cipherMiB,
  ciphers,
  emptyDisk,
  facts,
  ioBenchmark,
  machine,
  optionsWith,
} from '../rules/facts-builder.js';

/** The real loop-device assessment (fixtures/assessments/PROVENANCE.md) with its TRIM facts replaced. */
function loopWithTrim(deviceSupportsTrim: boolean | null) {
  const document = JSON.parse(fixture('assessments/loop-empty-debian12.json'));
  document.result.trim = { ...document.result.trim, status: 'supported', deviceSupportsTrim };
  return toReportView(document).sections.find((section) => section.id === 'trim');
}

describe('a badge shows a fact only as known as the fact is (issue 24 item 5)', () => {
  it('never puts a green "supported" over "Drive supports TRIM: no" or unknown when only the kernel sends discards', () => {
    expect(loopWithTrim(true)).toMatchObject({ tone: 'good', verdict: 'supported' });
    const no = loopWithTrim(false);
    expect(no).toMatchObject({ tone: 'attention', verdict: 'kernel sends discards' });
    expect(no?.facts).toContainEqual(expect.objectContaining({ label: 'Drive supports TRIM', value: 'no' }));
    expect(loopWithTrim(null)).toMatchObject({ tone: 'unknown', verdict: 'kernel sends discards' });
  });

  it('says an unknown operating-system TRIM is unknown on the platforms, never "does not support"', async () => {
    // The real Windows 11 assessment (fixtures/bundles/…/PROVENANCE.md) with its TRIM facts replaced.
    const bundle = parseBundle(
      JSON.parse(fixture('bundles/windows-win11-bc901-bitlocker-xtsaes128/bundle.json')),
    );
    const storage = (await assessBundle(bundle, clock)).result?.storage;
    if (storage === undefined) {
      throw new Error('the Windows fixture has no storage model');
    }
    const trimOf = (driveSupports: boolean | null, osSends: boolean | null) =>
      storageSectionViews(
        { ...storage, disk: { ...storage.disk, trim: { driveSupports, osSends, source: 'fsutil' } } },
        [],
      ).find((section) => section.id === 'trim');
    expect(trimOf(true, null)).toMatchObject({ tone: 'unknown' });
    expect(trimOf(true, null)?.summary).not.toContain('does not support');
    expect(trimOf(null, null)).toMatchObject({ tone: 'unknown' });
    expect(trimOf(false, null)).toMatchObject({
      tone: 'attention',
      summary: 'The drive does not support TRIM.',
    });
    expect(trimOf(true, true)).toMatchObject({ tone: 'good' });
  });

  it('prints "measured here" only for a recommendation that rests on a measurement made here', () => {
    const plan = buildPlan(
      facts(
        emptyDisk(64 * GIB, '/dev/sdz', 4096),
        { health: { verdict: 'healthy' }, disk: { physicalSectorBytes: 4096 } },
        machine({ aes: true, cores: 4, memoryBytes: 16 * GIB }),
        ciphers(cipherMiB('aes-xts', 256, 2000), cipherMiB('aes-xts', 512, 1600)),
      ),
    );
    const view = toPlanView(plan, null);
    const confidence = (ruleId: string) =>
      view.recommendations.find((entry) => entry.ruleId === ruleId)?.confidence;
    // The sector size follows the drive's reported geometry: high, but nothing was measured for it.
    expect(plan.recommendations.find((entry) => entry.ruleId === 'sector-size')?.confidence).toBe('high');
    expect(confidence('sector-size')).toBe('high (from what this machine reports)');
    expect(confidence('sector-size')).not.toContain('measured');
  });

  it('says an unknown core count is unknown, never "all 1 cores"', () => {
    const input = facts(
      machine({ aes: true }),
      ciphers(cipherMiB('aes-xts', 256, 1000), cipherMiB('aes-xts', 512, 800)),
      ioBenchmark({ 'seq1m-q8t1': [3000 * 1_048_576, 3000 * 1_048_576] }),
    );
    const options = optionsWith();
    const reason = recommendKeySize(input, options, recommendCipherMode(input, options).choice)
      .recommendations[0]?.reason;
    expect(reason).toContain('the number of cores is unknown');
    expect(reason).not.toMatch(/all 1 cores/);
  });
});
