import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeDiscardStack, probeHealth } from '@encplan/core';
import type { Host } from '../../src/ports.js';
import { assessSed } from '../../src/analyses/sed.js';
import { assessTrim } from '../../src/analyses/trim.js';
import { readProvisioningMode } from '../../src/probes/linux/sysfs-stack.js';
import { createNodeHost } from '@encplan/core/node';
import { fakeToolsPerTest, type FakeCase } from '../../../../tests/support/fake-tools.js';
import { createDirectoryHost } from '../../../../tests/support/directory-host.js';
import { stackNode } from '../../../../tests/support/stack-node.js';

const { runnerWith, fakes } = fakeToolsPerTest();

async function hostWith(cases: Record<string, readonly FakeCase[]>) {
  return createNodeHost(await runnerWith(cases));
}

/** The host as if systemd did (or did not) run as init: /run/systemd/system is what sd_booted(3) checks. */
function withSystemd(host: Host, booted: boolean): Host {
  return {
    ...host,
    stat: async (file) =>
      file === '/run/systemd/system'
        ? booted
          ? {
              kind: 'directory',
              deviceNumber: null,
              containingDeviceNumber: '0:25',
              sizeBytes: 0,
              readable: true,
            }
          : null
        : host.stat(file),
  };
}

const SMARTCTL_ARGS = ['--json=v', '-x', '--nocheck=standby'];

describe('probeHealth', () => {
  it('runs smartctl with --json=v -x --nocheck=standby and the device after --, then NVMe Identify', async () => {
    const host = await hostWith({
      smartctl: [
        {
          args: [...SMARTCTL_ARGS, '--', '/dev/nvme0n1'],
          stdoutFixture: 'fixtures/smartctl/nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3/stdout.json',
        },
      ],
      nvme: [
        {
          args: ['id-ctrl', '-o', 'json', '--', '/dev/nvme0n1'],
          stdoutFixture: 'fixtures/nvme/id-ctrl-wdc-sn730-256g/stdout.json',
        },
        {
          args: ['id-ns', '-o', 'json', '--', '/dev/nvme0n1'],
          stderr: 'NVMe status: Invalid Field in Command',
          exitCode: 2,
        },
      ],
    });
    const { facts, warnings } = await probeHealth(host, { path: '/dev/nvme0n1', transport: 'nvme' });
    expect((await fakes().calls()).map((call) => [call.tool, ...call.argv])).toEqual([
      ['smartctl', ...SMARTCTL_ARGS, '--', '/dev/nvme0n1'],
      ['nvme', 'id-ctrl', '-o', 'json', '--', '/dev/nvme0n1'],
      ['nvme', 'id-ns', '-o', 'json', '--', '/dev/nvme0n1'],
    ]);
    expect(facts.health).toMatchObject({ verdict: 'healthy', percentageUsed: 75 });
    expect(warnings).toEqual([]);
    const trim = assessTrim({
      capabilities: facts.trimCapabilities,
      diskKernelName: 'nvme0n1',
      diskDiscard: null,
      provisioningMode: null,
      transport: 'nvme',
    });
    expect(trim).toMatchObject({ deviceSupportsTrim: true, mechanism: 'nvme-deallocate', status: 'unknown' });
    expect(assessSed(facts.securityCapabilities, facts.sedutil)).toMatchObject({
      status: 'possible',
      nvmeSecuritySendReceive: true,
    });
  });

  it('retries USB bridge types in order when smartctl cannot tell the device type', async () => {
    const host = await hostWith({
      smartctl: [
        {
          args: [...SMARTCTL_ARGS, '--', '/dev/sdb'],
          stdoutFixture: 'fixtures/smartctl/loop-unsupported-device-type-debian12-v7.3/stdout.json',
          exitCode: 1,
        },
        {
          args: [...SMARTCTL_ARGS, '-d', 'sat', '--', '/dev/sdb'],
          stdoutFixture: 'fixtures/smartctl/loop-sat-reports-sleep-debian12-v7.3/stdout.json',
          exitCode: 2,
        },
        {
          args: [...SMARTCTL_ARGS, '-d', 'sntjmicron', '--', '/dev/sdb'],
          stdoutFixture: 'fixtures/smartctl/usb-sat-sandisk-pssd-v7.4/stdout.json',
        },
      ],
    });
    const { facts, warnings } = await probeHealth(host, { path: '/dev/sdb', transport: 'usb' });
    expect((await fakes().calls()).map((call) => call.argv.slice(3, -2))).toEqual([
      [],
      ['-d', 'sat'],
      ['-d', 'sntjmicron'],
    ]);
    expect(facts.health).toMatchObject({ verdict: 'healthy', model: 'SanDisk pSSD' });
    expect(facts.trimCapabilities[0]).toMatchObject({ supported: true, zeroed: true });
    // smartctl 7.4 printed the trim object, so hdparm is not needed (and is not installed here anyway).
    expect(warnings).toEqual([]);
  });

  it('gives SMART_UNAVAILABLE with the reason, not an error, for a loop device', async () => {
    const host = await hostWith({
      smartctl: [
        {
          args: null,
          stdoutFixture: 'fixtures/smartctl/loop-unsupported-device-type-debian12-v7.3/stdout.json',
          exitCode: 1,
        },
      ],
    });
    const { facts, warnings } = await probeHealth(host, { path: '/dev/loop1', transport: 'loop' });
    expect(facts.health).toMatchObject({
      verdict: 'unknown',
      unavailable: { reason: 'device-type-unknown' },
    });
    expect(warnings.map((w) => w.code)).toEqual(['SMART_UNAVAILABLE']);
    expect(await fakes().calls()).toHaveLength(1);
  });

  it('falls back to nvme smart-log when smartctl is missing, and to hdparm -I for an ATA drive', async () => {
    const host = await hostWith({
      nvme: [
        {
          args: ['smart-log', '-o', 'json', '--', '/dev/nvme0n1'],
          stdoutFixture: 'fixtures/nvme/smart-log-v2.11-seagate-firecuda530-30pct-used/stdout.json',
        },
        { args: null, exitCode: 1, stderr: 'unsupported' },
      ],
      hdparm: [
        {
          args: ['-I', '/dev/sda'],
          stdoutFixture: 'fixtures/hdparm/sata-ssd-intel-545s-ssdsc2kw512g8-rzat/stdout.txt',
        },
      ],
    });
    const nvme = await probeHealth(host, { path: '/dev/nvme0n1', transport: 'nvme' });
    expect(nvme.facts.health).toMatchObject({ source: 'nvme-cli', verdict: 'healthy', percentageUsed: 30 });
    expect(nvme.warnings).toEqual([]);
    const ata = await probeHealth(host, { path: '/dev/sda', transport: 'sata' });
    expect(ata.facts.health).toMatchObject({ verdict: 'unknown', unavailable: { reason: 'tool-missing' } });
    expect(ata.warnings.map((w) => w.code)).toEqual(['TOOL_MISSING']);
    expect(ata.facts.trimCapabilities[0]).toMatchObject({ origin: 'hdparm', supported: true, zeroed: true });
    expect(assessSed(ata.facts.securityCapabilities, null).ataSecurity).toMatchObject({ frozen: true });
  });

  it('turns unreadable smartctl output into a warning instead of a crash', async () => {
    const host = await hostWith({
      smartctl: [{ args: null, stdout: '{"json_format_version":[9,0]}', exitCode: 0 }],
    });
    const { facts, warnings } = await probeHealth(host, { path: '/dev/sda', transport: 'sata' });
    expect(facts.health.verdict).toBe('unknown');
    expect(warnings.map((w) => w.code)).toEqual(['TOOL_OUTPUT_UNRECOGNIZED', 'SMART_UNAVAILABLE']);
  });

  it('says a missing smartctl is TOOL_MISSING (with its package), and the health unknown', async () => {
    const host = await hostWith({});
    const { facts, warnings } = await probeHealth(host, { path: '/dev/sda', transport: 'sata' });
    expect(facts.health.verdict).toBe('unknown');
    expect(facts.health.unavailable?.reason).toBe('tool-missing');
    expect(warnings.filter((w) => w.source === 'smartctl')).toEqual([
      expect.objectContaining({ code: 'TOOL_MISSING', message: expect.stringContaining('smartmontools') }),
    ]);
  });
});

describe('probeDiscardStack', () => {
  const crypt = stackNode('dm-0', 'crypt', {
    path: '/dev/mapper/debian_crypt',
    deviceNumber: '254:0',
    mapperName: 'debian_crypt',
    dmUuid: 'CRYPT-LUKS2-000etc000-debian_crypt',
  });
  const stack = stackNode('sdb', 'disk', {
    deviceNumber: '8:16',
    children: [stackNode('sdb3', 'part', { deviceNumber: '8:19', children: [crypt] })],
  });

  it('asks dmsetup, cryptsetup and systemctl with exact argv and parses what they say', async () => {
    const host = await hostWith({
      dmsetup: [
        {
          args: ['table', '--', 'debian_crypt'],
          stdout:
            '0 463583232 crypt aes-xts-plain64 :64:logon:cryptsetup:x-d0 0 8:19 32768 1 allow_discards\n',
        },
      ],
      cryptsetup: [
        {
          args: ['luksDump', '--dump-json-metadata', '--', '/dev/sdb3'],
          stdoutFixture: 'fixtures/cryptsetup-luksdump/file-luks2-argon2id-sector4096-debian12/stdout',
        },
      ],
      systemctl: [
        {
          args: [
            'show',
            'fstrim.timer',
            '--property=LoadState,UnitFileState,LastTriggerUSec',
            '--timestamp=utc',
          ],
          stdout: 'LoadState=loaded\nUnitFileState=enabled\nLastTriggerUSec=Mon 2026-11-16 00:00:01 UTC\n',
        },
      ],
    });
    // systemd runs as init here (sd_booted(3)): one `systemctl show` answers both questions.
    const { facts } = await probeDiscardStack(withSystemd(host, true), stack);
    expect((await fakes().calls()).map((call) => [call.tool, ...call.argv])).toEqual([
      ['dmsetup', 'table', '--', 'debian_crypt'],
      ['cryptsetup', 'luksDump', '--dump-json-metadata', '--', '/dev/sdb3'],
      [
        'systemctl',
        'show',
        'fstrim.timer',
        '--property=LoadState,UnitFileState,LastTriggerUSec',
        '--timestamp=utc',
      ],
    ]);
    expect(facts.dmTables.debian_crypt?.[0]?.crypt?.allowDiscards).toBe(true);
    expect(facts.luksFlags.debian_crypt).toEqual([]);
    expect(facts.fstrimTimer).toEqual({ enabled: true, lastRunAt: '2026-11-16T00:00:01Z' });
    expect(facts.mounts?.length).toBeGreaterThan(0);
  });

  it('asks `systemctl is-enabled` alone where systemd is not init (show cannot answer there)', async () => {
    const host = await hostWith({
      systemctl: [{ args: ['is-enabled', 'fstrim.timer'], stdout: 'disabled\n' }],
    });
    const { facts } = await probeDiscardStack(withSystemd(host, false), stack);
    expect(
      (await fakes().calls()).filter((call) => call.tool === 'systemctl').map((call) => call.argv),
    ).toEqual([['is-enabled', 'fstrim.timer']]);
    expect(facts.fstrimTimer).toEqual({ enabled: false, lastRunAt: null });
  });

  it('turns missing tools into warnings and null facts', async () => {
    const host = await hostWith({});
    const { facts, warnings } = await probeDiscardStack(host, stack);
    expect(facts.dmTables).toEqual({});
    expect(facts.fstrimTimer).toBeNull();
    expect(new Set(warnings.map((w) => w.code))).toEqual(new Set(['TOOL_MISSING']));
  });
});

describe('readProvisioningMode', () => {
  it('reads the sd driver provisioning_mode under device/scsi_disk, and null where there is none', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'encplan-test-sysfs-'));
    try {
      const directory = path.join(root, 'sys/class/block/sdc/device/scsi_disk/6:0:0:0');
      await mkdir(directory, { recursive: true });
      await writeFile(path.join(directory, 'provisioning_mode'), 'full\n');
      const host = createDirectoryHost(root);
      expect(await readProvisioningMode(host, 'sdc')).toBe('full');
      expect(await readProvisioningMode(host, 'nvme0n1')).toBeNull();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
