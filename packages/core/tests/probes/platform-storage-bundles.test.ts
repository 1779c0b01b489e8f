import { describe, expect, it } from 'vitest';
import { createProbeContext, isEncplanError } from '@encplan/core';
import { parseBundle } from '../../src/capture/bundle.js';
import { createReplayHost } from '../../src/capture/replay-host.js';
import { storageModelSchema, type StorageModel } from '../../src/domain/storage-model.js';
import { probeDarwinStorage } from '../../src/probes/darwin/probe-darwin-storage.js';
import { type ProbeContext } from '../../src/probes/probe-context.js';
import { probeWindowsStorage } from '../../src/probes/windows/probe-windows-storage.js';
import { fixture } from '../support/fixtures.js';

function contextOf(name: string): ProbeContext {
  const bundle = parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`)));
  return createProbeContext(
    createReplayHost({
      platform: bundle.platform,
      cwd: bundle.cwd,
      privileged: bundle.privileged,
      captures: bundle.captures,
    }),
  );
}

async function replay(name: string, device: string): Promise<{ facts: StorageModel; context: ProbeContext }> {
  const context = contextOf(name);
  const facts =
    context.host.platform === 'darwin'
      ? await probeDarwinStorage(context, device)
      : await probeWindowsStorage(context, device);
  // Every result is a valid storage model, the one every platform's probes fill.
  storageModelSchema.parse(facts);
  return { facts, context };
}

describe('macOS probe set replayed from real captures', () => {
  it('Intel Catalina system volume: FileVault on, software (no AES hardware), health only from the SMART status', async () => {
    const { facts, context } = await replay('darwin-intel-catalina-filevault-disk1s5', 'disk1s5');
    expect(facts.disk).toMatchObject({
      id: 'disk0',
      bus: 'PCI',
      internal: true,
      medium: 'ssd',
      logicalSectorBytes: 4096,
      source: 'diskutil info',
    });
    expect(facts.volumes).toEqual([
      expect.objectContaining({
        id: 'disk1s5',
        label: 'Macintosh HD',
        encryption: expect.objectContaining({
          kind: 'filevault',
          hardware: false,
          protection: 'on',
          source: 'diskutil info',
        }),
      }),
    ]);
    expect(facts.disk.health).toMatchObject({
      verdict: 'healthy',
      source: 'diskutil info',
      statusOnly: true,
      status: 'Verified',
    });
    expect(facts.disk.health?.note).toMatch(/weaker source than smartctl/);
    // What the bundle lacks is stated, not invented.
    expect(facts.fileVault).toBeNull();
    expect(facts.disk.trim?.driveSupports).toBeNull();
    expect(context.warnings.map((warning) => warning.source)).toEqual(
      expect.arrayContaining(['diskutil', 'system_profiler', 'fdesetup', 'sysctl']),
    );
  });

  it('Apple-silicon Mac from system_profiler alone: NVMe SSD with TRIM, partitions, SMART status only', async () => {
    const { facts } = await replay('darwin-apple-silicon-ap0256z-system-profiler', 'disk0');
    expect(facts.disk).toMatchObject({
      id: 'disk0',
      model: 'APPLE SSD AP0256Z',
      medium: 'ssd',
      sizeBytes: 251000193024,
      source: 'system_profiler',
    });
    expect(facts.disk.trim).toEqual({ driveSupports: true, osSends: true, source: 'system_profiler' });
    expect(facts.partitions.map((partition) => partition.type)).toEqual([
      'Apple_APFS_ISC',
      'Apple_APFS',
      'Apple_APFS_Recovery',
    ]);
    expect(facts.disk.health).toMatchObject({
      verdict: 'healthy',
      source: 'system_profiler',
      statusOnly: true,
    });
    // The APFS physical store is the container layer its volumes sit on.
    expect(facts.layers.map((layer) => layer.kind)).toEqual(['apfs-container']);
  });

  it("diskutil's error document for a network path ends in DEVICE_NOT_FOUND, with diskutil's message kept as a warning", async () => {
    const context = contextOf('darwin-network-path-diskutil-error');
    let caught: unknown = null;
    try {
      await probeDarwinStorage(context, '/Volumes/SMB');
    } catch (error) {
      caught = error;
    }
    expect(isEncplanError(caught, 'DEVICE_NOT_FOUND')).toBe(true);
    expect(
      context.warnings.some((warning) => warning.message.includes('Could not find disk: /Volumes/SMB')),
    ).toBe(true);
  });
});

describe('Windows probe set replayed from real captures', () => {
  it('GitHub runner: disk 0 is the GPT boot disk on SAS with its partitions; no health source answered', async () => {
    const { facts } = await replay('windows-github-runner-virtual-disks', '0');
    expect(facts.disk).toMatchObject({
      id: '\\\\.\\PhysicalDrive0',
      model: 'Msft Virtual Disk',
      bus: 'SAS',
      partitionStyle: 'GPT',
      medium: 'unknown',
    });
    expect(facts.partitions.length).toBeGreaterThan(1);
    expect(facts.partitions.some((partition) => partition.mountpoint === 'C:')).toBe(true);
    expect(facts.disk.health).toMatchObject({ verdict: 'unknown', source: null, statusOnly: true });
    expect(facts.layers).toEqual([]);
    // Neither Get-BitLockerVolume nor manage-bde answered on the runner: unknown, never "unencrypted".
    expect(facts.encryptionUnknown).toMatch(/Neither Get-BitLockerVolume nor manage-bde/);
    expect(facts.volumes.find((volume) => volume.id === 'C:')).toMatchObject({
      encryption: null,
      encryptionKnown: false,
    });
  });

  it('a bundle collected before the script selected LockStatus replays the PowerShell answer it recorded', async () => {
    // windows-diskspd-benchmark-composed holds the earlier storage script's argv (no LockStatus); the GitHub runner
    // bundle today's. Both machines' disks are read; neither replay warns that PowerShell is missing.
    for (const [name, disk] of [
      ['windows-diskspd-benchmark-composed', '1'],
      ['windows-github-runner-virtual-disks', '0'],
    ] as const) {
      const { facts, context } = await replay(name, disk);
      expect(facts.disk.model, name).toBe('Msft Virtual Disk');
      expect(facts.partitions.length, name).toBeGreaterThan(0);
      expect(
        context.warnings.filter((warning) => warning.source === 'powershell'),
        name,
      ).toEqual([]);
    }
  });

  it('refuses a disk number the machine does not have', async () => {
    await expect(
      probeWindowsStorage(contextOf('windows-github-runner-virtual-disks'), '7'),
    ).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    await expect(
      probeWindowsStorage(contextOf('windows-github-runner-virtual-disks'), 'C:'),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('Windows 11 BitLocker: software XTS-AES 128, not hardware, listed with a warning as partitions are unknown', async () => {
    const { facts, context } = await replay('windows-win11-bc901-bitlocker-xtsaes128', '0');
    expect(facts.layers).toEqual([
      {
        id: 'C: BitLocker',
        kind: 'bitlocker',
        name: null,
        sizeBytes: null,
        on: ['\\\\.\\PhysicalDrive0'],
        otherDisks: null,
        encryption: {
          kind: 'bitlocker',
          scope: 'block',
          cipher: 'xts-aes',
          keyBits: 128,
          hardware: false,
          protection: 'on',
          conversion: 'used-space-only',
          percentEncrypted: 100,
          keySlots: [
            { id: '0', type: 'TPM', tokens: [] },
            { id: '1', type: 'Numerical Password', tokens: [] },
          ],
          source: 'manage-bde',
        },
        passesDiscards: null,
      },
    ]);
    expect(facts.volumes).toEqual([
      expect.objectContaining({ id: 'C:', label: 'OS', on: 'C: BitLocker', encryptedBy: ['C: BitLocker'] }),
    ]);
    expect(context.warnings.some((warning) => warning.code === 'PLATFORM_LIMITED')).toBe(true);
  });

  it('German Windows 10: encryption still in progress at 100 %, kept as printed', async () => {
    const { facts } = await replay('windows-de-win10-bitlocker-in-progress', '0');
    expect(facts.volumes[0]?.encryption).toMatchObject({
      kind: 'bitlocker',
      cipher: 'xts-aes',
      keyBits: 128,
      conversion: 'encrypting',
      percentEncrypted: 100,
    });
  });
});
