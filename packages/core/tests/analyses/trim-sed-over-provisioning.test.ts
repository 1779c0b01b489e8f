import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMountinfo } from '@encplan/core';
import { assessOverProvisioning, type OverProvisioningInput } from '../../src/analyses/over-provisioning.js';
import { assessSed } from '../../src/analyses/sed.js';
import { assessTrim } from '../../src/analyses/trim.js';
import { type SecurityCapability, type TrimCapability } from '../../src/domain/drive-capabilities.js';
import { overProvisioningSchema } from '../../src/domain/over-provisioning.js';
import { sedSchema } from '../../src/domain/sed.js';
import { trimSchema } from '../../src/domain/trim.js';
import { parseSystemctlShow, systemdTimestampToIso } from '../../src/parsers/systemctl/show.js';
import { checkHostileInputs, checkHugeInput } from '../../../../tests/support/parser-properties.js';

const ATA_TRIM: TrimCapability = {
  supported: true,
  deterministic: true,
  zeroed: false,
  mechanism: 'ata-dsm-trim',
  origin: 'smartctl',
  field: 'trim',
};
const limits = (maxBytes: number) => ({
  granularityBytes: 512,
  maxBytes,
  maxHardwareBytes: maxBytes,
  alignmentOffsetBytes: 0,
});

describe('assessTrim', () => {
  it.each([
    ['the kernel sends discards', [ATA_TRIM], limits(2 ** 31), null, 'sata', 'supported'],
    [
      'a USB bridge in provisioning_mode full hides a TRIM-capable SSD',
      [ATA_TRIM],
      limits(0),
      'full',
      'usb',
      'blocked-by-bridge',
    ],
    ['a SATA controller hides a TRIM-capable SSD', [ATA_TRIM], limits(0), null, 'sata', 'blocked-by-kernel'],
    ['the drive has no TRIM', [{ ...ATA_TRIM, supported: false }], limits(0), null, 'sata', 'not-supported'],
    ['nothing is known', [], null, null, 'sata', 'unknown'],
  ] as const)('reports %s as %s', (_what, capabilities, diskDiscard, provisioningMode, transport, status) => {
    const trim = assessTrim({
      capabilities,
      diskKernelName: 'sda',
      diskDiscard,
      provisioningMode,
      transport,
    });
    expect(trim.status).toBe(status);
    expect(trimSchema.parse(trim)).toEqual(trim);
  });

  it('takes the first tool that knows each fact and names the bridge fix', () => {
    const idNs: TrimCapability = {
      supported: null,
      deterministic: true,
      zeroed: true,
      mechanism: 'nvme-deallocate',
      origin: 'nvme id-ns',
      field: 'dlfeat',
    };
    const idCtrl: TrimCapability = {
      supported: true,
      deterministic: null,
      zeroed: null,
      mechanism: 'nvme-deallocate',
      origin: 'nvme id-ctrl',
      field: 'oncs',
    };
    const trim = assessTrim({
      capabilities: [idCtrl, idNs],
      diskKernelName: 'nvme0n1',
      diskDiscard: limits(2 ** 41),
      provisioningMode: null,
      transport: 'nvme',
    });
    expect(trim).toMatchObject({
      deviceSupportsTrim: true,
      readsZeroesAfterTrim: true,
      mechanism: 'nvme-deallocate',
    });
    expect(trim.evidence.map((e) => e.origin)).toEqual([
      'nvme id-ctrl',
      'nvme id-ns',
      '/sys/block/nvme0n1/queue/discard_max_bytes',
    ]);
    const usb = assessTrim({
      capabilities: [ATA_TRIM],
      diskKernelName: 'sdc',
      diskDiscard: limits(0),
      provisioningMode: 'full',
      transport: 'usb',
    });
    expect(usb.fix).toContain('provisioning_mode');
  });
});

describe('assessSed', () => {
  const nvme = (oacsBit0: boolean | null): SecurityCapability => ({
    nvmeSecuritySendReceive: oacsBit0,
    nvmeNamespaceManagement: false,
    ataTrustedComputing: null,
    ataSecurity: null,
    origin: 'nvme id-ctrl',
  });
  const scan = (flags: string) => ({
    device: '/dev/sda',
    flags,
    opal1: flags.includes('1'),
    opal2: flags.includes('2'),
    enterprise: flags.includes('E'),
    opalite: false,
    pyrite: flags.includes('p'),
    ruby: false,
    model: 'X',
  });
  it.each([
    ['Opal 2 from sedutil', [], scan('2'), 'opal'],
    ['Enterprise from sedutil', [], scan('E'), 'enterprise'],
    ['Pyrite only from sedutil', [], scan('p'), 'pyrite-only'],
    ['a non-SED from sedutil', [], scan('No'), 'not-sed'],
    ['OACS bit 0 without sedutil', [nvme(true)], null, 'possible'],
    ['no Security Send/Receive', [nvme(false)], null, 'not-sed'],
    ['nothing known', [], null, 'unknown'],
  ] as const)(
    'reports %s as %s, and never recommends hardware-only encryption',
    (_what, capabilities, sedutil, status) => {
      const sed = assessSed(capabilities, sedutil);
      expect(sed.status).toBe(status);
      expect(sedSchema.parse(sed)).toEqual(sed);
      if (status === 'opal' || status === 'enterprise' || status === 'possible') {
        expect(sed.explanation).toContain('Self-encrypting deception');
      }
    },
  );
});

describe('assessOverProvisioning', () => {
  const GB = 1_000_000_000;
  const base: OverProvisioningInput = {
    diskPath: '/dev/sda',
    diskSizeBytes: 500 * GB,
    unallocatedBytes: 50 * GB,
    unallocatedRegions: [{ startBytes: 450 * GB, sizeBytes: 50 * GB }],
    unallocatedKnownTrimmed: null,
    trimSupported: true,
    discardMaxBytes: 2_147_450_880,
    rotational: false,
    nvmeUnallocatedCapacityBytes: null,
    factorySpareBytes: null,
    filesystems: [{ mountpoint: '/', sizeBytes: 440 * GB, usedBytes: 400 * GB, discardsReachDrive: false }],
  };

  it('counts unallocated space only once it is known to be trimmed, and says how to trim it', () => {
    const unknown = assessOverProvisioning(base);
    expect(unknown).toMatchObject({
      status: 'unknown',
      unallocatedCountsAsSpare: 'only-if-trimmed',
      effectiveSpareBytes: 0,
      unallocatedPercent: 10,
    });
    expect(unknown.advice[0]).toBe(
      `Discard the unallocated region once so the drive can use it as spare: blkdiscard --offset ${450 * GB} --length ${50 * GB} /dev/sda (erases only that never-partitioned range).`,
    );
    const trimmed = assessOverProvisioning({ ...base, unallocatedKnownTrimmed: true });
    // ρ = 50 / 450 = 0.111; WA = (1 + ρ) / (2ρ) = 5.0 (Agarwal & Marrow).
    expect(trimmed).toMatchObject({
      status: 'adequate',
      effectiveSpareBytes: 50 * GB,
      spareFactor: 0.111,
      worstCaseWriteAmplification: 5,
    });
    expect(overProvisioningSchema.parse(trimmed)).toEqual(trimmed);
  });

  it('suggests blkdiscard only where the kernel sends the disk discards, as the spare-area commands do', () => {
    // discard_max_bytes 0: the kernel refuses BLKDISCARD (Documentation/ABI/stable/sysfs-block).
    const refused = assessOverProvisioning({ ...base, discardMaxBytes: 0 });
    expect(refused.advice.join(' ')).not.toContain('blkdiscard --offset');
    expect(refused.advice[0]).toContain('discard_max_bytes 0');
    expect(refused.unallocatedCountsAsSpare).toBe('only-if-trimmed');
    // Not read: unknown is not yes, so no command either.
    const unread = assessOverProvisioning({ ...base, discardMaxBytes: null });
    expect(unread.advice.join(' ')).not.toContain('blkdiscard --offset');
    expect(unread.advice[0]).toContain('/sys/block/sda/queue/discard_max_bytes');
    expect(assessOverProvisioning(base).advice[0]).toContain('blkdiscard --offset');
  });

  it('adds trimmed filesystem free space as dynamic spare and NVMe unallocated capacity', () => {
    const result = assessOverProvisioning({
      ...base,
      unallocatedBytes: 0,
      unallocatedRegions: [],
      nvmeUnallocatedCapacityBytes: 20 * GB,
      filesystems: [{ mountpoint: '/', sizeBytes: 480 * GB, usedBytes: 300 * GB, discardsReachDrive: true }],
    });
    expect(result).toMatchObject({
      status: 'generous',
      trimmedFreeBytes: 180 * GB,
      effectiveSpareBytes: 200 * GB,
    });
    expect(result.filesystems[0]?.usedPercent).toBe(62.5);
  });

  it('does not apply to spinning disks and says none for a full SSD without TRIM', () => {
    expect(assessOverProvisioning({ ...base, rotational: true }).status).toBe('not-applicable');
    expect(assessOverProvisioning({ ...base, trimSupported: false })).toMatchObject({
      status: 'none',
      unallocatedCountsAsSpare: 'no',
    });
  });

  it('keeps the effective spare between 0 and the disk size for any input', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10 ** 12 }),
        fc.nat({ max: 10 ** 12 }),
        fc.boolean(),
        (disk, unallocated, trimmed) => {
          const result = assessOverProvisioning({
            ...base,
            diskSizeBytes: disk + unallocated,
            unallocatedBytes: unallocated,
            unallocatedKnownTrimmed: trimmed,
            filesystems: [],
          });
          expect(result.effectiveSpareBytes).toBeGreaterThanOrEqual(0);
          expect(result.effectiveSpareBytes).toBeLessThanOrEqual(disk + unallocated);
        },
      ),
    );
  });
});

describe('parseMountinfo and parseSystemctlShow', () => {
  it('reads the proc(5) example line with per-mount and super options', () => {
    const [entry] = parseMountinfo(
      '36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n',
    );
    expect(entry).toEqual({
      deviceNumber: '98:0',
      root: '/mnt1',
      mountPoint: '/mnt/parent',
      filesystemType: 'ext3',
      source: '/dev/root',
      options: ['rw', 'noatime', 'rw', 'errors=continue'],
    });
  });

  it('survives hostile and huge input with typed errors', () => {
    checkHostileInputs(parseMountinfo, (entries) =>
      entries.forEach((entry) => expect(entry.deviceNumber).toMatch(/^\d+:\d+$/)),
    );
    checkHugeInput(parseMountinfo);
    checkHostileInputs(parseSystemctlShow, (properties) =>
      expect(Object.getPrototypeOf(properties)).toBe(Object.prototype),
    );
  });

  it('turns systemd UTC timestamps into ISO-8601 and "n/a" into null', () => {
    expect(systemdTimestampToIso('Mon 2026-11-16 00:00:01 UTC')).toBe('2026-11-16T00:00:01Z');
    expect(systemdTimestampToIso('n/a')).toBeNull();
  });
});
