import { describe, expect, it } from 'vitest';
import { assess, assessBundle, assessmentDocument, collect } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
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
    // The run's own state file is rewritten each time it records something: since issue 25 it also records
    // fio's files before fio makes them, so this version rewrites it more often than the one that made the
    // bundle. Since issue 25 the teardown also removes folders without `recursive` and lists loop devices
    // again after a detach (a busy one stays attached): the bundle's version tore down differently, so the
    // order is compared up to the teardown (the first unmount), and after it only that nothing is performed.
    // A container file a loop device was over is also checked with a read-only `losetup --list` before it
    // is deleted; those lists are left out too.
    const stateWrite = (capture: { kind: string; op?: string }) =>
      capture.kind === 'effect' && capture.op === 'write-text-atomic';
    const loopList = (capture: { kind: string; tool?: string; argv?: readonly string[] }) =>
      capture.kind === 'command' && capture.tool === 'losetup' && capture.argv?.[0] === '--list';
    // fstrim.timer is read with one systemctl call now; `show` only where systemd runs as init, and this bundle
    // was collected on a VM booted without it (its `show` failed, exit 1): that one old call is not asked.
    const oldShow = (capture: { kind: string; tool?: string; argv?: readonly string[] }) =>
      capture.kind === 'command' && capture.tool === 'systemctl' && capture.argv?.[0] === 'show';
    const effects = (captures: readonly { kind: string }[]) =>
      captures.filter(
        (capture) =>
          (capture.kind === 'effect' || capture.kind === 'command') &&
          !stateWrite(capture) &&
          !loopList(capture) &&
          !oldShow(capture),
      );
    const untilTeardown = (captures: readonly { kind: string; tool?: string }[]) =>
      captures.slice(
        0,
        captures.findIndex((capture) => capture.kind === 'command' && capture.tool === 'umount'),
      );
    const replayed = effects(recording.captures());
    const recorded = effects(bundle.captures);
    expect(untilTeardown(recorded).length).toBeGreaterThan(50);
    expect(untilTeardown(replayed)).toEqual(untilTeardown(recorded));
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

describe('collect --benchmark --scratch DIR: the folder is recorded and replayed (bundle 1.5)', () => {
  // The bundle's benchmark wrote in its disk's own mount point; naming that folder must give the same run.
  const SCRATCH = '/mnt/encplan-fixture';

  it('records the folder in bundle.benchmark, and the replay writes there again', async () => {
    const { bundle: made } = await collect(
      { host: createReplayHost(bundle), clock },
      {
        device: bundle.device,
        includeSerials: bundle.serialsIncluded,
        benchmark: { quick: true, quickRevision: 1, scratchDirectory: SCRATCH },
      },
    );
    expect(made.benchmark).toEqual({ quick: true, quickRevision: 1, scratchDirectory: SCRATCH });
    const replayed = assessmentDocument.envelope.parse(await assessBundle(parseBundle(made), clock));
    expect(replayed.result?.ioBenchmark).toEqual(live.ioBenchmark);
    // Another folder is not what was recorded: the replay cannot measure I/O there.
    const moved = { ...made, benchmark: { ...made.benchmark!, scratchDirectory: '/srv/elsewhere' } };
    const elsewhere = assessmentDocument.envelope.parse(await assessBundle(moved, clock));
    expect(elsewhere.result?.ioBenchmark ?? null).not.toEqual(live.ioBenchmark);
  });
});
