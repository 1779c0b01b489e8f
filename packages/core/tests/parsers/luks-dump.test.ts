import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { parseLuks2JsonMetadata, parseLuksDumpText } from '../../src/parsers/cryptsetup/parse-luks-dump.js';
import { fixture } from '../support/fixtures.js';
import { expectEachUnrecognized, expectUnrecognized } from './expect-unrecognized.js';

const dump = (name: string) => fixture(`cryptsetup-luksdump/${name}/stdout`);
/** A keyslot as the parsers give it: the costs its KDF has (PBKDF2: hash, iterations; argon2: the rest), null others. */
const keyslot = (id: string, type: string, costs: Record<string, string | number>) => ({
  keyslot: id,
  type,
  ...{ hash: null, iterations: null, timeCost: null, memoryKibibytes: null, parallelThreads: null },
  ...costs,
});
/** A whole header with the cipher every header made here has: AES-XTS with a 512-bit key, no flags. */
const aesXts512 = (format: string, sectorBytes: number, pbkdf: object[]) => ({
  format,
  cipher: 'aes-xts-plain64',
  keyBits: 512,
  sectorBytes,
  pbkdf,
  flags: [],
  // LUKS2 dumps list their tokens (none in these headers); LUKS1 has none to list.
  ...(format === 'luks2' ? { tokens: [] } : {}),
});

describe('parseLuks2JsonMetadata', () => {
  it('reads a real LUKS2 header on an LVM logical volume (kernel lane, pbkdf2 with 1000 iterations)', () => {
    expect(parseLuks2JsonMetadata(dump('lv-luks2-pbkdf2-kernel-lane-debian12'))).toMatchObject(
      aesXts512('luks2', 512, [{ keyslot: '0', type: 'pbkdf2', hash: 'sha256', iterations: 1000 }]),
    );
  });

  it('reads cipher, key size, sector size and argon2id parameters of a header made here', () => {
    expect(parseLuks2JsonMetadata(dump('file-luks2-argon2id-sector4096-debian12'))).toEqual(
      aesXts512('luks2', 4096, [
        keyslot('0', 'argon2id', { timeCost: 4, memoryKibibytes: 65_536, parallelThreads: 2 }),
      ]),
    );
  });

  it('fails closed on JSON that is not LUKS2 metadata', () => {
    expectEachUnrecognized(parseLuks2JsonMetadata, ['{"keyslots": {}}', 'Dump operation is not supported']);
  });
});

describe('parseLuksDumpText', () => {
  it('reads a LUKS1 header made here', () => {
    expect(parseLuksDumpText(dump('file-luks1-pbkdf2-debian12'))).toEqual(
      aesXts512('luks1', 512, [keyslot('0', 'pbkdf2', { hash: 'sha256', iterations: 1000 })]),
    );
  });

  it('reads both argon2id keyslots of a Ceph OSD LUKS2 text dump', () => {
    expect(parseLuksDumpText(dump('text-luks2-argon2id-2keyslots-ceph-osd'))).toEqual(
      aesXts512('luks2', 4096, [
        keyslot('0', 'argon2id', { timeCost: 4, memoryKibibytes: 1_023_865, parallelThreads: 4 }),
        keyslot('1', 'argon2id', { timeCost: 4, memoryKibibytes: 989_547, parallelThreads: 4 }),
      ]),
    );
  });

  it('tolerates a pasted LUKS1 dump whose tabs were collapsed to single spaces', () => {
    const header = parseLuksDumpText(dump('text-luks1-whitespace-collapsed-librecrypt'));
    expect(header).toMatchObject({ format: 'luks1', cipher: 'aes-xts-plain', keyBits: 256 });
    expect(header.pbkdf).toEqual([keyslot('0', 'pbkdf2', { hash: 'sha512', iterations: 109_588 })]);
  });

  it('refuses a fragment without the Version line instead of guessing', () => {
    expectUnrecognized(() => parseLuksDumpText(dump('text-luks1-keyslots-fragment-omv')));
  });

  it.each([
    ['text-luks2-argon2id-2keyslots-ceph-osd', 'Digest:'],
    ['file-luks1-pbkdf2-debian12', 'Key Slot 7:'],
  ])('refuses every cut-short prefix of %s, carrying what it could read', (name, lastLine) => {
    const lines = dump(name).split('\n');
    const whole = lines.findIndex((line) => line.trim().startsWith(lastLine));
    expect(whole).toBeGreaterThan(0);
    const versionLine = lines.findIndex((line) => line.startsWith('Version:'));
    for (let keep = versionLine + 1; keep <= whole; keep += 1) {
      try {
        parseLuksDumpText(lines.slice(0, keep).join('\n'));
        expect.unreachable(`a prefix of ${String(keep)} lines passed as a whole header`);
      } catch (error) {
        expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
        expect((error as Error).message).toContain('cut short');
        expect((error as { details: { partial: { format: string } } }).details.partial.format).toMatch(
          /^luks[12]$/,
        );
      }
    }
    expect(() => parseLuksDumpText(lines.slice(0, whole + 1).join('\n'))).not.toThrow();
  });

  it('never crashes on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseLuksDumpText(`Version: ${text}`);
          parseLuksDumpText(text);
        } catch (error) {
          expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
        }
      }),
    );
  });
});

/*
 * LUKS2 headers made with cryptsetup 2.7 luksFormat --hw-opal ("hw-opal-crypt" segment) and --hw-opal-only
 * ("hw-opal"): fixtures written from cryptsetup v2.7.0's source (their PROVENANCE says which lines), and the real
 * header lines pasted in osquery#8402. The keyslots hold the 256-bit OPAL key and dm-crypt's 512-bit key as one.
 */
describe('LUKS2 on OPAL (cryptsetup --hw-opal / --hw-opal-only)', () => {
  const range = { lockingRange: 3, keyBits: 256, rangeBytes: 999_636_860_928 };
  const argon2id = [
    keyslot('0', 'argon2id', { timeCost: 4, memoryKibibytes: 1_048_576, parallelThreads: 4 }),
  ];
  const opalCrypt = {
    ...aesXts512('luks2', 4096, argon2id),
    opal: { segmentType: 'hw-opal-crypt', ...range },
  };
  const opalOnly = {
    format: 'luks2',
    cipher: null,
    keyBits: null,
    sectorBytes: null,
    pbkdf: argon2id,
    flags: [],
    tokens: [],
    opal: { segmentType: 'hw-opal', ...range },
  };

  it.each([
    ['json-luks2-hw-opal-crypt-constructed-v2.7', parseLuks2JsonMetadata, opalCrypt],
    ['text-luks2-hw-opal-crypt-constructed-v2.7', parseLuksDumpText, opalCrypt],
    ['json-luks2-hw-opal-only-constructed-v2.7', parseLuks2JsonMetadata, opalOnly],
    ['text-luks2-hw-opal-only-constructed-v2.7', parseLuksDumpText, opalOnly],
  ])(
    '%s: dm-crypt’s cipher and key (the OPAL key taken out of the keyslot’s) and the locking range',
    (name, parse, expected) => {
      expect(parse(dump(name))).toEqual(expected);
    },
  );

  it('refuses the header lines pasted in osquery#8402 as cut short, with the OPAL requirement read', () => {
    try {
      parseLuksDumpText(dump('text-luks2-hw-opal-header-osquery-8402'));
      expect.unreachable('a header without its segments passed as a whole header');
    } catch (error) {
      expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
      expect((error as { details: { partial: unknown } }).details.partial).toMatchObject({
        format: 'luks2',
        cipher: null,
        keyBits: null,
        opal: { segmentType: null, lockingRange: null, keyBits: null, rangeBytes: null },
      });
    }
  });

  it('a LUKS2 header without OPAL carries no opal part', () => {
    expect(parseLuks2JsonMetadata(dump('file-luks2-argon2id-sector4096-debian12'))).not.toHaveProperty(
      'opal',
    );
    expect(parseLuksDumpText(dump('text-luks2-argon2id-2keyslots-ceph-osd'))).not.toHaveProperty('opal');
  });
});
