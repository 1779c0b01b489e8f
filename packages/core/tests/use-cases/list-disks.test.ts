import { describe, expect, it } from 'vitest';
import { listDisks } from '@encplan/core';
import { createNodeHost } from '@encplan/core/node';
import { fakeToolsPerTest } from '../../../../tests/support/fake-tools.js';
import { VIRTIO_SYSTEM_DISK } from '../support/fixtures.js';

const { runnerWith } = fakeToolsPerTest();

async function hostWith(cases: Parameters<typeof runnerWith>[0]) {
  return createNodeHost(await runnerWith(cases), '/');
}

describe('listDisks', () => {
  it('lists the whole disks and loop devices of a real lsblk capture, marks the system disk and skips empty ones', async () => {
    const host = await hostWith({
      lsblk: [
        {
          args: ['--json', '--bytes', '-O'],
          stdoutFixture: 'fixtures/lsblk/all-devices-virtio-zram-loops-debian12/stdout',
        },
      ],
    });
    const { devices } = await listDisks(host);
    expect(devices.map((device) => device.path)).toEqual([
      '/dev/loop0',
      '/dev/loop1',
      '/dev/loop2',
      '/dev/vda',
    ]);
    expect(devices.find((device) => device.path === '/dev/vda')).toEqual(VIRTIO_SYSTEM_DISK);
    expect(devices.find((device) => device.path === '/dev/loop0')).toMatchObject({
      transport: 'loop',
      isSystemDisk: false,
    });
  });

  it("reports TOOL_FAILED with lsblk's message when lsblk fails", async () => {
    const host = await hostWith({
      lsblk: [{ exitCode: 1, stderr: 'lsblk: failed to access sysfs directory' }],
    });
    await expect(listDisks(host)).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining('failed to access sysfs'),
    });
  });
});
