import { describe, expect, it } from 'vitest';
import { doctor, type Host } from '@encplan/core';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { type ToolName } from '../../src/ports.js';

const clock = { now: () => new Date('2026-11-23T20:00:00Z') };

function hostOn(platform: Host['platform'], installed: Readonly<Partial<Record<ToolName, string>>>): Host {
  return createReplayHost({
    platform,
    cwd: '/',
    privileged: false,
    captures: Object.entries(installed).map(([tool, path]) => ({
      kind: 'which-tool' as const,
      tool: tool as ToolName,
      result: path,
      error: null,
    })),
  });
}

describe('doctor per platform', () => {
  it('lists the macOS tools on a Mac, with what a missing one costs, and no Linux-only tool', async () => {
    const envelope = await doctor({
      host: hostOn('darwin', {
        diskutil: '/usr/sbin/diskutil',
        system_profiler: '/usr/sbin/system_profiler',
      }),
      clock,
    });
    const tools = new Map(envelope.result?.tools.map((tool) => [tool.tool, tool]));
    expect([...tools.keys()].sort()).toEqual([
      'diskutil',
      'fdesetup',
      'fio',
      'hdiutil',
      'openssl',
      'smartctl',
      'sysctl',
      'system_profiler',
      'veracrypt',
    ]);
    expect(tools.get('diskutil')?.path).toBe('/usr/sbin/diskutil');
    expect(tools.get('smartctl')).toMatchObject({
      path: null,
      purpose: expect.stringContaining('SMART') as unknown,
      install: 'Install it: brew install smartmontools.',
    });
    expect(tools.get('diskutil')?.install).toBeNull();
    expect(tools.has('lsblk')).toBe(false);
  });

  it('lists the Windows tools on Windows and none of the macOS or Linux ones', async () => {
    const envelope = await doctor({
      host: hostOn('win32', { powershell: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe' }),
      clock,
    });
    const names = envelope.result?.tools.map((tool) => tool.tool).sort();
    expect(names).toEqual(['diskspd', 'fio', 'fsutil', 'manage-bde', 'powershell', 'smartctl', 'veracrypt']);
    expect(envelope.result?.tools.find((tool) => tool.tool === 'fsutil')?.purpose).toMatch(/TRIM/);
    expect(envelope.result?.tools.find((tool) => tool.tool === 'diskspd')?.install).toContain(
      'github.com/microsoft/diskspd',
    );
  });

  it('keeps the Linux list without the macOS and Windows tools', async () => {
    const envelope = await doctor({ host: hostOn('linux', {}), clock });
    const names = envelope.result?.tools.map((tool) => tool.tool) ?? [];
    expect(names).toContain('lsblk');
    expect(names).not.toContain('diskutil');
    expect(names).not.toContain('powershell');
  });
});
