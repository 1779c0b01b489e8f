import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { parseLuks2JsonMetadata, parseLuksDumpText } from '../../src/parsers/cryptsetup/parse-luks-dump.js';
import { fixture } from '../support/fixtures.js';

describe('parseLuks2JsonMetadata', () => {
  it('reads a real LUKS2 header on an LVM logical volume (kernel lane, pbkdf2 with 1000 iterations)', () => {
    expect(
      parseLuks2JsonMetadata(fixture('cryptsetup-luksdump/lv-luks2-pbkdf2-kernel-lane-debian12/stdout')),
    ).toMatchObject({
      format: 'luks2',
      cipher: 'aes-xts-plain64',
      keyBits: 512,
      sectorBytes: 512,
      pbkdf: [{ keyslot: '0', type: 'pbkdf2', hash: 'sha256', iterations: 1000 }],
    });
  });

  it('reads cipher, key size, sector size and argon2id parameters of a header made here', () => {
    expect(
      parseLuks2JsonMetadata(fixture('cryptsetup-luksdump/file-luks2-argon2id-sector4096-debian12/stdout')),
    ).toEqual({
      format: 'luks2',
      cipher: 'aes-xts-plain64',
      keyBits: 512,
      sectorBytes: 4096,
      pbkdf: [
        {
          keyslot: '0',
          type: 'argon2id',
          hash: null,
          iterations: null,
          timeCost: 4,
          memoryKibibytes: 65_536,
          parallelThreads: 2,
        },
      ],
      flags: [],
    });
  });

  it('fails closed on JSON that is not LUKS2 metadata', () => {
    expect(() => parseLuks2JsonMetadata('{"keyslots": {}}')).toThrowError(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
    );
    expect(() => parseLuks2JsonMetadata('Dump operation is not supported')).toThrowError(
      expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }),
    );
  });
});

describe('parseLuksDumpText', () => {
  it('reads a LUKS1 header made here', () => {
    expect(parseLuksDumpText(fixture('cryptsetup-luksdump/file-luks1-pbkdf2-debian12/stdout'))).toEqual({
      format: 'luks1',
      cipher: 'aes-xts-plain64',
      keyBits: 512,
      sectorBytes: 512,
      pbkdf: [
        {
          keyslot: '0',
          type: 'pbkdf2',
          hash: 'sha256',
          iterations: 1000,
          timeCost: null,
          memoryKibibytes: null,
          parallelThreads: null,
        },
      ],
      flags: [],
    });
  });

  it('reads both argon2id keyslots of a Ceph OSD LUKS2 text dump', () => {
    const header = parseLuksDumpText(
      fixture('cryptsetup-luksdump/text-luks2-argon2id-2keyslots-ceph-osd/stdout'),
    );
    expect(header).toMatchObject({
      format: 'luks2',
      cipher: 'aes-xts-plain64',
      keyBits: 512,
      sectorBytes: 4096,
      flags: [],
    });
    expect(
      header.pbkdf.map((slot) => [
        slot.keyslot,
        slot.type,
        slot.timeCost,
        slot.memoryKibibytes,
        slot.parallelThreads,
      ]),
    ).toEqual([
      ['0', 'argon2id', 4, 1_023_865, 4],
      ['1', 'argon2id', 4, 989_547, 4],
    ]);
  });

  it('tolerates a pasted LUKS1 dump whose tabs were collapsed to single spaces', () => {
    const header = parseLuksDumpText(
      fixture('cryptsetup-luksdump/text-luks1-whitespace-collapsed-librecrypt/stdout'),
    );
    expect(header).toMatchObject({ format: 'luks1', cipher: 'aes-xts-plain', keyBits: 256 });
    expect(header.pbkdf).toEqual([
      {
        keyslot: '0',
        type: 'pbkdf2',
        hash: 'sha512',
        iterations: 109_588,
        timeCost: null,
        memoryKibibytes: null,
        parallelThreads: null,
      },
    ]);
  });

  it('refuses a fragment without the Version line instead of guessing', () => {
    expect(() =>
      parseLuksDumpText(fixture('cryptsetup-luksdump/text-luks1-keyslots-fragment-omv/stdout')),
    ).toThrowError(expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }));
  });

  it.each([
    ['text-luks2-argon2id-2keyslots-ceph-osd', 'Digest:'],
    ['file-luks1-pbkdf2-debian12', 'Key Slot 7:'],
  ])('refuses every cut-short prefix of %s, carrying what it could read', (name, lastLine) => {
    const lines = fixture(`cryptsetup-luksdump/${name}/stdout`).split('\n');
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
