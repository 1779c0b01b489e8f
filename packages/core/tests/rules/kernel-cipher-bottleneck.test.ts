import { describe, expect, it } from 'vitest';
import { type KernelCryptoFacts } from '@encplan/core';
import { type CipherSpeedFacts } from '../../src/domain/cipher.js';
import { findKernelCipherBottleneck } from '../../src/rules/kernel-cipher-bottleneck.js';
import { kernelCryptoOfFixture } from '../../../../tests/support/fixture-files.js';

// Facts derived from real /proc/crypto captures: this machine (generic) and a Cloudflare AES-NI server.
const generic: KernelCryptoFacts = kernelCryptoOfFixture('x86-vm-debian12-aes-fixed-time');
const accelerated: KernelCryptoFacts = kernelCryptoOfFixture('x86-aesni-grep-excerpt-cloudflare-2020');
const opensslSpeed: CipherSpeedFacts = {
  measurements: [
    {
      cipher: 'aes-xts',
      keyBits: 512,
      source: 'openssl',
      encryptBytesPerSecond: 5_000 * 1024 * 1024,
      decryptBytesPerSecond: null,
      allCoresEncryptBytesPerSecond: null,
      allCoresDecryptBytesPerSecond: null,
      allCoresThreads: null,
      messageBytes: 4096,
      argv: [],
    },
  ],
  unmeasured: [],
  kernelCipherBenchmarkAvailable: false,
};

describe('findKernelCipherBottleneck', () => {
  it.each([
    ['generic driver, CPU with AES', generic, true, true],
    ['generic driver, CPU without AES (nothing better exists)', generic, false, false],
    ['AES-NI driver, CPU with AES', accelerated, true, false],
    ['no xts(aes) information', { ...generic, xtsAes: null, xtsAesImplementation: null }, true, false],
  ] as const)('%s → finding: %s', (_label, kernel, cpuHasAes, expected) => {
    expect(findKernelCipherBottleneck({ kernel, cpuHasAes }) !== null).toBe(expected);
  });

  it('quotes the driver and the OpenSSL figure measured on the same CPU', () => {
    const finding = findKernelCipherBottleneck({
      kernel: generic,
      cpuHasAes: true,
      cipherSpeed: opensslSpeed,
    });
    expect(finding?.id).toBe('kernel-aes-unaccelerated');
    expect(finding?.message).toContain('xts(ecb(aes-fixed-time))');
    expect(finding?.message).toContain('aes-xts with a 512-bit key at 5000 MiB/s per core');
    expect(finding?.evidence.opensslAesXtsBytesPerSecond).toBe(5_000 * 1024 * 1024);
  });

  it('quotes the 512-bit key figure luksFormat uses even when the 256-bit key is faster', () => {
    const faster256 = {
      ...opensslSpeed.measurements[0]!,
      keyBits: 256,
      encryptBytesPerSecond: 8_000 * 1024 * 1024,
    };
    const cipherSpeed = { ...opensslSpeed, measurements: [faster256, ...opensslSpeed.measurements] };
    const finding = findKernelCipherBottleneck({ kernel: generic, cpuHasAes: true, cipherSpeed });
    expect(finding?.evidence.opensslAesXtsBytesPerSecond).toBe(5_000 * 1024 * 1024);
  });
});
