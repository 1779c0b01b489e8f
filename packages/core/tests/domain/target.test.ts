import { describe, expect, it } from 'vitest';
import { protectIdentifier } from '../../src/domain/identifier.js';
import { validateDeviceArgument } from '../../src/domain/target.js';

describe('validateDeviceArgument', () => {
  it.each([
    '/dev/sda',
    '/dev/nvme0n1',
    '/dev/disk/by-id/nvme-Samsung_SSD_980_1TB_S64ANS0T123456',
    '/dev/mapper/vg-root',
    '/dev/mmcblk0',
  ])('accepts %s', (path) => {
    expect(validateDeviceArgument(path)).toBe(path);
  });

  it.each([
    ['', 'empty'],
    ['-rf', 'dash'],
    ['--help', 'dash'],
    ['/dev/sda; rm -rf /', 'characters'],
    ['/dev/sda$(reboot)', 'characters'],
    ['/dev/sd`id`', 'characters'],
    ['/dev/sda && echo', 'characters'],
    ['/dev/sd a', 'characters'],
    ['/dev/sda\nsdb', 'characters'],
    ['sda', 'absolute'],
  ])('refuses %j with INVALID_ARGUMENT', (argument, why) => {
    expect(() => validateDeviceArgument(argument)).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(why) }),
    );
  });

  it('suggests the /dev path for a bare device name', () => {
    expect(() => validateDeviceArgument('nvme0n1')).toThrowError(
      expect.objectContaining({ hint: 'Did you mean /dev/nvme0n1?' }),
    );
  });
});

describe('protectIdentifier', () => {
  it('hashes a serial to a stable sha256 prefix and leaves hashed values alone', async () => {
    const hashed = await protectIdentifier('S64ANS0T123456', false);
    expect(hashed).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(await protectIdentifier('S64ANS0T123456', false)).toBe(hashed);
    expect(await protectIdentifier(hashed, false)).toBe(hashed);
  });

  it('keeps the serial when the user asks for serials, and null stays null', async () => {
    expect(await protectIdentifier('S64ANS0T123456', true)).toBe('S64ANS0T123456');
    expect(await protectIdentifier(null, false)).toBeNull();
  });
});
