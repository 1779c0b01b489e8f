import { describe, expect, it } from 'vitest';
import { assessBundle, assessmentDocument } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { linuxResultOf } from '../../src/contract/assessment.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };
const loopBundle: Bundle = parseBundle(
  JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')),
);
const DEVICE = '/dev/loop0';

const answered = (tool: 'sedutil-cli', argv: string[], stdout: string): Bundle['captures'][number] => ({
  kind: 'command',
  tool,
  argv,
  stdinBytes: 0,
  output: { exitCode: 0, stdout, stderr: '', durationMs: 0 },
  error: null,
});

/**
 * The real loop-device bundle with sedutil-cli installed: its `--scan` is the captured SATA/NVMe scan with the
 * Opal 2 drive's line given the bundle's device name, and its `--query` is the captured Crucial T710 answer
 * (locking enabled, 8 ranges besides the global one). Only the device name is changed, so the health probe
 * asks `--query` of the bundle's disk and the sed section carries the T710's locking state.
 */
function withSedutil(bundle: Bundle): Bundle {
  const scan = fixture('sedutil/scan-sata-opal2-and-enterprise/stdout.txt').replace(
    '/dev/nvme0 ',
    `${DEVICE}  `,
  );
  const query = fixture('sedutil/query-nvme-opal2.15-crucial-t710-locking-enabled/stdout.txt');
  const captures = bundle.captures.map((capture) =>
    capture.kind === 'which-tool' && capture.tool === 'sedutil-cli'
      ? { ...capture, result: '/usr/sbin/sedutil-cli' }
      : capture,
  );
  return {
    ...bundle,
    captures: [
      ...captures,
      answered('sedutil-cli', ['--scan'], scan),
      answered('sedutil-cli', ['--query', DEVICE], query),
    ],
  };
}

async function linuxResult(bundle: Bundle) {
  const envelope = assessmentDocument.envelope.parse(await assessBundle(bundle, clock));
  const result = linuxResultOf(envelope.result!);
  expect(result).not.toBeNull();
  return result!;
}

describe('the Linux assessment hands the sed section to the storage model (use-cases/assess.ts)', () => {
  it("shows the drive's enabled OPAL locking as a layer of the storage model", async () => {
    const result = await linuxResult(withSedutil(loopBundle));
    // The sed section itself was read from the captures…
    expect(result.sed.opalLocking).toMatchObject({ enabled: true, rangesBesidesGlobal: 8 });
    // …and the storage model read it: the locking range is a layer on the disk, with hardware encryption.
    expect(result.storage).toBeTruthy();
    const layers = result.storage?.layers ?? [];
    expect(layers).toContainEqual(
      expect.objectContaining({
        id: `${DEVICE}#opal-locking`,
        kind: 'opal-locking-range',
        name: 'global range and up to 8 more',
        on: [DEVICE],
        encryption: expect.objectContaining({ kind: 'opal', hardware: true, source: 'sedutil-cli --query' }),
      }),
    );
  });

  it('adds no locking layer when sedutil-cli was not there (the bundle as collected)', async () => {
    const result = await linuxResult(loopBundle);
    expect(result.sed.opalLocking?.enabled ?? null).toBeNull();
    expect(result.storage).toBeTruthy();
    const layers = result.storage?.layers ?? [];
    expect(layers.filter((layer) => layer.kind === 'opal-locking-range')).toEqual([]);
  });
});
