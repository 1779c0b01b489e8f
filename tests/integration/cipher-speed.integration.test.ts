import { describe, expect, it } from 'vitest';
import {
  cipherBenchmarkSchema,
  cipherSpeedSchema,
  createProbeContext,
  kdfSpeedSchema,
  kernelCryptoSchema,
  probeCipherSpeed,
  probeKdfSpeed,
  probeKernelCrypto,
  runCipherBenchmark,
} from '@encplan/core';
import { createNodeHost, createRunner } from '@encplan/core/node';
import { noteSkip } from '../support/skip-reasons.js';

// The real probes on this machine: real cryptsetup, openssl and /proc/crypto, short runs. Numbers vary from run to
// run, so only structure, units and plausibility are asserted (no ordering of kernel vs OpenSSL speed is assumed).
const runner = createRunner({ searchPath: process.env.PATH ?? '' });
const host = createNodeHost(runner);
const opensslPath = await runner.resolveTool('openssl');
const cryptsetupPath = await runner.resolveTool('cryptsetup');
if (process.env.CI === 'true' && (opensslPath === null || cryptsetupPath === null)) {
  // CI installs both (scripts/setup.sh): there a missing tool is an error, not a skip.
  throw new Error('Integration prerequisites are missing in CI: openssl and cryptsetup are required.');
}
noteSkip(import.meta.url, opensslPath === null ? 'openssl is not installed (apt-get install openssl)' : null);
noteSkip(
  import.meta.url,
  cryptsetupPath === null ? 'KDF part: cryptsetup is not installed (apt-get install cryptsetup-bin)' : null,
);

describe.skipIf(opensslPath === null)('probeCipherSpeed on this machine', () => {
  it('measures aes-xts 256/512 and chacha20 with OpenSSL in integer bytes per second, on one and all cores', async () => {
    const context = createProbeContext(host);
    const facts = await probeCipherSpeed(context, { quick: true, logicalCpuCount: 2 });
    const warnings = context.warnings;
    expect(() => cipherSpeedSchema.parse(facts)).not.toThrow();
    const openssl = facts.measurements.filter((m) => m.source === 'openssl');
    expect(openssl.map((m) => `${m.cipher} ${String(m.keyBits)}`)).toEqual([
      'aes-xts 256',
      'aes-xts 512',
      'chacha20 256',
    ]);
    for (const m of openssl) {
      // More than 1 MiB/s: even a Cortex-A7 without acceleration does ~10 MiB/s (reference-facts §2.6–2.7).
      expect(m.encryptBytesPerSecond).toBeGreaterThan(1024 * 1024);
      expect(Number.isSafeInteger(m.encryptBytesPerSecond)).toBe(true);
      expect(m.messageBytes).toBe(4096);
      if (m.allCoresThreads !== null) {
        expect(m.allCoresEncryptBytesPerSecond).toBeGreaterThan(0);
      }
    }
    if (facts.kernelCipherBenchmarkAvailable === false) {
      expect(warnings.map((w) => w.code)).toContain('KERNEL_FEATURE_MISSING');
      expect(facts.measurements.filter((m) => m.source === 'cryptsetup')).toEqual([]);
    }
  });
});

describe.skipIf(cryptsetupPath === null)('probeKdfSpeed on this machine', () => {
  it('measures PBKDF2 per hash and argon2id parameters', async () => {
    const facts = await probeKdfSpeed(createProbeContext(host), { quick: true });
    expect(() => kdfSpeedSchema.parse(facts)).not.toThrow();
    const sha256 = facts.pbkdf2.find((p) => p.hash === 'sha256');
    // cryptsetup's floor is 1000 iterations (reference-facts §1.2); any real CPU does far more per second.
    expect(sha256?.iterationsPerSecond).toBeGreaterThan(1000);
    // Quick revision 6 asks argon2id for 500 ms, twice, instead of cryptsetup's 2000 ms (domain/benchmark-settings.ts).
    expect(facts.argon2).toHaveLength(2);
    for (const row of facts.argon2) {
      expect(row).toMatchObject({ variant: 'argon2id', requestedDurationMs: 500 });
    }
    expect(facts.argon2[0]!.memoryKibibytes).toBeGreaterThanOrEqual(32);
  });
});

describe.skipIf(host.platform !== 'linux')('probeKernelCrypto on this machine', () => {
  it('names the driver behind xts(aes) or says it cannot', async () => {
    const facts = await probeKernelCrypto(createProbeContext(host));
    expect(facts).not.toBeNull();
    expect(() => kernelCryptoSchema.parse(facts)).not.toThrow();
    expect(facts!.algorithmCount).toBeGreaterThan(0);
  });
});

describe.skipIf(opensslPath === null || host.platform !== 'linux')(
  'runCipherBenchmark on this machine',
  () => {
    it('returns a result that matches the published schema, with the kernel finding when the driver is generic', async () => {
      const facts = await runCipherBenchmark(createProbeContext(host), { quick: true });
      expect(() => cipherBenchmarkSchema.parse(facts)).not.toThrow();
      const generic = facts.kernelCrypto?.xtsAesImplementation === 'generic' && facts.cpuHasAes === true;
      expect(facts.findings.map((finding) => finding.id)).toEqual(
        generic ? ['kernel-aes-unaccelerated'] : [],
      );
    });
  },
);
