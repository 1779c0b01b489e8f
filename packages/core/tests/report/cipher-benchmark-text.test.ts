import { describe, expect, it } from 'vitest';
import type { CipherBenchmark, CipherSpeedMeasurement, KernelCryptoFacts } from '../../src/domain/cipher.js';
import { kernelCryptoOfFixture } from '../../../../tests/support/fixture-files.js';
import { renderCipherBenchmark } from '../../src/report/cipher-benchmark-text.js';

const kernel: KernelCryptoFacts = kernelCryptoOfFixture('x86-vm-debian12-aes-fixed-time');
const row: CipherSpeedMeasurement = {
  cipher: 'aes-xts',
  keyBits: 512,
  source: 'openssl',
  encryptBytesPerSecond: 6245421056,
  decryptBytesPerSecond: null,
  allCoresEncryptBytesPerSecond: 7217213440,
  allCoresDecryptBytesPerSecond: null,
  allCoresThreads: 2,
  messageBytes: 4096,
  argv: [],
};
const result: CipherBenchmark = {
  cpuHasAes: true,
  kernelCrypto: kernel,
  cipherSpeed: { measurements: [row], unmeasured: [], kernelCipherBenchmarkAvailable: false },
  kdfSpeed: {
    pbkdf2: [{ hash: 'sha512', iterationsPerSecond: 1738932, derivedKeyBits: 256 }],
    argon2: [],
    unmeasured: [],
  },
  findings: [
    {
      id: 'kernel-aes-unaccelerated',
      severity: 'warning',
      message: 'The kernel would encrypt disks with xts(ecb(aes-fixed-time)).',
      hint: 'Load the accelerated driver.',
      evidence: {
        xtsAesDriver: 'xts(ecb(aes-fixed-time))',
        inferred: false,
        cpuHasAes: true,
        opensslAesXtsBytesPerSecond: 6245421056,
      },
    },
  ],
};

describe('renderCipherBenchmark', () => {
  it('prints the kernel driver finding before the table, and rates in MiB/s with one decimal', () => {
    const text = renderCipherBenchmark(result, []);
    expect(text.indexOf('xts(ecb(aes-fixed-time))')).toBeLessThan(text.indexOf('Cipher speed'));
    expect(text.startsWith('! The kernel would encrypt disks')).toBe(true);
    // 6245421056 B/s / 2^20 = 5956.1 MiB/s; 7217213440 / 2^20 = 6882.9.
    expect(text).toMatch(/aes-xts\s+512\s+5956\.1\s+-\s+6882\.9\s+-\s+2\s+openssl/);
    expect(text).toMatch(/sha512\s+256\s+1738932/);
    expect(text).not.toContain('slower than one core');
  });

  it('notes when all cores measured slower than one core, as on a shared virtual CPU', () => {
    const noisy = { ...row, allCoresEncryptBytesPerSecond: 3726180000 };
    const text = renderCipherBenchmark(
      { ...result, cipherSpeed: { ...result.cipherSpeed, measurements: [noisy] } },
      [],
    );
    expect(text).toContain('all cores measured slower than one core for aes-xts 512');
  });

  it('prints no finding line when the kernel driver is accelerated', () => {
    const text = renderCipherBenchmark({ ...result, findings: [] }, [
      { code: 'TOOL_MISSING', message: 'cryptsetup is not installed', source: 'cryptsetup' },
    ]);
    expect(text.startsWith('Kernel AES-XTS driver')).toBe(true);
    expect(text).toContain('TOOL_MISSING: cryptsetup is not installed');
  });
});
