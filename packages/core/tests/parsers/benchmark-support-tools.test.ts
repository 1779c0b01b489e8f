import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isEncplanError, parseLosetupList, parseMountinfo } from '@encplan/core';
import { parseDiskutilEncryption } from '../../src/parsers/diskutil/parse-diskutil-encryption.js';
import { parseVeracryptList } from '../../src/parsers/veracrypt/parse-veracrypt-list.js';
import { pidOfResourceName, resourceName } from '../../src/plan/encrypted-backends.js';
import { expectEachUnrecognized } from './expect-unrecognized.js';

const fixture = (relative: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../../fixtures/${relative}`, import.meta.url)), 'utf8');

describe('parseLosetupList', () => {
  it('lists loop devices and their backing files from a captured losetup --json', () => {
    expect(
      parseLosetupList(fixture('losetup/list-json-encplan-loop-debian12-util-linux2.38/stdout.json')),
    ).toEqual([
      {
        device: '/dev/loop1',
        backingFile: '/tmp/encplan-bench-999999-KJdS/image',
        backingFileDeleted: false,
      },
      { device: '/dev/loop0', backingFile: '/tmp/lt/img', backingFileDeleted: false },
    ]);
  });

  it('strips the (deleted) suffix of a removed backing file and reads empty output as no devices', () => {
    const text = JSON.stringify({
      loopdevices: [{ name: '/dev/loop3', 'back-file': '/x/encplan-bench-1-a/plain.img (deleted)' }],
    });
    expect(parseLosetupList(text)[0]).toEqual({
      device: '/dev/loop3',
      backingFile: '/x/encplan-bench-1-a/plain.img',
      backingFileDeleted: true,
    });
    expect(parseLosetupList('')).toEqual([]);
  });

  it('fails closed on output that is not losetup JSON', () => {
    expectEachUnrecognized(parseLosetupList, ['NAME BACK-FILE', '{"devices":[]}']);
  });
});

describe('parseVeracryptList', () => {
  it('reads both volumes of a captured veracrypt --text --list --verbose', () => {
    const volumes = parseVeracryptList(fixture('veracrypt/list-verbose-two-aes-volumes/stdout.txt'));
    expect(volumes).toEqual([
      {
        slot: 1,
        volume: '/dev/sdb1',
        virtualDevice: '/dev/mapper/veracrypt1',
        mountDirectory: '/home/bob/mount/encrypt/sdb1',
        encryptionAlgorithm: 'AES',
        // "Mode of Operation: XTS", primary 256 + secondary (XTS) 256 bits.
        mode: 'XTS',
        keyBits: 512,
      },
      {
        slot: 2,
        volume: '/dev/sdb2',
        virtualDevice: '/dev/mapper/veracrypt2',
        mountDirectory: '/home/bob/mount/encrypt/sdb2',
        encryptionAlgorithm: 'AES',
        mode: 'XTS',
        keyBits: 512,
      },
    ]);
  });

  it('fails closed on text without Slot and Volume lines', () => {
    try {
      parseVeracryptList('Error: something unexpected');
      expect.unreachable();
    } catch (error) {
      expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    }
  });
});

describe('parseDiskutilEncryption', () => {
  it('sees Encryption and FileVault in a captured diskutil info -plist', () => {
    expect(
      parseDiskutilEncryption(fixture('diskutil/info-plist-internal-ssd-filevault-macos11/stdout.plist')),
    ).toEqual({
      encrypted: true,
      fileVault: true,
      mountPoint: '/',
    });
  });

  it('rejects text that is not a property list', () => {
    expect(() => parseDiskutilEncryption('Could not find disk: /nope')).toThrow(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
    );
  });
});

describe('parseMountinfo', () => {
  it('reads device numbers, roots, octal-escaped mount points and sources (proc(5) format)', () => {
    const text = [
      '36 35 98:0 /mnt1 /mnt/with\\040space rw,noatime master:1 - ext3 /dev/root rw,errors=continue',
      '40 36 7:1 / /tmp/encplan-bench-12-ab/plain rw,relatime shared:5 - ext4 /dev/loop1 rw',
    ].join('\n');
    expect(
      parseMountinfo(text).map(({ deviceNumber, root, mountPoint, source }) => ({
        deviceNumber,
        root,
        mountPoint,
        source,
      })),
    ).toEqual([
      { deviceNumber: '98:0', root: '/mnt1', mountPoint: '/mnt/with space', source: '/dev/root' },
      { deviceNumber: '7:1', root: '/', mountPoint: '/tmp/encplan-bench-12-ab/plain', source: '/dev/loop1' },
    ]);
  });

  it('refuses a line that is not a mountinfo line rather than skipping a mount a guard must see', () => {
    expect(() => parseMountinfo('garbage line')).toThrow(/not a mountinfo line/);
  });
});

describe('resource names', () => {
  it('round-trips the pid through encplan-bench-<pid>-<suffix> and ignores other names', () => {
    expect(resourceName(4242, 'luks2-s4096')).toBe('encplan-bench-4242-luks2-s4096');
    expect(pidOfResourceName('/tmp/encplan-bench-4242-9f3a/plain.img')).toBe(4242);
    expect(pidOfResourceName('/tmp/other-4242-x')).toBeNull();
  });
});
