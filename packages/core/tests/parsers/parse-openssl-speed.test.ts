import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { cipherMeasurementsFromOpenssl } from '../../src/parsers/openssl-speed/openssl-speed-facts.js';
import { parseOpensslSpeed } from '../../src/parsers/openssl-speed/parse-openssl-speed.js';
import { expectUnrecognized } from './expect-unrecognized.js';
import { fixtureArgv, fixtureCases, readFixture } from '../../../../tests/support/fixture-files.js';

const TOOL = 'openssl-speed';
const parse = (name: string) => parseOpensslSpeed(readFixture(TOOL, name));

describe('parseOpensslSpeed on outputs captured on this machine (OpenSSL 3.0, x86 with VAES)', () => {
  it.each(fixtureCases(TOOL).filter((name) => !name.includes('error')))(
    'finds at least one positive figure in %s',
    (name) => {
      const result = parse(name);
      expect(result.results.length).toBeGreaterThan(0);
      expect(
        result.results.every((r) => Number.isSafeInteger(r.bytesPerSecond) && r.bytesPerSecond > 0),
      ).toBe(true);
    },
  );

  it.each([
    ['the machine-readable one-process figure in bytes per second', '1core', 1, 6245421056],
    ['the summed -multi figure and the block size from the children lines', 'multi2', 2, 7217213440],
  ])('reads %s', (_what, suffix, processCount, bytesPerSecond) => {
    expect(parse(`x86-vaes-debian12-aes-256-xts-${suffix}`)).toEqual({
      version: null,
      results: [{ algorithm: 'AES-256-XTS', messageBytes: 4096, bytesPerSecond }],
      processCount,
      format: 'machine',
    });
  });

  it('reads the human table in thousands of bytes per second, one figure per block size', () => {
    const result = parse('x86-vaes-debian12-aes-256-xts-human-sizes');
    expect(result.version).toBe('3.0.22');
    expect(result.format).toBe('human');
    expect(result.results.map((r) => [r.messageBytes, r.bytesPerSecond])).toEqual([
      [16, 522109480],
      [64, 1625261460],
      [256, 3661721100],
      [1024, 5198087090],
      [8192, 6332677810],
      [16384, 6484036270],
    ]);
  });

  it('reads a human -multi table that has no "type" header, using the children block sizes', () => {
    const result = parse('x86-vaes-debian12-aes-256-xts-human-multi2');
    expect(result.processCount).toBe(2);
    expect(result.results.at(-1)).toEqual({
      algorithm: 'AES-256-XTS',
      messageBytes: 16384,
      bytesPerSecond: 13237452800,
    });
  });

  it('reads the five-column table of an older OpenSSL on another machine (a digest run)', () => {
    const result = parse('x86-openssl1.0-sha-digests-fwsgonzo-tls-linux');
    expect(result.version).toBeNull();
    expect(result.results).toHaveLength(15);
    expect(result.results[4]).toEqual({ algorithm: 'sha1', messageBytes: 8192, bytesPerSecond: 2008976040 });
    expect(result.results.at(-1)).toEqual({
      algorithm: 'sha512',
      messageBytes: 8192,
      bytesPerSecond: 689070080,
    });
  });

  it('refuses the empty stdout of an unknown cipher (the error is on stderr)', () => {
    expect(readFixture(TOOL, 'x86-debian12-unknown-cipher-error', 'stderr')).toContain(
      'serpent-xts is an unknown cipher',
    );
    expectUnrecognized(() => parse('x86-debian12-unknown-cipher-error'));
  });

  it('combines one-core and all-core, encrypt and decrypt runs into one measurement per cipher', () => {
    const run = (name: string, evp: 'aes-256-xts' | 'chacha20', decrypt: boolean, processes: number) => ({
      evp,
      decrypt,
      processes,
      messageBytes: 4096,
      argv: ['openssl', ...fixtureArgv(TOOL, name)],
      speed: parse(name),
    });
    const measurements = cipherMeasurementsFromOpenssl([
      run('x86-vaes-debian12-aes-256-xts-1core', 'aes-256-xts', false, 1),
      run('x86-vaes-debian12-aes-256-xts-multi2', 'aes-256-xts', false, 2),
      run('x86-vaes-debian12-aes-256-xts-decrypt-1core', 'aes-256-xts', true, 1),
      run('x86-vaes-debian12-aes-256-xts-decrypt-multi2', 'aes-256-xts', true, 2),
      run('x86-vaes-debian12-chacha20-1core', 'chacha20', false, 1),
    ]);
    expect(measurements).toEqual([
      {
        cipher: 'aes-xts',
        keyBits: 512,
        source: 'openssl',
        encryptBytesPerSecond: 6245421056,
        decryptBytesPerSecond: 6368292864,
        allCoresEncryptBytesPerSecond: 7217213440,
        allCoresDecryptBytesPerSecond: 6344413184,
        allCoresThreads: 2,
        messageBytes: 4096,
        argv: [
          'openssl',
          'speed',
          '-mr',
          '-elapsed',
          '-evp',
          'aes-256-xts',
          '-seconds',
          '1',
          '-bytes',
          '4096',
        ],
      },
      {
        cipher: 'chacha20',
        keyBits: 256,
        source: 'openssl',
        encryptBytesPerSecond: 5121826816,
        decryptBytesPerSecond: null,
        allCoresEncryptBytesPerSecond: null,
        allCoresDecryptBytesPerSecond: null,
        allCoresThreads: null,
        messageBytes: 4096,
        argv: ['openssl', 'speed', '-mr', '-elapsed', '-evp', 'chacha20', '-seconds', '1', '-bytes', '4096'],
      },
    ]);
  });
});

describe('parseOpensslSpeed on malformed and hostile input', () => {
  it('refuses a figure count that does not match the block sizes', () => {
    expectUnrecognized(() => parseOpensslSpeed('+H:16:64\n+F:25:AES-256-XTS:100.00\n'));
  });

  it('refuses lines from other openssl commands, such as RSA sign/verify tables', () => {
    expectUnrecognized(() =>
      parseOpensslSpeed(
        '                  sign    verify    sign/s verify/s\nrsa 2048 bits 0.000598s 0.000017s   1672.2  57736.4\n',
      ),
    );
  });

  it('either parses or throws TOOL_OUTPUT_UNRECOGNIZED for arbitrary text, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (noise) => {
        for (const text of [noise, `+H:4096\n${noise}`, `type 16 bytes\n${noise}`]) {
          try {
            const result = parseOpensslSpeed(text);
            expect(
              result.results.every((r) => Number.isFinite(r.bytesPerSecond) && r.bytesPerSecond >= 0),
            ).toBe(true);
          } catch (error) {
            expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
          }
        }
      }),
    );
  });

  it('handles a very long line of figures in linear time without crashing', () => {
    const started = Date.now();
    expectUnrecognized(() => parseOpensslSpeed(`AES-256-XTS ${'1.0k '.repeat(50_000)}x\n`));
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
