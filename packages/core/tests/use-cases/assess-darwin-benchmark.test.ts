import { describe, expect, it } from 'vitest';
import { assessBundle } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { fixture } from '../support/fixtures.js';

// assess --benchmark on macOS over committed bundles: where the images may go, and what a missing fio costs.
const clock = { now: () => new Date('2026-11-26T07:00:00.000Z') };
const bundleOf = (name: string): Bundle => parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`)));

describe('assess --benchmark on macOS', () => {
  it('the benchmarked bundle: measured, and the plan’s cost cites it', async () => {
    const envelope = await assessBundle(bundleOf('darwin-fio-apfs-image-benchmark-composed'), clock);
    expect(envelope.result?.ioBenchmark?.encrypted.map((target) => target.backend)).toEqual(['apfs']);
    expect(envelope.warnings.map((warning) => warning.code)).not.toContain('PLATFORM_LIMITED');
    const cost = envelope.result?.plan?.recommendations.find(
      (item) => item.ruleId === 'macos-encryption-cost',
    );
    expect(cost?.reason).toContain('Measured here (SEQ1M Q8T1, RND4K Q1T1)');
  });

  it('the sealed read-only system volume (real diskutil capture): PLATFORM_LIMITED saying why, nothing run', async () => {
    const bundle = bundleOf('darwin-intel-catalina-filevault-disk1s5');
    const envelope = await assessBundle({ ...bundle, benchmark: { quick: true } }, clock);
    expect(envelope.result?.ioBenchmark).toBeNull();
    const limited = envelope.warnings.filter((warning) => warning.code === 'PLATFORM_LIMITED');
    expect(limited.map((warning) => warning.message)).toEqual([
      'There is nowhere to put the scratch disk images: no volume of disk0 is mounted and writable (disk1s5: read-only). Plain versus encrypted APFS was not measured.',
    ]);
  });

  it('without fio: a TOOL_MISSING warning with the Homebrew command, and no image made', async () => {
    const bundle = bundleOf('darwin-fio-apfs-image-benchmark-composed');
    const captures = bundle.captures.filter(
      (capture) =>
        !(capture.kind === 'which-tool' && capture.tool === 'fio') &&
        !(capture.kind === 'command' && (capture.tool === 'hdiutil' || capture.tool === 'fio')),
    );
    const envelope = await assessBundle({ ...bundle, captures }, clock);
    expect(envelope.result?.ioBenchmark).toBeNull();
    expect(envelope.warnings).toContainEqual({
      code: 'TOOL_MISSING',
      message:
        'Measuring plain versus encrypted APFS disk images: fio is not installed or not on PATH. Install it: brew install fio.',
      source: 'fio',
    });
  });
});
