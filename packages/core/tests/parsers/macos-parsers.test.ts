import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { parseDiskutilApfsList } from '../../src/parsers/diskutil/parse-diskutil-apfs-list.js';
import { parseDiskutilInfo } from '../../src/parsers/diskutil/parse-diskutil-info.js';
import { parseDiskutilList } from '../../src/parsers/diskutil/parse-diskutil-list.js';
import { parseFdesetupStatus } from '../../src/parsers/fdesetup/parse-fdesetup-status.js';
import { parsePlist } from '../../src/parsers/plist/parse-plist.js';
import { parseSysctlCpu } from '../../src/parsers/sysctl/parse-sysctl-cpu.js';
import {
  parseSystemProfilerJson,
  parseSystemProfilerXml,
} from '../../src/parsers/system-profiler/parse-system-profiler.js';
import { fixture } from '../support/fixtures.js';
import { expectEachUnrecognized } from './expect-unrecognized.js';

const info = (name: string): ReturnType<typeof parseDiskutilInfo> =>
  parseDiskutilInfo(fixture(`diskutil/${name}/stdout.plist`));

describe('parsePlist', () => {
  it('reads every element of the plist DTD and decodes entities', () => {
    const text =
      '<?xml version="1.0"?><!DOCTYPE plist><plist version="1.0"><dict><key>a &amp; b</key><string>&lt;x&gt; &#x2014;</string>' +
      '<key>n</key><integer>-42</integer><key>r</key><real>1.5</real><key>t</key><true/><key>f</key><false/>' +
      '<key>e</key><array/><key>s</key><string/></dict></plist>';
    expect(parsePlist('test', text)).toEqual({
      'a & b': '<x> \u2014',
      n: -42,
      r: 1.5,
      t: true,
      f: false,
      e: [],
      s: '',
    });
  });

  it('refuses unknown elements, markup inside strings, a missing root and trailing content', () => {
    for (const text of [
      '<plist><dict><key>a</key><foo/></dict></plist>',
      '<plist><string>a<b/></string></plist>',
      '<dict></dict>',
      '<plist><dict/></plist><plist><dict/></plist>',
      '<plist><dict><string>no key</string></dict></plist>',
      '<plist><integer>1.5</integer></plist>',
    ]) {
      expect(() => parsePlist('test', text), text).toThrow(
        expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
      );
    }
  });
});

describe('parseDiskutilInfo on real captures', () => {
  it('reads the Catalina system volume: FileVault, no AES hardware (no T2), internal PCI SSD', () => {
    const system = info('info-plist-intel-catalina-disk1s5-system-filevault');
    expect(system).toMatchObject({
      deviceIdentifier: 'disk1s5',
      parentWholeDisk: 'disk1',
      busProtocol: 'PCI',
      internal: true,
      solidState: true,
      encryption: true,
      fileVault: true,
      aesHardware: false,
      blockSizeBytes: 4096,
      apfsContainerReference: 'disk1',
      apfsPhysicalStores: ['disk0s2'],
      writable: false,
    });
  });

  it('keeps the EM DASH of the Data volume name (UTF-8, not ASCII)', () => {
    expect(info('info-plist-intel-catalina-disk1s1-data-filevault').volumeName).toBe(
      'Macintosh HD \u2014 Data',
    );
  });

  it('reads the sealed macOS 11 snapshot and the external USB HDD whose SolidState and encryption keys are absent', () => {
    expect(info('info-plist-internal-ssd-filevault-macos11')).toMatchObject({
      sealed: 'Yes',
      fileVault: true,
      solidState: true,
    });
    expect(info('info-plist-external-usb-hdd-hfsplus-5tb')).toMatchObject({
      busProtocol: 'USB',
      internal: false,
      solidState: null,
      smartStatus: 'Not Supported',
      encryption: null,
      fileVault: null,
    });
  });

  it('reads a trimmed document with its missing keys as null, never as false', () => {
    const trimmed = info('info-plist-apfs-boot-volume-trimmed-macos10.13');
    expect(trimmed.fileVault).toBeNull();
    expect(trimmed.busProtocol).toBeNull();
  });

  it("turns diskutil's error document into TOOL_FAILED carrying its message and exit code", () => {
    let caught: unknown = null;
    try {
      info('info-plist-error-could-not-find-disk');
    } catch (error) {
      caught = error;
    }
    expect(isEncplanError(caught, 'TOOL_FAILED')).toBe(true);
    expect(caught).toMatchObject({
      message: expect.stringContaining('Could not find disk: /Volumes/SMB') as unknown,
      details: { exitCode: 1 },
    });
  });
});

describe('parseDiskutilApfsList on real captures', () => {
  it('tells encrypted from FileVault: VM and edenfs volumes are encrypted without FileVault', () => {
    const [container] = parseDiskutilApfsList(
      fixture('diskutil/apfs-list-plist-intel-500gb-7-volumes-edenfs/stdout.plist'),
    );
    expect(container?.containerReference).toBe('disk1');
    expect(container?.capacityCeilingBytes).toBe(499963174912);
    expect(container?.physicalStores).toEqual(['disk0s2']);
    expect(container?.volumes).toHaveLength(7);
    const byName = new Map(container?.volumes.map((volume) => [volume.name, volume]));
    expect(byName.get('Macintosh HD')).toMatchObject({ encryption: true, fileVault: true });
    expect(byName.get('VM')).toMatchObject({ encryption: true, fileVault: false });
    expect(byName.get('Preboot')).toMatchObject({ encryption: false, fileVault: false });
  });

  it('reads High Sierra volumes without a FileVault key as fileVault null', () => {
    const [container] = parseDiskutilApfsList(
      fixture('diskutil/apfs-list-plist-macos10.13-250gb-no-filevault-key/stdout.plist'),
    );
    expect(container?.volumes.map((volume) => [volume.name, volume.encryption, volume.fileVault])).toEqual([
      ['Macintosh HD', false, null],
      ['Preboot', false, null],
      ['Recovery', false, null],
      ['VM', false, null],
    ]);
  });

  it('reads the Mojave FileVault container', () => {
    const containers = parseDiskutilApfsList(
      fixture('diskutil/apfs-list-plist-mojave-500gb-filevault-on/stdout.plist'),
    );
    expect(containers[0]?.volumes.find((volume) => volume.name === 'Macintosh HD')).toMatchObject({
      fileVault: true,
      encryption: true,
    });
  });

  it('refuses a diskutil info document (no Containers)', () => {
    expect(() =>
      parseDiskutilApfsList(fixture('diskutil/info-plist-external-usb-hdd-hfsplus-5tb/stdout.plist')),
    ).toThrow(expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }));
  });
});

describe('parseDiskutilList on a real capture', () => {
  it('lists disk0 of an Apple-silicon VM with its ISC and APFS partitions', () => {
    const list = parseDiskutilList(
      fixture('diskutil/list-plist-tart-vm-apple-silicon-disk0-UNRESOLVED-REPO/stdout.plist'),
    );
    expect(list.wholeDisks).toEqual(['disk0']);
    expect(list.disks).toEqual([
      {
        deviceIdentifier: 'disk0',
        content: 'GUID_partition_scheme',
        sizeBytes: 500277792768,
        partitions: [
          {
            deviceIdentifier: 'disk0s1',
            content: 'Apple_APFS_ISC',
            sizeBytes: 524288000,
            volumeName: null,
            mountPoint: null,
          },
          {
            deviceIdentifier: 'disk0s2',
            content: 'Apple_APFS',
            sizeBytes: 494384795648,
            volumeName: null,
            mountPoint: null,
          },
        ],
        apfsVolumes: [],
      },
    ]);
  });
});

describe('parseSystemProfiler on real captures', () => {
  it('reads the Apple-silicon NVMe drive (TRIM Yes, SSD) and the Apple Fabric volumes from JSON', () => {
    const storage = parseSystemProfilerJson(
      fixture('system-profiler/spnvme-spstorage-apple-silicon-ap0256z-json/stdout.json'),
    );
    expect(storage.dataTypes).toEqual(['SPNVMeDataType', 'SPSerialATADataType', 'SPStorageDataType']);
    expect(storage.drives).toHaveLength(1);
    expect(storage.drives[0]).toMatchObject({
      bsdName: 'disk0',
      model: 'APPLE SSD AP0256Z',
      controller: 'Apple SSD Controller',
      trimSupported: true,
      medium: 'ssd',
      sizeBytes: 251000193024,
      smartStatus: 'Verified',
      removable: false,
    });
    expect(storage.drives[0]?.partitions.map((partition) => partition.content)).toEqual([
      'Apple_APFS_ISC',
      'Apple_APFS',
      'Apple_APFS_Recovery',
    ]);
    expect(
      storage.volumes.map((volume) => [volume.bsdName, volume.protocol, volume.internal, volume.writable]),
    ).toEqual([
      ['disk3s5', 'Apple Fabric', true, true],
      ['disk3s1s1', 'Apple Fabric', true, false],
    ]);
  });

  it('reads SATA drives from XML: TRIM Yes on the Apple SSD; the rotational HDD without the key is null, not false', () => {
    const ssd = parseSystemProfilerXml(
      fixture('system-profiler/spserialata-apple-ssd-sd0128f-xml/stdout.xml'),
    );
    expect(ssd.drives).toHaveLength(1);
    expect(ssd.drives[0]).toMatchObject({
      bsdName: 'disk0',
      model: 'APPLE SSD SD0128F',
      trimSupported: true,
      medium: 'ssd',
      sizeBytes: 121332826112,
    });
    const hdd = parseSystemProfilerXml(
      fixture('system-profiler/spserialata-wdc-wd2500aajs-hdd-xml/stdout.xml'),
    );
    expect(hdd.drives[0]).toMatchObject({ medium: 'rotational', trimSupported: null });
    expect(hdd.drives[0]?.model).toMatch(/^WDC WD2500AAJS/);
  });

  it('refuses JSON without a storage data type and XML that is not an array of data types', () => {
    expect(() => parseSystemProfilerJson('{"SPAudioDataType":[]}')).toThrow(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
    );
    expect(() =>
      parseSystemProfilerXml(fixture('diskutil/info-plist-external-usb-hdd-hfsplus-5tb/stdout.plist')),
    ).toThrow(expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }));
  });
});

describe('parseSysctlCpu on real captures', () => {
  it('finds AES on the i5-2557M and none on the Core 2 Duo', () => {
    expect(parseSysctlCpu(fixture('sysctl/machdep-cpu-macos10.12-i5-2557m-aes/stdout.txt'))).toMatchObject({
      aes: true,
      appleSilicon: false,
      virtualMachine: false,
    });
    expect(parseSysctlCpu(fixture('sysctl/machdep-cpu-macos10.6-core2duo-no-aes/stdout.txt')).aes).toBe(
      false,
    );
  });

  it('trusts what the guest OS sees: an i5-4440 in a VM without the AES flag has no AES', () => {
    const guest = parseSysctlCpu(fixture('sysctl/machdep-cpu-macos10.9-vm-guest-no-aes/stdout.txt'));
    expect(guest).toMatchObject({
      brand: 'Intel(R) Core(TM) i5-4440 CPU @ 3.10GHz',
      aes: false,
      virtualMachine: true,
    });
    expect(guest.features).toContain('AVX2');
  });

  it('reads Apple silicon as always having AES (documented hw.optional form, no public capture)', () => {
    expect(parseSysctlCpu('machdep.cpu.brand_string: Apple M1\nhw.optional.arm64: 1\n')).toMatchObject({
      appleSilicon: true,
      aes: true,
    });
    expect(parseSysctlCpu('hw.optional.arm64: 1\nhw.optional.arm.FEAT_AES: 1\n').aes).toBe(true);
  });

  it('fails closed on text that is not sysctl output', () => {
    expectEachUnrecognized(parseSysctlCpu, ['', 'FileVault is On.', 'kern.ostype: Darwin']);
  });
});

describe('parseFdesetupStatus on the documented format (no public capture exists)', () => {
  it('reads on, off and a conversion with its percentage', () => {
    expect(parseFdesetupStatus('FileVault is On.\n')).toEqual({ state: 'on', percentCompleted: null });
    expect(parseFdesetupStatus('FileVault is Off.\n')).toEqual({ state: 'off', percentCompleted: null });
    expect(parseFdesetupStatus('FileVault is On.\nEncryption in progress: Percent completed = 42\n')).toEqual(
      { state: 'encrypting', percentCompleted: 42 },
    );
    expect(
      parseFdesetupStatus('FileVault is On.\nDecryption in progress: Percent completed = 7.5\n'),
    ).toEqual({ state: 'decrypting', percentCompleted: 7.5 });
  });

  it('fails closed on anything else', () => {
    expectEachUnrecognized(parseFdesetupStatus, ['', 'FileVault is maybe.', 'Error: Unable to get status.']);
  });
});
