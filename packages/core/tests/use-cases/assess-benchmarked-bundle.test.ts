import { describe, expect, it } from 'vitest';
import { assess, assessBundle, assessmentDocument } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import type { Capture } from '../../src/capture/capture.js';
import { createRecordingHost } from '../../src/capture/recording-host.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-23T12:00:00.000Z') };
const DIRECTORY = 'bundles/loop-ext4-mounted-benchmark-quick-debian12';
const bundle: Bundle = parseBundle(JSON.parse(fixture(`${DIRECTORY}/bundle.json`)));
const live = JSON.parse(fixture(`${DIRECTORY}/live-benchmarks.json`)) as {
  ioBenchmark: unknown;
  cipherBenchmark: unknown;
};

describe('assess --bundle of a benchmarked collection (collect --benchmark --quick on a loop device)', () => {
  it('replays the I/O and cipher benchmarks exactly as they were measured live', async () => {
    expect(bundle.benchmark).toEqual({ quick: true });
    const envelope = assessmentDocument.envelope.parse(await assessBundle(bundle, clock));
    const result = envelope.result!;
    expect(result.ioBenchmark).toEqual(live.ioBenchmark);
    expect(result.cipherBenchmark).toEqual(live.cipherBenchmark);
    const io = result.ioBenchmark!;
    expect(io.encrypted.map((target) => target.backend)).toEqual(['fscrypt']);
    expect(io.encrypted[0]!.verification).toMatchObject({
      cipher: 'AES_256_XTS',
      identity: expect.stringMatching(/^policy [0-9a-f]{32}$/),
    });
    expect(io.skipped.map((skip) => [skip.backend, skip.code])).toEqual([
      ['luks2', 'KERNEL_FEATURE_MISSING'],
    ]);
    expect(io.overhead.length).toBeGreaterThan(0);
    expect(io.overhead.every((row) => row.plainBytesPerSecond > 0 && row.encryptedBytesPerSecond > 0)).toBe(
      true,
    );
  });

  it('answers every effect from the record and performs none: replaying again records the same effects in order', async () => {
    const recording = createRecordingHost(
      // A bundle is a replay source: its platform, cwd, privilege and captures.
      createReplayHost(bundle),
    );
    await assess(
      { host: recording, clock },
      {
        device: bundle.device,
        includeSerials: bundle.serialsIncluded,
        mode: 'bundle',
        // Collected before issue 18: quick revision 1, as assessBundle replays it.
        benchmark: { quick: true, quickRevision: 1 },
      },
    );
    const effects = (captures: readonly Capture[]) =>
      captures.filter((capture) => capture.kind === 'effect' || capture.kind === 'command');
    // fstrim.timer is read with one systemctl call now; `show` only where systemd runs as init, and this bundle
    // was collected on a VM booted without it (its `show` failed, exit 1): that one old call is not asked.
    const oldShow = (capture: Capture) =>
      capture.kind === 'command' && capture.tool === 'systemctl' && capture.argv[0] === 'show';
    expect(effects(recording.captures())).toEqual(
      effects(bundle.captures).filter((capture) => !oldShow(capture)),
    );
  });

  it('a bundle collected without --benchmark has no benchmark to replay, and says which step is missing when asked', async () => {
    const withoutBenchmark = { ...bundle, benchmark: null };
    const envelope = await assessBundle(withoutBenchmark, clock);
    expect(envelope.result?.ioBenchmark).toBeNull();
    const host = createReplayHost({ platform: 'linux', cwd: '/', privileged: true, captures: [] });
    await expect(host.effects.makeDirectory('/x', { mode: 0o700 })).rejects.toMatchObject({
      code: 'BUNDLE_INVALID',
    });
  });
});
