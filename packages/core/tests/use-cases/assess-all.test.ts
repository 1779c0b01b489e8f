import { linuxResultOf } from '../../src/contract/assessment.js';
import { describe, expect, it } from 'vitest';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { createRecordingHost } from '../../src/capture/recording-host.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { machineAssessmentDocument } from '../../src/contract/assessment.js';
import { parseLsblkJson } from '../../src/parsers/lsblk/parse-lsblk-json.js';
import { assessAll, mapPool, wholeDisksOf } from '../../src/use-cases/assess-all.js';
import { assessAllBundle, assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-23T12:00:00.000Z') };
const bundle: Bundle = parseBundle(
  JSON.parse(fixture('bundles/machine-all-loops-and-virtio-node-missing-debian12/bundle.json')),
);

describe('which devices are whole disks (assess --all)', () => {
  it('keeps disks and attached loops; leaves out the empty zram0', () => {
    const devices = parseLsblkJson(fixture('lsblk/all-devices-virtio-zram-loops-debian12/stdout'));
    expect(devices.map((device) => device.kernelName)).toContain('zram0');
    expect(wholeDisksOf(devices).map((device) => device.kernelName)).toEqual([
      'loop0',
      'loop1',
      'loop2',
      'vda',
    ]);
  });

  it('leaves out ram disks, unbound (size 0) and read-only loops, and partitions never appear at the top', () => {
    const [loop] = parseLsblkJson(fixture('lsblk/all-devices-virtio-zram-loops-debian12/stdout'));
    if (loop === undefined) {
      throw new Error('fixture has no device');
    }
    const variants = [
      { ...loop, kernelName: 'ram0', path: '/dev/ram0', type: 'disk' },
      { ...loop, kernelName: 'loop7', path: '/dev/loop7', sizeBytes: 0 },
      { ...loop, kernelName: 'loop8', path: '/dev/loop8', readOnly: true },
      { ...loop, kernelName: 'sr0', path: '/dev/sr0', type: 'rom' },
      loop,
    ];
    expect(wholeDisksOf(variants).map((device) => device.kernelName)).toEqual([loop.kernelName]);
  });
});

describe('mapPool', () => {
  it('keeps the order of the answers and never runs more than the pool size at once', async () => {
    let running = 0;
    let most = 0;
    const answers = await mapPool([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running -= 1;
      return n * 10;
    });
    expect(answers).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });
});

describe('assess --all over a real collect --all bundle', () => {
  it('assesses every disk, with the right sizes and partitions, and reports the failed one with its error', async () => {
    const envelope = machineAssessmentDocument.envelope.parse(await assessAllBundle(bundle, clock));
    expect(envelope.status).toBe('partial');
    const { result } = envelope;
    if (result === null) {
      throw new Error('no result');
    }
    expect(result.disks.map((disk) => [disk.device, disk.status])).toEqual([
      ['/dev/loop0', 'partial'],
      ['/dev/loop1', 'partial'],
      ['/dev/loop2', 'error'],
      ['/dev/vda', 'partial'],
    ]);
    expect(result.summary.map((row) => row.sizeBytes)).toEqual([
      256 * 1024 ** 2,
      64 * 1024 ** 2,
      96 * 1024 ** 2,
      256 * 1024 ** 3,
    ]);
    const assessed = result.disks[0]?.assessment;
    const loop0 = assessed === null || assessed === undefined ? null : linuxResultOf(assessed);
    expect(loop0?.target).toMatchObject({ path: '/dev/loop0', resolvedFrom: 'bundle' });
    expect(
      loop0?.partitions.map((part) => [
        part.number,
        part.startBytes,
        part.sizeBytes,
        part.filesystem?.type ?? null,
      ]),
    ).toEqual([
      [1, 1024 ** 2, 64 * 1024 ** 2, 'ext4'],
      [2, 65 * 1024 ** 2, 64 * 1024 ** 2, null],
    ]);
    // The space arithmetic adds up: partitions plus never-allocated space plus GPT's own sectors = the disk.
    const partitioned = (loop0?.partitions ?? []).reduce((sum, part) => sum + part.sizeBytes, 0);
    expect(partitioned + (loop0?.space.unallocatedBytes ?? 0)).toBeLessThanOrEqual(256 * 1024 ** 2);
    expect(256 * 1024 ** 2 - partitioned - (loop0?.space.unallocatedBytes ?? 0)).toBeLessThan(2 * 1024 ** 2);
    expect(result.disks[1]?.assessment?.disk?.partitionTable).toBe('none');
    expect(result.disks[2]).toMatchObject({ assessment: null, error: { code: 'DEVICE_NOT_FOUND' } });
    expect(result.summary[2]).toMatchObject({ status: 'error', healthVerdict: 'unknown' });
    expect(envelope.warnings).toContainEqual(expect.objectContaining({ source: '/dev/loop2' }));
    // Host facts once, for the machine; the same in every disk's assessment.
    expect(result.machine?.cryptoFlags.aes).toBe(true);
    expect(result.disks[3]?.assessment?.machine).toEqual(result.machine);
  });

  it('runs one lsblk for the machine and asks no tool twice for the same disk', async () => {
    const host = createRecordingHost(createReplayHost(bundle));
    await assessAll({ host, clock }, { includeSerials: false, mode: 'bundle' });
    const commands = host
      .captures()
      .flatMap((capture) => (capture.kind === 'command' ? [[capture.tool, ...capture.argv].join(' ')] : []));
    expect(commands.filter((command) => command.startsWith('lsblk --json'))).toEqual([
      'lsblk --json --bytes -O',
    ]);
    expect(new Set(commands).size).toBe(commands.length);
    expect(commands.filter((command) => command.startsWith('systemctl is-enabled'))).toHaveLength(1);
    // No process stands between encplan and the facts (systeminformation's shells): every capture is a command
    // encplan ran itself, or a file it read.
    expect(host.captures().some((capture) => capture.kind === 'system-info')).toBe(false);
  });

  it('refuses a bundle of the other scope, with the command that reads it', async () => {
    await expect(assessBundle(bundle, clock)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      hint: expect.stringContaining('assess --all --bundle'),
    });
    const oneDisk = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));
    await expect(assessAllBundle(oneDisk, clock)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
