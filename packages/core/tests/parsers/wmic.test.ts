import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeWmicOutput,
  parseEncryptableVolumes,
  parseWmicList,
} from '../../src/parsers/wmic/parse-wmic-list.js';
import { checkHostileInputs } from '../../../../tests/support/parser-properties.js';
import { FIXTURES } from '../support/fixtures.js';
import { expectEachUnrecognized } from './expect-unrecognized.js';

const wmi = (name: string): string =>
  decodeWmicOutput(readFileSync(path.join(FIXTURES, 'wmic', name, 'stdout.wmi')));

describe('wmic /format:list (UTF-16LE with BOM, CRLF) on real captures', { timeout: 60_000 }, () => {
  it('reads MSFT_PhysicalDisk of the Latitude 7480: NVMe (BusType 17), SSD (MediaType 4), 4096-byte sectors', () => {
    const [disk] = parseWmicList(wmi('latitude-7480-nvme-skhynix-pc300-msft-physicaldisk-list-utf16'));
    expect(disk).toMatchObject({
      FriendlyName: 'PC300 NVMe SK hynix 512GB',
      BusType: '17',
      MediaType: '4',
      PhysicalSectorSize: '4096',
      DeviceId: '0',
    });
  });

  it('decodes &amp; in PNPDeviceID and reads the NVMe disk that Win32_DiskDrive calls SCSI', () => {
    const [drive] = parseWmicList(wmi('latitude-7480-nvme-skhynix-pc300-win32-diskdrive-list-utf16'));
    expect(drive?.['InterfaceType']).toBe('SCSI');
    expect(drive?.['PNPDeviceID']).toMatch(/&/);
    expect(drive?.['PNPDeviceID']).not.toMatch(/&amp;/);
  });

  it('reads the three volumes of Win32_Volume as three instances', () => {
    const volumes = parseWmicList(wmi('win10-bitlocker-toshiba-xg5-nvme-win32-volume-list-utf16'));
    expect(volumes).toHaveLength(3);
    expect(volumes.map((volume) => volume['FileSystem'])).toEqual(['NTFS', 'NTFS', 'FAT32']);
    expect(
      parseWmicList(wmi('win10-bitlocker-toshiba-xg5-nvme-win32-diskdrive-list-utf16'))[0]?.['Model'],
    ).toBe('KXG50ZNV512G NVMe TOSHIBA 512GB');
  });

  it('reads BitLocker on C: as software AES-256 CBC (EncryptionMethod 4), fully encrypted, protection on', () => {
    expect(
      parseEncryptableVolumes(wmi('win10-bitlocker-toshiba-xg5-nvme-win32-encryptablevolume-list-utf16')),
    ).toEqual([
      {
        driveLetter: 'C:',
        method: { text: 'AES 256', kind: 'aes-cbc', keyBits: 256 },
        protectionOn: true,
        conversionStatus: 1,
      },
    ]);
    expect(parseEncryptableVolumes('EncryptionMethod=5\r\nProtectionStatus=1\r\n')[0]?.method.kind).toBe(
      'hardware',
    );
  });

  it('fails closed on other text and never crashes on hostile input', () => {
    expectEachUnrecognized(parseWmicList, ['', '\r\n\r\n', 'Node,Name\r\nPC,x']);
    checkHostileInputs(parseWmicList);
    checkHostileInputs(parseEncryptableVolumes);
  });
});
