import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import {
  kdfFactsFromCryptsetup,
  cipherFactsFromCryptsetup,
} from '../../src/parsers/cryptsetup-benchmark/cryptsetup-benchmark-facts.js';
import { parseCryptsetupBenchmark } from '../../src/parsers/cryptsetup-benchmark/parse-cryptsetup-benchmark.js';
import { expectUnrecognized } from './expect-unrecognized.js';
import { fixtureArgv, fixtureCases, readFixture } from '../../../../tests/support/fixture-files.js';

const TOOL = 'cryptsetup-benchmark';
const mib = (value: number) => Math.round(value * 1024 * 1024);
/** A parsed cipher row: rates as cryptsetup prints them, in MiB/s. */
const cipherRow = (cipher: string, keyBits: number, encryptMiB: number, decryptMiB: number) => ({
  cipher,
  keyBits,
  encryptBytesPerSecond: mib(encryptMiB),
  decryptBytesPerSecond: mib(decryptMiB),
});
/** A parsed argon2 line of cryptsetup 2.x, which always derives 256 bits for a 2000 ms target. */
const argon2 = (variant: string, timeCost: number, memoryKibibytes: number, threads: number) => ({
  variant,
  timeCost,
  memoryKibibytes,
  threads,
  derivedKeyBits: 256,
  requestedDurationMs: 2000,
});
const parse = (name: string, transcript = false) =>
  parseCryptsetupBenchmark(readFixture(TOOL, name), { transcript });

describe('parseCryptsetupBenchmark on real outputs', () => {
  it.each(fixtureCases(TOOL))('turns every figure line of %s into exactly one parsed figure', (name) => {
    const result = parse(name, name.endsWith('-transcript'));
    const figureLines = readFixture(TOOL, name)
      .split('\n')
      .filter((line) => /MiB\/s|N\/A|iterations/.test(line));
    expect(result.pbkdf2.length + result.argon2.length + result.ciphers.length).toBe(figureLines.length);
  });

  it('reads the cryptsetup 2.x default list of an AES-NI laptop: PBKDF2, argon2 and every cipher row', () => {
    const result = parse('x86-aesni-nvme-laptop-cryptsetup2.x-full');
    expect(result.pbkdf2).toEqual([
      { hash: 'sha1', iterationsPerSecond: 2205207, derivedKeyBits: 256 },
      { hash: 'sha256', iterationsPerSecond: 4088015, derivedKeyBits: 256 },
      { hash: 'sha512', iterationsPerSecond: 1685813, derivedKeyBits: 256 },
      { hash: 'ripemd160', iterationsPerSecond: 860899, derivedKeyBits: 256 },
      { hash: 'whirlpool', iterationsPerSecond: 678250, derivedKeyBits: 256 },
    ]);
    expect(result.argon2).toEqual([argon2('argon2i', 5, 1048576, 4), argon2('argon2id', 5, 1048576, 4)]);
    expect(result.ciphers).toHaveLength(11);
    expect(result.ciphers).toContainEqual(cipherRow('aes-xts', 512, 2334.9, 2329.1));
    expect(result.ciphers[0]).toEqual(cipherRow('aes-cbc', 128, 1105.1, 3125.5));
    expect(result.cipherTestUnavailable).toBe(false);
  });

  it('reads every row of a real kernel’s benchmark (kernel lane, QEMU TCG: emulated figures)', () => {
    const result = parse('qemu-tcg-debian12-kernel6.1-emulated-default');
    expect(result.pbkdf2.map((row) => row.hash)).toEqual([
      'sha1',
      'sha256',
      'sha512',
      'ripemd160',
      'whirlpool',
    ]);
    expect(result.argon2.map((row) => row.variant)).toEqual(['argon2i', 'argon2id']);
    expect(result.ciphers).toHaveLength(12);
    expect(result.ciphers).toContainEqual(cipherRow('aes-xts', 512, 31.4, 18));
    expect(result.cipherTestUnavailable).toBe(false);
    const adiantum = parse('qemu-tcg-debian12-kernel6.1-emulated-adiantum');
    expect(adiantum.ciphers).toEqual([cipherRow('xchacha12,aes-adiantum', 256, 0.4, 5.7)]);
  });

  it('reads the cryptsetup 1.7 narrow header without argon2 lines', () => {
    const result = parse('x86-no-aesni-parabola-cryptsetup1.7-oldformat-full');
    expect(result.argon2).toEqual([]);
    expect(result.pbkdf2.map((p) => p.iterationsPerSecond)).toEqual([382134, 479239, 347671, 319687, 221032]);
    expect(result.ciphers).toHaveLength(12);
    expect(result.ciphers).toContainEqual(cipherRow('serpent-xts', 256, 100.3, 104.5));
    expect(result.ciphers.at(-1)).toEqual(cipherRow('twofish-xts', 512, 93.9, 94.9));
  });

  it('reads a MIPS router board pasted in an issue: every cipher near 10 MiB/s', () => {
    const result = parse('mips-mt7621-gnubee-cryptsetup1.7-issue-paste');
    expect(result.pbkdf2.find((p) => p.hash === 'whirlpool')?.iterationsPerSecond).toBe(12365);
    expect(result.ciphers.find((row) => row.cipher === 'aes-xts' && row.keyBits === 512)).toEqual(
      cipherRow('aes-xts', 512, 8.7, 8.5),
    );
  });

  it('keeps N/A rows as null rates and turns them into unmeasured ciphers', () => {
    const result = parse('rpi4-arm64-manjaro-no-aes-serpent-NA-full');
    const notAvailable = ['serpent-cbc 128', 'serpent-cbc 256', 'serpent-xts 256', 'serpent-xts 512'];
    expect(
      result.ciphers
        .filter((row) => row.encryptBytesPerSecond === null)
        .map((row) => `${row.cipher} ${String(row.keyBits)}`),
    ).toEqual(notAvailable);
    expect(result.ciphers).toContainEqual(cipherRow('aes-xts', 256, 85, 74.9));
    expect(result.argon2[1]).toMatchObject({
      variant: 'argon2id',
      memoryKibibytes: 321984,
      timeCost: 4,
      threads: 4,
    });
    const facts = cipherFactsFromCryptsetup([{ argv: ['cryptsetup', 'benchmark'], benchmark: result }]);
    expect(facts.measurements).toHaveLength(8);
    expect(facts.unmeasured.map((u) => `${u.cipher} ${String(u.keyBits)}`)).toEqual(notAvailable);
  });

  it('reads Adiantum rows under the wider header and skips prompts only in transcript mode', () => {
    const pi5 = parse('rpi5-arm64-aes-ce-adiantum-vs-aes-transcript', true);
    expect(pi5.ciphers).toEqual([
      cipherRow('xchacha20,aes-adiantum', 256, 394.4, 421.6),
      cipherRow('aes-xts', 256, 1774.5, 1836.1),
      cipherRow('aes-cbc', 256, 923.4, 1895.6),
    ]);
    const pi4 = parse('rpi4-arm64-no-aes-adiantum-vs-aes-transcript', true);
    expect(pi4.ciphers[0]).toEqual(cipherRow('xchacha20,aes-adiantum', 256, 170.9, 180));
    expectUnrecognized(() => parse('rpi4-arm64-no-aes-adiantum-vs-aes-transcript'));
  });

  it('skips prompts that contain spaces, such as a bracketed root prompt, in transcript mode only', () => {
    const rhel = parse('s390x-rhel74-cpacf-bracket-prompt-transcript', true);
    expect(rhel.pbkdf2.map((p) => p.iterationsPerSecond)).toEqual([265059, 278876, 187245, 182551, 208381]);
    expect(rhel.ciphers).toHaveLength(12);
    expect(rhel.ciphers).toContainEqual(cipherRow('aes-xts', 512, 3766.1, 3747.9));
    expectUnrecognized(() => parse('s390x-rhel74-cpacf-bracket-prompt-transcript'));
    const caesar = parse('x86-cryptsetup1.6-root-prompt-transcript', true);
    expect(caesar.pbkdf2[0]).toEqual({ hash: 'sha1', iterationsPerSecond: 789590, derivedKeyBits: null });
    expect(
      caesar.ciphers.find((row) => row.cipher === 'twofish-xts' && row.keyBits === 512)
        ?.encryptBytesPerSecond,
    ).toBe(mib(221.1));
  });

  it.each([
    ['user@host:~ $ cryptsetup benchmark -c aes-xts-plain64'],
    ['[root@host ~]# cryptsetup benchmark'],
    ['me@box ~ % sudo -E /usr/sbin/cryptsetup benchmark'],
    ['user@host:~ $'],
  ])('treats "%s" as a prompt line of a transcript', (prompt) => {
    const real = readFixture(TOOL, 'x86-aesni-nvme-laptop-cryptsetup2.x-full');
    const result = parseCryptsetupBenchmark(`${prompt}\n${real}`, { transcript: true });
    expect(result.ciphers).toHaveLength(11);
  });

  it('reads a cryptsetup 1.6.2 output pasted with every line indented, the table header included', () => {
    const result = parse('x86-cryptsetup1.6.2-indented-block-transcript', true);
    expect(result.pbkdf2.map((p) => p.hash)).toEqual(['sha1', 'sha256', 'sha512', 'ripemd160', 'whirlpool']);
    expect(result.pbkdf2[1]).toEqual({ hash: 'sha256', iterationsPerSecond: 755458, derivedKeyBits: null });
    expect(result.ciphers).toHaveLength(12);
    expect(result.ciphers[0]).toEqual(cipherRow('aes-cbc', 128, 611.1, 2632));
    expect(result.ciphers.at(-1)).toEqual(cipherRow('twofish-xts', 512, 325.7, 329.8));
  });

  it('reads a run with only two cipher rows and no PBKDF section', () => {
    const result = parse('imx6ul-armv7-no-crypto-accel-2ciphers');
    expect(result.pbkdf2).toEqual([]);
    expect(result.ciphers).toEqual([
      cipherRow('aes-cbc', 256, 8.5, 8.5),
      cipherRow('aes-xts', 256, 11.6, 10.7),
    ]);
  });

  it('reads this machine without AF_ALG: PBKDF lines but no cipher rows at all', () => {
    const result = parse('linux-no-af-alg-debian12-default');
    expect(result.ciphers).toEqual([]);
    expect(result.pbkdf2.find((p) => p.hash === 'whirlpool')?.iterationsPerSecond).toBe(652099);
    expect(result.argon2[1]).toEqual(argon2('argon2id', 4, 833463, 4));
    expect(parse('linux-no-af-alg-debian12-aes-xts-512')).toEqual({
      pbkdf2: [],
      argon2: [],
      ciphers: [],
      cipherTestUnavailable: false,
    });
    expect(readFixture(TOOL, 'linux-no-af-alg-debian12-aes-xts-512', 'stderr')).toContain(
      'Required kernel crypto interface not available.',
    );
  });

  it('turns per-hash PBKDF2 runs into KDF facts, with Streebog unmeasured because the backend prints N/A', () => {
    const names = ['sha256', 'sha512', 'whirlpool', 'blake2s-256', 'streebog512'].map(
      (hash) => `linux-debian12-pbkdf2-${hash}`,
    );
    const runs = [...names, 'linux-debian12-argon2id'].map((name) => ({
      argv: fixtureArgv(TOOL, name),
      benchmark: parse(name),
    }));
    const facts = kdfFactsFromCryptsetup(runs);
    expect(facts.pbkdf2).toEqual([
      { hash: 'sha256', iterationsPerSecond: 4161015, derivedKeyBits: 256 },
      { hash: 'sha512', iterationsPerSecond: 1738932, derivedKeyBits: 256 },
      { hash: 'whirlpool', iterationsPerSecond: 492289, derivedKeyBits: 256 },
      { hash: 'blake2s-256', iterationsPerSecond: 1233618, derivedKeyBits: 256 },
    ]);
    expect(facts.unmeasured.map((u) => u.hash)).toEqual(['streebog512']);
    expect(facts.argon2).toEqual([argon2('argon2id', 4, 795258, 4)]);
  });
});

describe('parseCryptsetupBenchmark on malformed and hostile input', () => {
  const header = '# Tests are approximate using memory only (no storage IO).\n';

  it('refuses output without the benchmark header, such as a translated run or an empty string', () => {
    expectUnrecognized(() => parseCryptsetupBenchmark(''));
    expectUnrecognized(() => parseCryptsetupBenchmark('# Les tests sont approximatifs\n'));
  });

  it('refuses a cipher row that appears before any table header', () => {
    expectUnrecognized(() =>
      parseCryptsetupBenchmark(`${header}        aes-xts        256b      2734.6 MiB/s      2732.8 MiB/s\n`),
    );
  });

  it('refuses rates in units cryptsetup never prints and absurdly long numbers', () => {
    const table = `${header}#     Algorithm |       Key |      Encryption |      Decryption\n`;
    expectUnrecognized(() =>
      parseCryptsetupBenchmark(`${table}        aes-xts        256b      2734.6 GB/s      2732.8 MiB/s\n`),
    );
    expectUnrecognized(() =>
      parseCryptsetupBenchmark(
        `${table}        aes-xts        256b      ${'9'.repeat(400)} MiB/s      1.0 MiB/s\n`,
      ),
    );
  });

  it('refuses input larger than any benchmark output', () => {
    expectUnrecognized(() => parseCryptsetupBenchmark(header + 'x'.repeat(2 * 1024 * 1024)));
  });

  it('either parses or throws TOOL_OUTPUT_UNRECOGNIZED for arbitrary text, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.boolean(), (noise, transcript) => {
        for (const text of [noise, header + noise]) {
          try {
            const result = parseCryptsetupBenchmark(text, { transcript });
            for (const row of result.ciphers) {
              expect(
                row.encryptBytesPerSecond === null || Number.isSafeInteger(row.encryptBytesPerSecond),
              ).toBe(true);
            }
          } catch (error) {
            expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
          }
        }
      }),
    );
  });

  it('never returns a non-finite or negative figure for lines mutated from a real output', () => {
    const real = readFixture(TOOL, 'x86-aesni-nvme-laptop-cryptsetup2.x-full').split('\n');
    fc.assert(
      fc.property(
        fc.nat(real.length - 1),
        fc.string({ maxLength: 30 }),
        fc.nat(80),
        (lineIndex, insert, at) => {
          const lines = [...real];
          const line = lines[lineIndex]!;
          lines[lineIndex] = line.slice(0, at) + insert + line.slice(at);
          try {
            const result = parseCryptsetupBenchmark(lines.join('\n'));
            const numbers = [
              ...result.ciphers.flatMap((r) => [
                r.encryptBytesPerSecond ?? 0,
                r.decryptBytesPerSecond ?? 0,
                r.keyBits,
              ]),
              ...result.pbkdf2.map((p) => p.iterationsPerSecond ?? 0),
              ...result.argon2.flatMap((a) => [a.memoryKibibytes, a.timeCost, a.threads]),
            ];
            expect(numbers.every((n) => Number.isSafeInteger(n) && n >= 0)).toBe(true);
          } catch (error) {
            expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
          }
        },
      ),
    );
  });
});
