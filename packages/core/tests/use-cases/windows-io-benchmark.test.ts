import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { bitlockerVhdSetup } from '../../src/benchmark-commands/windows.js';
import { STANDARD_PROFILES } from '../../src/plan/fio-jobs.js';
import type { CommandSpec, Host } from '../../src/ports.js';
import { diskspdRun, runWindowsIoBenchmark } from '../../src/use-cases/benchmark/run-windows-io-benchmark.js';
import { fixture } from '../support/fixtures.js';

const MICRON = fixture('diskspd/win10-1903-container-i7-6700-micron-m600-sata-ssd-4k-rand-5050-L/stdout.txt');
const rnd4kRead = STANDARD_PROFILES.find((profile) => profile.id === 'rnd4k-q32t1-read')!;
const rnd4kWrite = STANDARD_PROFILES.find((profile) => profile.id === 'rnd4k-q32t1-write')!;

describe('diskspdRun (a real DiskSpd text result as a run)', () => {
  it('reads the direction’s total row over the test time and its latency percentiles', () => {
    const read = diskspdRun(MICRON, rnd4kRead);
    const write = diskspdRun(MICRON, rnd4kWrite);
    expect(read.direction).toBe('read');
    expect(read.runtimeMs).toBe(120_000);
    expect(read.bytesPerSecond).toBe(Math.round(read.ioBytes / 120));
    expect(read.iops * 4096).toBeCloseTo(read.bytesPerSecond, -1);
    // The %-ile table of the capture: 50th read 1.405 ms, write 0.985 ms; 99th read 4.075 ms.
    expect(read.clatP50Ns).toBe(1_405_000);
    expect(read.clatP99Ns).toBe(4_075_000);
    expect(write.clatP50Ns).toBe(985_000);
    expect(write.ioBytes).not.toBe(read.ioBytes);
  });

  it('fails closed on text that is not a DiskSpd result', () => {
    expect(() => diskspdRun('Access is denied.\r\n', rnd4kRead)).toThrow(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }) as Error,
    );
  });
});

describe('runWindowsIoBenchmark', () => {
  it('replays the benchmarked bundle: plain and BitLocker measured, then everything it made removed', async () => {
    const bundle = parseBundle(
      JSON.parse(fixture('bundles/windows-diskspd-benchmark-composed/bundle.json')) as unknown,
    );
    const host = createReplayHost({
      platform: 'win32',
      cwd: bundle.cwd,
      privileged: bundle.privileged,
      captures: bundle.captures,
    });
    const { result, cleanup } = await runWindowsIoBenchmark(host, { target: 'D:\\', mode: 'quick' });
    expect(result.plain.profiles.map((measured) => measured.profile.id)).toEqual(
      STANDARD_PROFILES.map((profile) => profile.id),
    );
    expect(result.encrypted[0]?.verification).toEqual({
      method: 'Get-BitLockerVolume',
      identity: 'E:',
      cipher: 'XtsAes256',
    });
    expect(result.overhead).toHaveLength(8);
    expect(cleanup.map((outcome) => [outcome.resource.kind, outcome.outcome])).toEqual([
      ['file', 'removed'], // E:\\encplan.dat, on the test volume, first
      ['vhd', 'removed'],
      ['file', 'removed'], // the VHDX
      ['file', 'removed'],
      ['directory', 'removed'],
    ]);
  });

  it('never measures a volume that is not fully encrypted, and removes what it made', async () => {
    const runs: CommandSpec[] = [];
    const existing = new Set<string>();
    const host: Host = {
      platform: 'win32',
      cwd: 'C:\\',
      privileged: true,
      run: (spec) => {
        runs.push(spec);
        const stdout =
          spec.tool === 'diskspd'
            ? MICRON
            : spec.args[3]?.includes('Enable-BitLocker') === true
              ? '{"MountPoint":"E:","VolumeStatus":"EncryptionInProgress","EncryptionMethod":"XtsAes256","EncryptionPercentage":40}'
              : '';
        return Promise.resolve({ exitCode: 0, stdout, stderr: '', durationMs: 0 });
      },
      readText: () => Promise.resolve(null),
      listDir: () => Promise.resolve(null),
      realPath: () => Promise.resolve(null),
      stat: (path) =>
        Promise.resolve(
          existing.has(path)
            ? {
                kind: 'file',
                deviceNumber: null,
                containingDeviceNumber: '0:0',
                sizeBytes: 0,
                readable: true,
              }
            : null,
        ),
      whichTool: (tool) => Promise.resolve(tool === 'diskspd' ? 'C:\\diskspd.exe' : null),
      systemInfo: () => Promise.reject(new Error('not used')),
      effects: {
        runIdentity: () =>
          Promise.resolve({
            pid: 7,
            nonce: 'ab',
            tempDirectory: 'C:\\Temp',
            stateDirectory: 'C:\\Temp\\encplan',
            startedAt: '2026-11-25T17:00:00.000Z',
          }),
        monotonicMs: () => Promise.resolve(0),
        makeDirectory: (path) => Promise.resolve(void existing.add(path)),
        createFile: (path) => Promise.resolve(void existing.add(path)),
        writeTextAtomic: (path) => Promise.resolve(void existing.add(path)),
        remove: (path) => Promise.resolve(void existing.delete(path)),
        freeBytes: () => Promise.resolve(2 ** 40),
        directIoAllowed: () => Promise.resolve(true),
        processAlive: () => Promise.resolve(true),
      },
    };
    await expect(runWindowsIoBenchmark(host, { target: 'D:\\', mode: 'quick' })).rejects.toMatchObject({
      code: 'TOOL_FAILED',
    });
    expect(
      runs.filter((spec) => spec.tool === 'diskspd').every((spec) => !spec.args.at(-1)!.startsWith('E:')),
    ).toBe(true);
    expect(runs.at(-1)?.args[3]).toMatch(
      /^Dismount-DiskImage -ImagePath 'D:\\encplan-bench-7-ab\\encplan-bitlocker\.vhdx'/,
    );
    expect([...existing].filter((path) => path.startsWith('D:'))).toEqual([]);
  });

  it('keeps the test-volume password out of argv', () => {
    const spec = bitlockerVhdSetup({
      vhdPath: 'D:\\x\\t.vhdx',
      sizeMebibytes: 320,
      password: 'S3cret-token',
    });
    expect(spec.args.join(' ')).not.toContain('S3cret-token');
    expect(spec.stdin).toBe('S3cret-token\n');
    expect(() =>
      bitlockerVhdSetup({ vhdPath: "D:\\x'; rm\\t.vhdx", sizeMebibytes: 320, password: 'p' }),
    ).toThrow();
  });
});
