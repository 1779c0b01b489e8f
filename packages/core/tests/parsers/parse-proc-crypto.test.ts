import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveKernelCryptoFacts, isEncplanError, parseProcCrypto } from '@encplan/core';
import { classifyAesDriver } from '../../src/parsers/proc-crypto/kernel-crypto-facts.js';
import { fixtureCases, readFixture } from '../../../../tests/support/fixture-files.js';
import { expectEachUnrecognized } from './expect-unrecognized.js';

const TOOL = 'proc-crypto';
const parse = (name: string) => parseProcCrypto(readFixture(TOOL, name));
const noModules = { builtin: null, dep: null };
/** xts(aes) on the AES-NI driver, as the kernel crypto facts name it. */
const AESNI_XTS = { algorithm: 'xts(aes)', driver: 'xts-aes-aesni', module: 'aesni_intel', inferred: false };

describe('parseProcCrypto on real /proc/crypto contents', () => {
  it.each(fixtureCases(TOOL))('reads one entry per "name" line of %s', (name) => {
    const nameLines = readFixture(TOOL, name)
      .split('\n')
      .filter((line) => /^\s*name\s+:/.test(line)).length;
    expect(parse(name)).toHaveLength(nameLines);
  });

  it('finds the generic fixed-time AES behind xts(aes) on this machine, and no Adiantum', () => {
    const entries = parse('x86-vm-debian12-aes-fixed-time');
    expect(entries[0]).toEqual({
      name: 'xts(aes)',
      driver: 'xts(ecb(aes-fixed-time))',
      module: 'kernel',
      priority: 101,
      type: 'skcipher',
      internal: false,
      async: false,
      selftest: 'passed',
    });
    expect(deriveKernelCryptoFacts(entries, noModules)).toEqual({
      xtsAes: {
        algorithm: 'xts(aes)',
        driver: 'xts(ecb(aes-fixed-time))',
        module: 'kernel',
        priority: 101,
        inferred: false,
      },
      xtsAesImplementation: 'generic',
      adiantum: 'unknown',
      adiantumDrivers: [],
      algorithmCount: 58,
    });
  });

  it('picks AES-NI (priority 401) over the generic driver (priority 100) and ignores internal helpers', () => {
    const facts = deriveKernelCryptoFacts(parse('x86-aesni-grep-excerpt-cloudflare-2020'), noModules);
    expect(facts.xtsAes).toEqual({ ...AESNI_XTS, priority: 401 });
    expect(facts.xtsAesImplementation).toBe('cpu-instructions');
  });

  it('reads a full Debian 6.1 kernel (kernel lane, QEMU): AES-NI XTS and an instantiated Adiantum', () => {
    const facts = deriveKernelCryptoFacts(parse('qemu-tcg-debian12-kernel6.1-af-alg'), noModules);
    expect(facts.xtsAes).toMatchObject(AESNI_XTS);
    expect(facts.xtsAesImplementation).toBe('cpu-instructions');
    expect(facts.adiantumDrivers).toContain('adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)');
  });

  it('recognises the ARMv8 Crypto Extensions driver', () => {
    const facts = deriveKernelCryptoFacts(parse('arm64-aes-ce-excerpt-pureswift-cryptolinux'), noModules);
    expect(facts.xtsAes?.driver).toBe('xts-aes-ce');
    expect(facts.xtsAesImplementation).toBe('cpu-instructions');
  });

  it('predicts xts(ecb(<best aes>)) when xts(aes) has not been instantiated yet', () => {
    const withoutXts = parse('x86-vm-debian12-aes-fixed-time').filter(
      (entry) => !entry.name.startsWith('xts') && entry.name !== 'ecb(aes)',
    );
    const facts = deriveKernelCryptoFacts(withoutXts, noModules);
    expect(facts.xtsAes).toEqual({
      algorithm: 'xts(aes)',
      driver: 'xts(ecb(aes-fixed-time))',
      module: 'kernel',
      priority: 101,
      inferred: true,
    });
  });

  it('tells Adiantum availability from the kernel module lists when /proc/crypto does not list it', () => {
    const entries = parse('x86-vm-debian12-aes-fixed-time');
    expect(
      deriveKernelCryptoFacts(entries, { builtin: 'kernel/crypto/adiantum.ko\n', dep: '' }).adiantum,
    ).toBe('built-in');
    expect(
      deriveKernelCryptoFacts(entries, {
        builtin: '',
        dep: 'kernel/crypto/adiantum.ko.zst: kernel/crypto/nhpoly1305.ko.zst\n',
      }).adiantum,
    ).toBe('module');
    expect(deriveKernelCryptoFacts(entries, { builtin: 'kernel/fs/ext4/ext4.ko\n', dep: '' }).adiantum).toBe(
      'absent',
    );
  });
});

describe('classifyAesDriver', () => {
  it.each([
    ['xts(ecb(aes-fixed-time))', 'generic'],
    ['xts(ecb(aes-generic))', 'generic'],
    ['xts-aes-aesni', 'cpu-instructions'],
    ['xts-aes-vaes-avx10_512', 'cpu-instructions'],
    ['xts-aes-ce', 'cpu-instructions'],
    ['xts-aes-neonbs', 'bitsliced-simd'],
    ['xts-aes-caam', 'other'],
  ] as const)('classifies %s as %s', (driver, expected) => {
    expect(classifyAesDriver(driver)).toBe(expected);
  });
});

describe('parseProcCrypto on malformed and hostile input', () => {
  it('refuses text that is not key : value lines, and an entry without a driver', () => {
    expectEachUnrecognized(parseProcCrypto, [
      '',
      'hello world\n',
      'name         : aes\npriority     : 100\n',
      'name : aes\ndriver : x\npriority : high\n',
    ]);
  });

  it('either parses or throws TOOL_OUTPUT_UNRECOGNIZED for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (noise) => {
        try {
          const entries = parseProcCrypto(`name : aes\ndriver : aes-generic\npriority : 100\n${noise}`);
          expect(entries.every((e) => Number.isSafeInteger(e.priority))).toBe(true);
        } catch (error) {
          expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
        }
      }),
    );
  });
});
