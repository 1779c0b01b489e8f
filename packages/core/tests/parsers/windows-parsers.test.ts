import { describe, expect, it } from 'vitest';
import { parseCrystalDiskMarkText } from '../../src/parsers/crystaldiskmark/parse-crystaldiskmark-text.js';
import { parseDiskspdText } from '../../src/parsers/diskspd/parse-diskspd-text.js';
import { parseDisableDeleteNotify } from '../../src/parsers/fsutil/parse-disable-delete-notify.js';
import {
  bitLockerMethodOf,
  parseManageBdeStatus,
} from '../../src/parsers/manage-bde/parse-manage-bde-status.js';
import { parseWindowsStorageJson } from '../../src/parsers/powershell/parse-storage-json.js';
import { bitLockerVolumeOfFormatList } from '../../../../tests/support/bitlocker-format-list.js';
import { fixture } from '../support/fixtures.js';
import { expectEachUnrecognized } from './expect-unrecognized.js';

describe('parseManageBdeStatus on real captures', () => {
  it('reads software XTS-AES 128 with TPM on Windows 11 (all-volumes header present)', () => {
    expect(parseManageBdeStatus(fixture('manage-bde/status-all-win11-xtsaes128-tpm/stdout.txt'))).toEqual([
      {
        volume: 'C:',
        label: 'OS',
        conversion: 'used-space-only-encrypted',
        conversionText: 'Used Space Only Encrypted',
        percentEncrypted: 100,
        method: { text: 'XTS-AES 128', kind: 'xts-aes', keyBits: 128 },
        protectionOn: true,
        locked: false,
        keyProtectors: ['TPM', 'Numerical Password'],
      },
    ]);
  });

  it('reads AES 256 as CBC and a decimal comma', () => {
    const [volume] = parseManageBdeStatus(
      fixture('manage-bde/status-c-win11-aes256-cbc-decimal-comma/stdout.txt'),
    );
    expect(volume?.method).toEqual({ text: 'AES 256', kind: 'aes-cbc', keyBits: 256 });
    expect(volume?.percentEncrypted).toBe(100);
    expect(volume?.keyProtectors).toEqual(['Numerical Password', 'Password']);
  });

  it('reads the German output and keeps 100 % and "in progress" side by side, as printed', () => {
    const [volume] = parseManageBdeStatus(
      fixture('manage-bde/status-de-win10-xtsaes128-100pct-in-progress/stdout.txt'),
    );
    expect(volume).toMatchObject({
      volume: 'C:',
      label: null,
      conversion: 'encryption-in-progress',
      percentEncrypted: 100,
      method: { kind: 'xts-aes', keyBits: 128 },
      protectionOn: true,
      locked: false,
      keyProtectors: ['TPM'],
    });
  });

  it('tells hardware encryption (a self-encrypting drive) from software methods', () => {
    expect(bitLockerMethodOf('Hardware Encryption - 1.3.111.2.1619.0.1.2').kind).toBe('hardware');
    expect(bitLockerMethodOf('XtsAes256')).toMatchObject({ kind: 'xts-aes', keyBits: 256 });
    expect(bitLockerMethodOf('None').kind).toBe('none');
    expect(bitLockerMethodOf('4').kind).toBe('unknown');
  });

  it('fails closed without a volume block or without a method', () => {
    for (const text of [
      '',
      'ERROR: An error occurred (code 0x80070005):\nAccess is denied.',
      'Volume C: [OS]\n    Conversion Status:    Fully Encrypted\n',
    ]) {
      expect(() => parseManageBdeStatus(text)).toThrow(
        expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
      );
    }
  });
});

describe('parseDisableDeleteNotify on real captures', () => {
  it('reads 0 as TRIM enabled for NTFS and ReFS', () => {
    expect(parseDisableDeleteNotify(fixture('fsutil/disabledeletenotify-ntfs0-refs0/stdout.txt'))).toEqual({
      ntfsTrimEnabled: true,
      refsTrimEnabled: true,
    });
  });

  it('reads the older form: NTFS 1 disables TRIM, ReFS not set is unknown', () => {
    expect(
      parseDisableDeleteNotify(fixture('fsutil/disabledeletenotify-ntfs1-refs-not-set-DOUBTFUL/stdout.txt')),
    ).toEqual({ ntfsTrimEnabled: false, refsTrimEnabled: null });
  });

  it('reads CRLF console output and fails closed on anything else', () => {
    expect(parseDisableDeleteNotify('NTFS DisableDeleteNotify = 0\r\n').ntfsTrimEnabled).toBe(true);
    expectEachUnrecognized(parseDisableDeleteNotify, [
      '',
      'Error:  Access is denied.',
      'NTFS DisableDeleteNotify = 2',
    ]);
  });
});

describe('parseWindowsStorageJson', () => {
  it('reads the GitHub runner capture: three virtual disks, RAW/GPT/MBR, NUL drive letters as none', () => {
    const storage = parseWindowsStorageJson(
      fixture('powershell/get-disk-get-partition-github-runner-ps51/stdout.json'),
    );
    expect(storage.administrator).toBe(true);
    expect(
      storage.disks.map((disk) => [disk.number, disk.busType, disk.partitionStyle, disk.isBoot]),
    ).toEqual([
      [2, 'File Backed Virtual', 'RAW', false],
      [0, 'SAS', 'GPT', true],
      [1, 'SAS', 'MBR', false],
    ]);
    expect(storage.partitions[0]).toMatchObject({
      diskNumber: 0,
      partitionNumber: 1,
      driveLetter: null,
      accessPaths: [],
    });
    expect(storage.partitions.some((partition) => partition.driveLetter === 'C')).toBe(true);
    expect(storage.partitions.find((partition) => partition.driveLetter === 'D')?.label).toBe(
      'Temporary Storage',
    );
  });

  it('joins Get-PhysicalDisk by number and maps CIM enumerations (documented format, no public capture of these cmdlets)', () => {
    const text = JSON.stringify({
      PhysicalDisks: {
        DeviceId: '0',
        FriendlyName: 'NVMe X',
        BusType: 17,
        MediaType: 4,
        HealthStatus: 0,
        PhysicalSectorSize: 4096,
      },
      Disks: [
        { Number: 0, FriendlyName: 'NVMe X', Size: 512110190592, PartitionStyle: 'GPT', BusType: 'NVMe' },
      ],
      ReliabilityCounters: [
        {
          DeviceId: '0',
          Temperature: 38,
          Wear: 3,
          PowerOnHours: 4961,
          ReadErrorsTotal: 0,
          WriteErrorsTotal: 0,
        },
      ],
      BitLockerVolumes: [
        {
          MountPoint: 'C:',
          EncryptionMethod: 'XtsAes128',
          VolumeStatus: 'FullyEncrypted',
          ProtectionStatus: 'On',
          EncryptionPercentage: 100,
          KeyProtector: [{ KeyProtectorType: 'Tpm' }],
        },
      ],
    });
    const storage = parseWindowsStorageJson(text);
    expect(storage.disks[0]).toMatchObject({
      busType: 'NVMe',
      mediaType: 'SSD',
      healthStatus: 'Healthy',
      physicalSectorBytes: 4096,
    });
    expect(storage.reliability[0]).toMatchObject({
      temperatureCelsius: 38,
      wearPercent: 3,
      powerOnHours: 4961,
    });
    expect(storage.bitLocker[0]).toMatchObject({
      mountPoint: 'C:',
      method: { kind: 'xts-aes', keyBits: 128 },
      protectionOn: true,
      keyProtectorTypes: ['Tpm'],
    });
  });

  it('reads LockStatus as the pipeline prints it, from real Get-BitLockerVolume Format-List captures', () => {
    // The properties the storage script selects, as Format-List printed them: the same enum names its [string]
    // casts write into the JSON (fixtures/powershell/PROVENANCE.md).
    const item = (name: string) => bitLockerVolumeOfFormatList(fixture(`powershell/${name}/stdout.txt`));
    const read = (volumes: readonly object[]) =>
      parseWindowsStorageJson(JSON.stringify({ Disks: [], BitLockerVolumes: volumes })).bitLocker;
    const dell = item('get-bitlockervolume-format-list-dell7390-xtsaes128-unlocked');
    const decrypted = item('get-bitlockervolume-format-list-win10-fully-decrypted-unlocked');
    const suspended = item('get-bitlockervolume-format-list-win-fullyencrypted-protection-off-tpm');
    expect(read([dell, decrypted, suspended])).toMatchObject([
      { mountPoint: 'C:', protectionOn: true, locked: false, keyProtectorTypes: ['Tpm', 'RecoveryPassword'] },
      { mountPoint: 'C:', volumeStatus: 'FullyDecrypted', protectionOn: false, locked: false },
      // Intune#77: fully encrypted, protection off, a TPM protector present.
      {
        mountPoint: 'C:',
        volumeStatus: 'FullyEncrypted',
        protectionOn: false,
        locked: false,
        method: { kind: 'xts-aes', keyBits: 128 },
        keyProtectorTypes: ['Tpm'],
      },
    ]);
    // Locked (the enum's other name, or GetLockStatus's 1); absent, as documents before the script selected it.
    expect(read([{ ...dell, LockStatus: 'Locked' }])[0]?.locked).toBe(true);
    expect(
      read([
        { ...dell, LockStatus: 1 },
        { ...dell, LockStatus: 0 },
      ]).map((v) => v.locked),
    ).toEqual([true, false]);
    const before: Record<string, unknown> = { ...dell };
    delete before.LockStatus;
    expect(read([before])[0]?.locked).toBeNull();
  });

  it('fails closed on JSON that is not the storage document', () => {
    for (const text of ['{}', '[]', '{"Disks": 3}', '{"Partitions":[{"DiskNumber":0}]}']) {
      expect(() => parseWindowsStorageJson(text), text).toThrow(
        expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
      );
    }
  });
});

describe('parseDiskspdText on real captures', () => {
  it('reads the Azure local SSD result: totals, read/write split, MiB/s', () => {
    const result = parseDiskspdText(fixture('diskspd/azure-d1v2-local-ssd-d-4k-rand-5050/stdout.txt'));
    expect(result).toMatchObject({
      testSeconds: 600,
      threadCount: 2,
      blockSizeBytes: 4096,
      outstandingIos: 32,
    });
    expect(result.total).toEqual({
      bytes: 123975102464,
      ios: 30267359,
      mebibytesPerSecond: 197.05,
      iops: 50445.24,
      averageLatencyMs: 1.268,
    });
    expect(result.read?.iops).toBe(25197.22);
    expect(result.write).not.toBeNull();
    // MB/s is MiB/s: bytes / test time / 2^20.
    expect(result.total.bytes / result.testSeconds / 2 ** 20).toBeCloseTo(result.total.mebibytesPerSecond, 1);
  });

  it('reads the wrapped console copy, the eMMC tablet and the container run with its percentile table', () => {
    const hdd = parseDiskspdText(
      fixture('diskspd/win81-lenovo-g580-wd5000lpcx-hdd-4k-rand-5050-console-wrapped80/stdout.txt'),
    );
    expect(hdd.total.iops).toBe(219.04);
    expect(hdd.percentiles.find((row) => row.percentile === 'max')).toEqual({
      percentile: 'max',
      readMs: 2087.053,
      writeMs: 3040.254,
      totalMs: 3040.254,
    });
    expect(
      parseDiskspdText(fixture('diskspd/win10-irbis-tw57-emmc-samsung-mdgaga-4k-rand-5050/stdout.txt')).total
        .iops,
    ).toBeGreaterThan(1000);
    const container = parseDiskspdText(
      fixture('diskspd/win10-1903-container-i7-6700-micron-m600-sata-ssd-4k-rand-5050-L/stdout.txt'),
    );
    expect(container.threadCount).toBe(8);
    expect(container.percentiles.length).toBeGreaterThan(5);
  });

  it('fails closed without a test time and a Total IO row', () => {
    expectEachUnrecognized(parseDiskspdText, [
      '',
      'Command Line: diskspd -b4K x',
      'actual test time: 1.00s\nTotal IO\ntotal: a | b | c | d',
    ]);
  });
});

describe('parseCrystalDiskMarkText on real captures', () => {
  it('reads the USB HDD run, including a latency that overflows its column', () => {
    const result = parseCrystalDiskMarkText(
      fixture('crystaldiskmark/cdm8.0.4-win10-wd40purx-hdd-usb/stdout.txt'),
    );
    expect(result).toMatchObject({
      version: '8.0.4',
      profile: 'Default',
      testSize: '1 GiB (x5) [P: 14% (539/3726GiB)]',
    });
    expect(result.tests).toHaveLength(8);
    expect(result.tests[2]).toEqual({
      direction: 'read',
      access: 'random',
      blockSizeBytes: 4096,
      queueDepth: 32,
      threads: 1,
      megabytesPerSecond: 0.64,
      iops: 156.2,
      latencyMicroseconds: 199524.93,
    });
    expect(result.tests[4]).toMatchObject({
      direction: 'write',
      access: 'sequential',
      blockSizeBytes: 1048576,
      queueDepth: 8,
    });
  });

  it('reads the USB SATA SSD run with a Comment line', () => {
    const result = parseCrystalDiskMarkText(
      fixture('crystaldiskmark/cdm8.0.4-win11-gw560-sata-ssd-usb/stdout.txt'),
    );
    expect(result.tests.filter((test) => test.direction === 'write')).toHaveLength(4);
    expect(result.tests[0]?.megabytesPerSecond).toBeGreaterThan(300);
  });

  it('fails closed without a header or a test line', () => {
    expectEachUnrecognized(parseCrystalDiskMarkText, [
      '',
      'CrystalDiskMark 8.0.4',
      '  SEQ    1MiB (Q=  8, T= 1):   194.805 MB/s',
    ]);
  });
});
