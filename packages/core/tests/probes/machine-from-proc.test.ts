import { describe, expect, it } from 'vitest';
import { coresFromCpuinfo, memTotalBytes, parseOsRelease, probeMachine } from '../../src/probes/machine.js';
import { createProbeContext } from '../../src/probes/probe-context.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { fixture } from '../support/fixtures.js';
import { createRecordingHost } from '../../src/capture/recording-host.js';
import type { Capture } from '../../src/capture/capture.js';
import { vulnerabilityReads } from '../support/cpu-vulnerabilities.js';

const cpuinfo = fixture('proc/cpuinfo-amd-epyc-2core.txt');
const meminfo = fixture('proc/meminfo-debian12.txt');
const osRelease = fixture('proc/os-release-debian12.txt');

function hostWith(files: Record<string, string>, systemInfo = false, more: readonly Capture[] = []) {
  return createReplayHost({
    platform: 'linux',
    cwd: '/',
    privileged: true,
    captures: [
      ...more,
      ...Object.entries(files).map(([path, result]) => ({
        kind: 'read-text' as const,
        path,
        result,
        error: null,
      })),
      ...(systemInfo
        ? [
            {
              kind: 'system-info' as const,
              result: {
                cpu: { manufacturer: 'AMD', brand: 'EPYC', vendor: 'AMD', cores: 2, physicalCores: 2 },
                cpuFlags: 'aes avx2',
                mem: { total: 1024 },
                os: {
                  platform: 'linux',
                  distro: 'Debian GNU/Linux',
                  release: '12',
                  kernel: '6.1',
                  arch: 'x64',
                },
                diskLayout: [{ device: '/dev/vda', type: 'HD' }],
              },
              error: null,
            },
          ]
        : []),
    ],
  });
}

describe('the machine from /proc and /etc (no process)', () => {
  it('counts logical CPUs and distinct (physical id, core id) pairs', () => {
    expect(coresFromCpuinfo(cpuinfo)).toEqual({ logical: 2, physical: 2 });
    // Two hyperthreads of one core: two logical CPUs, one physical core.
    const smt =
      'processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 1\nphysical id\t: 0\ncore id\t\t: 0\n';
    expect(coresFromCpuinfo(smt)).toEqual({ logical: 2, physical: 1 });
  });

  it('reads MemTotal in KiB and the distribution from os-release', () => {
    const kib = Number(/^MemTotal:\s+(\d+)/m.exec(meminfo)?.[1]);
    expect(memTotalBytes(meminfo)).toBe(kib * 1024);
    expect(memTotalBytes('MemFree: 1 kB\n')).toBeNull();
    expect(parseOsRelease(osRelease)).toEqual({ distro: 'Debian GNU/Linux', release: '12' });
  });

  it('builds the machine from the files alone, never asking systeminformation', async () => {
    const host = hostWith({
      '/proc/cpuinfo': cpuinfo,
      '/proc/meminfo': meminfo,
      '/etc/os-release': osRelease,
      '/proc/sys/kernel/osrelease': '6.18.44\n',
      '/proc/sys/kernel/arch': 'x86_64\n',
    });
    const context = createProbeContext(host);
    const { machine, diskLayout } = await probeMachine(context);
    expect(machine).toMatchObject({
      cpuModel: 'AMD EPYC',
      cpuVendor: 'AMD',
      architecture: 'x64',
      logicalCores: 2,
      physicalCores: 2,
      cryptoFlags: { aes: true, vaes: true, carrylessMultiply: true, avx2: true, avx512: true },
      cryptoFlagsSource: '/proc/cpuinfo',
      os: { platform: 'linux', distro: 'Debian GNU/Linux', release: '12', kernel: '6.18.44' },
    });
    expect(machine?.memoryTotalBytes).toBe(memTotalBytes(meminfo));
    expect(diskLayout).toEqual([]);
    expect(context.warnings).toEqual([]);
  });

  it('replays a bundle collected before (no /proc/meminfo in it) from its systeminformation capture', async () => {
    const host = hostWith({ '/proc/cpuinfo': cpuinfo }, true);
    const { machine, diskLayout } = await probeMachine(createProbeContext(host));
    expect(machine).toMatchObject({
      memoryTotalBytes: 1024,
      cryptoFlagsSource: expect.stringContaining('systeminformation'),
    });
    expect(diskLayout).toEqual([{ device: '/dev/vda', type: 'HD' }]);
  });

  const procFiles = {
    '/proc/cpuinfo': cpuinfo,
    '/proc/meminfo': meminfo,
    '/etc/os-release': osRelease,
    '/proc/sys/kernel/osrelease': '6.18.44\n',
    '/proc/sys/kernel/arch': 'x86_64\n',
  };

  it('reads the CPU-vulnerability mitigations from sysfs and /proc/cmdline, without a process', async () => {
    const host = hostWith(
      procFiles,
      false,
      vulnerabilityReads(
        'cpu-vulnerabilities/this-host-intel-xeon-linux-6.18.txt',
        fixture('cpu-vulnerabilities/this-host-cmdline.txt'),
      ),
    );
    const context = createProbeContext(host);
    const { machine } = await probeMachine(context);
    expect(machine?.mitigations?.unknownReason).toBeNull();
    expect(machine?.mitigations?.commandLine).toBe('auto,no_guest_host,no_guest_guest');
    expect(machine?.mitigations?.vulnerabilities).toContainEqual({
      name: 'tsx_async_abort',
      state: 'mitigated',
      text: 'Mitigation: TSX disabled',
    });
    expect(context.warnings).toEqual([]);
  });

  it('files absent (an older kernel, or a bundle collected before): null with the reason, never "not affected"', async () => {
    const { machine } = await probeMachine(createProbeContext(hostWith(procFiles)));
    expect(machine?.mitigations).toEqual({
      vulnerabilities: null,
      commandLine: null,
      commandLineRead: false,
      unknownReason: expect.stringContaining('/sys/devices/system/cpu/vulnerabilities could not be read'),
    });
  });

  it('records the reads so that a bundle replays the same mitigations', async () => {
    const live = createRecordingHost(
      hostWith(
        procFiles,
        false,
        vulnerabilityReads(
          'cpu-vulnerabilities/published-broadwell-vm-linux-6.5.txt',
          'quiet mitigations=off\n',
        ),
      ),
    );
    const collected = await probeMachine(createProbeContext(live));
    expect(collected.machine?.mitigations?.commandLine).toBe('off');
    // A bundle is JSON: the captures go through it before they are replayed.
    const captures = JSON.parse(JSON.stringify(live.captures())) as Capture[];
    expect(captures).toContainEqual(
      expect.objectContaining({ kind: 'list-dir', path: '/sys/devices/system/cpu/vulnerabilities' }),
    );
    expect(captures).toContainEqual(expect.objectContaining({ kind: 'read-text', path: '/proc/cmdline' }));
    const replayed = await probeMachine(
      createProbeContext(createReplayHost({ platform: 'linux', cwd: '/', privileged: true, captures })),
    );
    expect(replayed.machine?.mitigations).toEqual(collected.machine?.mitigations);
    expect(replayed.machine?.mitigations?.vulnerabilities).toHaveLength(13);
  });
});
