import { describe, expect, it } from 'vitest';
import { assessBundle, assessmentDocument } from '@encplan/core';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { createRecordingHost } from '../../src/capture/recording-host.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { linuxResultOf } from '../../src/contract/assessment.js';
import { captureKey, type Capture } from '../../src/capture/capture.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };
const bundle: Bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));

describe('assessBundle on a real loop-device bundle', () => {
  it('reports the disk, its GPT partition with ext4 and the never-allocated tail', async () => {
    const envelope = assessmentDocument.envelope.parse(await assessBundle(bundle, clock));
    expect(envelope).toMatchObject({
      schema: 'encplan.assessment',
      schemaVersion: [1, 9],
      generatedAt: '2026-11-21T12:00:00.000Z',
    });
    // A Linux bundle: every Linux-shaped section is present (assessment 1.2).
    const result = linuxResultOf(envelope.result!)!;
    expect(result).not.toBeNull();
    expect(result.target).toEqual({
      path: '/dev/loop0',
      kernelName: 'loop0',
      requested: '/dev/loop0',
      resolvedFrom: 'bundle',
    });
    expect(result.provenance.mode).toBe('bundle');
    expect(result.disk).toMatchObject({
      sizeBytes: 1_073_741_824,
      transport: 'loop',
      partitionTable: 'gpt',
      isSystemDisk: false,
      logicalSectorBytes: 512,
    });
    expect(result.partitions).toEqual([
      expect.objectContaining({
        path: '/dev/loop0p1',
        number: 1,
        startBytes: 1_048_576,
        sizeBytes: 836_763_648,
        filesystem: expect.objectContaining({ type: 'ext4' }),
      }),
    ]);
    const tailPercent = (result.space.unallocatedBytes / result.disk.sizeBytes) * 100;
    expect(Math.abs(tailPercent - 22)).toBeLessThan(0.5);
    expect(result.space.regions.map((region) => region.location)).toEqual(['tail']);
    expect(result.stack.backingFile).toMatch(/img$/);
    expect(result.stack.discard).toMatchObject({ granularityBytes: 4096 });
    expect(result.media.kind).toBe('unknown');
    expect(result.encryption).toMatchObject({ found: [], veracryptDetectable: false });
    expect(result.machine?.cryptoFlags.aes).toBe(true);
  });

  it('touches nothing: a request the bundle does not hold answers as absent or TOOL_NOT_FOUND', async () => {
    const host = createReplayHost({
      platform: 'linux',
      cwd: '/',
      privileged: true,
      captures: bundle.captures,
    });
    expect(await host.readText('/etc/shadow')).toBeNull();
    await expect(
      host.run({ tool: 'smartctl', args: ['-a', '/dev/sda'], timeoutMs: 1000 }),
    ).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
  });

  it('replays to the same captures when recorded again, so a bundle of a bundle is the same bundle', async () => {
    const recording = createRecordingHost(
      // A bundle is a replay source: its platform, cwd, privilege and captures.
      createReplayHost(bundle),
    );
    const { assess } = await import('@encplan/core');
    await assess(
      { host: recording, clock },
      { device: bundle.device, includeSerials: false, mode: 'bundle' },
    );
    // This bundle was collected when encplan asked blkid once per device; today's single blkid call for the
    // disk is not in it, so the replay asks the old way: every original command, plus only those attempts.
    const commands = recording.captures().filter((capture) => capture.kind === 'command');
    const uncaptured = commands.filter((capture) => capture.error?.code === 'TOOL_NOT_FOUND');
    expect(uncaptured.map((capture) => capture.error?.message)).toEqual([
      'The bundle holds no output of: blkid -p -o export -- /dev/loop0 /dev/loop0p1',
    ]);
    // fstrim.timer is read with one systemctl call now: `show` only where systemd runs as init (the bundle
    // records no /run/systemd/system: it was collected on a VM booted without systemd, where its `show` failed).
    const originalCommands = bundle.captures.filter(
      (capture) =>
        capture.kind === 'command' &&
        !(capture.tool === 'systemctl' && capture.argv.join(' ').startsWith('show fstrim.timer')),
    );
    // Independent calls (the tools' versions) run at once, so they are recorded in the order they finish.
    const byArgv = (list: readonly Capture[]) =>
      [...list].sort((a, b) => captureKey(a).localeCompare(captureKey(b)));
    expect(byArgv(commands.filter((capture) => !uncaptured.includes(capture)))).toEqual(
      byArgv(originalCommands),
    );
  });

  it('refuses a bundle of an unknown major format version', () => {
    expect(() => parseBundle({ ...bundle, schemaVersion: [2, 0] })).toThrowError(
      expect.objectContaining({ code: 'BUNDLE_INVALID' }),
    );
    expect(() => parseBundle({ schema: 'something-else' })).toThrowError(
      expect.objectContaining({ code: 'BUNDLE_INVALID' }),
    );
  });
});
