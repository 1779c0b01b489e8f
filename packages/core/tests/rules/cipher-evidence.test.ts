import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STANDARD_PROFILE_SHAPES, type StandardProfileId } from '../../src/domain/io-benchmark.js';
import { MIB } from '../../src/domain/units.js';
import { parseOpensslSpeed } from '../../src/parsers/openssl-speed/parse-openssl-speed.js';
import { deriveKernelCryptoFacts } from '../../src/parsers/proc-crypto/kernel-crypto-facts.js';
import { parseProcCrypto } from '../../src/parsers/proc-crypto/parse-proc-crypto.js';
import { buildPlan } from '../../src/plan/plan.js';
import { cipherRateOnCores, effectiveCipherSpeed } from '../../src/rules/cipher-speed.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { predictPlatformPerformance } from '../../src/rules/performance-model.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { cipherMiB, ciphers, facts, ioBenchmark, machine } from './facts-builder.js';

const fixture = (...parts: string[]) => readFileSync(path.join(REPO_ROOT, 'fixtures', ...parts), 'utf8');

/** The kernel crypto facts of a real /proc/crypto capture (fixtures/proc-crypto). */
function kernelOf(capture: string): PlanFacts {
  const kernelCrypto = deriveKernelCryptoFacts(parseProcCrypto(fixture('proc-crypto', capture, 'stdout')), {
    builtin: null,
    dep: null,
  });
  return { provenance: { platform: 'linux' }, kernelCrypto };
}

/** This machine's generic driver (xts(ecb(aes-fixed-time))) and a kernel with AES-NI (xts(ecb-aes-aesni)). */
const GENERIC = 'x86-vm-debian12-aes-fixed-time';
const ACCELERATED = 'qemu-tcg-debian12-kernel6.1-af-alg';

/** OpenSSL's aes-256-xts (a 512-bit XTS key) one-core rates from real captures, encrypt and decrypt. */
function opensslAes512(): PlanFacts {
  const at4096 = (name: string) =>
    Math.round(
      parseOpensslSpeed(fixture('openssl-speed', name, 'stdout')).results.find(
        (result) => result.messageBytes === 4096,
      )!.bytesPerSecond,
    );
  const encrypt = at4096('x86-vaes-debian12-aes-256-xts-1core');
  const decrypt = at4096('x86-vaes-debian12-aes-256-xts-decrypt-1core');
  return {
    cipherBenchmark: {
      cipherSpeed: {
        measurements: [
          {
            cipher: 'aes-xts',
            keyBits: 512,
            source: 'openssl',
            encryptBytesPerSecond: encrypt,
            decryptBytesPerSecond: decrypt,
            allCoresEncryptBytesPerSecond: null,
            allCoresDecryptBytesPerSecond: null,
            argv: ['openssl', 'speed', '-evp', 'aes-256-xts'],
          },
        ],
      },
    },
  };
}

/** One fio profile with min/median/max (bytes/s) and the argv it ran with. */
function row(profile: StandardProfileId, direction: 'read' | 'write', mib: number, fioArgv: string[] = []) {
  const shape = STANDARD_PROFILE_SHAPES[profile];
  const rate = Math.round(mib * MIB);
  return {
    profile: {
      id: `${profile}-${direction}`,
      pattern: shape.pattern,
      direction,
      blockSizeBytes: shape.blockBytes,
      queueDepth: shape.queueDepth,
      threads: 1,
    },
    fioArgv,
    summary: { medianBytesPerSecond: rate, minBytesPerSecond: rate, maxBytesPerSecond: rate },
  };
}

const ONE_PASS = ['fio', '--time_based=0', '--invalidate=1'];

/** Plain and fscrypt runs of issue 24's machine: SEQ1M Q8T1 read 927 → 45 MiB/s, write 800 → 40 MiB/s. */
function fscryptRun(fioArgv: string[]): PlanFacts {
  return {
    ioBenchmark: {
      plain: {
        backend: 'plain',
        variant: 'plain',
        profiles: [
          row('seq1m-q8t1', 'read', 927),
          row('seq1m-q8t1', 'write', 800),
          row('rnd4k-q1t1', 'write', 20),
        ],
      },
      encrypted: [
        {
          backend: 'fscrypt',
          variant: 'fscrypt',
          profiles: [
            row('seq1m-q8t1', 'read', 45, fioArgv),
            row('seq1m-q8t1', 'write', 40, fioArgv),
            // Page cache: 130 MiB/s "encrypted" against 20 MiB/s plain.
            row('rnd4k-q1t1', 'write', 130, fioArgv),
          ],
        },
      ],
    },
  };
}

describe('cipher speed by ranked evidence (issue 24)', () => {
  it('never takes OpenSSL for dm-crypt when /proc/crypto shows the generic xts(aes) driver', () => {
    const input = facts(kernelOf(GENERIC), machine({ aes: true, cores: 2 }), opensslAes512());
    expect(effectiveCipherSpeed(input, 'aes-xts', 512)).toBeNull();
    const plan = buildPlan(facts(input, ioBenchmark({ 'seq1m-q8t1': [927 * MIB, 800 * MIB] })));
    const seq = plan.predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    expect(seq.predictedWriteBytesPerSecond).toBeNull();
    expect(seq.writeLimitedBy).toBeNull();
    expect(plan.cipherEvidence).toMatchObject({ rank: null, kind: null });
    expect(plan.cipherEvidence?.note).toContain('xts(ecb(aes-fixed-time))');
    // Nor does the key-size reason claim the cipher is not the limit: it does not know.
    const keySize = plan.recommendations.find((r) => r.ruleId === 'cipher-key-size');
    expect(keySize?.reason).not.toContain('the cipher is not what limits this device');
    expect(keySize?.reason).toContain('whether the cipher limits this device is unknown');
    expect(keySize?.confidence).toBe('medium');
  });

  it('takes OpenSSL, both directions, as an upper bound (rank 4) when the kernel driver uses AES-NI', () => {
    const input = facts(kernelOf(ACCELERATED), machine({ aes: true, cores: 2 }), opensslAes512());
    const speed = effectiveCipherSpeed(input, 'aes-xts', 512);
    expect(speed?.basis.evidence).toBe('userspace-upper-bound');
    expect(speed?.decryptBytesPerSecond).toBeGreaterThan(0);
    const plan = buildPlan(facts(input, ioBenchmark({ 'seq1m-q8t1': [927 * MIB, 800 * MIB] })));
    const seq = plan.predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    // Reads are predicted from the decryption figure.
    expect(seq.predictedReadBytesPerSecond).toBe(927 * MIB);
    expect(plan.cipherEvidence).toMatchObject({ rank: 4, kind: 'userspace-upper-bound', upperBound: true });
  });

  it('prefers the kernel crypto API (rank 2) over OpenSSL, with its decryption column', () => {
    const input = facts(
      kernelOf(ACCELERATED),
      opensslAes512(),
      ciphers(cipherMiB('aes-xts', 512, 2000, 2100)),
    );
    const speed = effectiveCipherSpeed(input, 'aes-xts', 512);
    expect(speed?.basis.evidence).toBe('kernel-api');
    expect(speed?.decryptBytesPerSecond).toBe(2100 * MIB);
  });

  it("uses a one-pass fscrypt run as the kernel's own cipher (rank 3), never a time-based one or a page-cache figure", () => {
    const cold = facts(
      kernelOf(GENERIC),
      machine({ aes: true, cores: 2 }),
      opensslAes512(),
      fscryptRun(ONE_PASS),
    );
    const speed = effectiveCipherSpeed(cold, 'aes-xts', 512);
    expect(speed?.basis.evidence).toBe('kernel-cipher');
    expect(speed?.encryptBytesPerSecond).toBe(40 * MIB);
    expect(speed?.decryptBytesPerSecond).toBe(45 * MIB);
    const plan = buildPlan(cold);
    const seq = plan.predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    expect(seq.readLimitedBy).toBe('cipher');
    expect(seq.writeLimitedBy).toBe('cipher');
    expect(seq.predictedReadBytesPerSecond).toBe(45 * MIB);
    expect(plan.cipherEvidence).toMatchObject({ rank: 3, kind: 'kernel-cipher', upperBound: false });
    // A time-based run loops over its file and re-reads the cache: not evidence.
    const looped = facts(kernelOf(GENERIC), fscryptRun(['fio', '--time_based=1']));
    expect(effectiveCipherSpeed(looped, 'aes-xts', 512)).toBeNull();
  });
});

describe("a figure that already spans its run's cores is never multiplied by the cores again (issue 24)", () => {
  /** A 70 MiB/s device, read back through fscrypt at 45 MiB/s and written at 40 MiB/s, on 2 cores. */
  const slowKernelCipher = facts(kernelOf(GENERIC), machine({ aes: true, cores: 2 }), {
    ioBenchmark: {
      plain: {
        backend: 'plain',
        variant: 'plain',
        profiles: [row('seq1m-q8t1', 'read', 70), row('seq1m-q8t1', 'write', 70)],
      },
      encrypted: [
        {
          backend: 'fscrypt',
          variant: 'fscrypt',
          profiles: [row('seq1m-q8t1', 'read', 45, ONE_PASS), row('seq1m-q8t1', 'write', 40, ONE_PASS)],
        },
      ],
    },
  });

  it('reads a rate on N cores only through cipherRateOnCores, which knows what the figure spans', () => {
    const fscrypt = effectiveCipherSpeed(slowKernelCipher, 'aes-xts', 512);
    expect(fscrypt?.figureCores).toBe('cores-of-the-run');
    expect(cipherRateOnCores(fscrypt, 'encrypt', 8)).toBe(40 * MIB);
    expect(cipherRateOnCores(fscrypt, 'decrypt', 8)).toBe(45 * MIB);
    const kernelApi = effectiveCipherSpeed(
      facts(kernelOf(ACCELERATED), ciphers(cipherMiB('aes-xts', 512, 100, 110))),
      'aes-xts',
      512,
    );
    expect(kernelApi?.figureCores).toBe('one-core');
    expect(cipherRateOnCores(kernelApi, 'encrypt', 4)).toBe(400 * MIB);
    expect(cipherRateOnCores(kernelApi, 'decrypt', 4)).toBe(440 * MIB);
    expect(cipherRateOnCores(null, 'encrypt', 4)).toBeNull();
  });

  it('the key-size text compares the device with the fscrypt figure itself for queued I/O, not with cores × it', () => {
    const plan = buildPlan(slowKernelCipher);
    const reason = plan.recommendations.find((r) => r.ruleId === 'cipher-key-size')?.reason ?? '';
    expect(reason).not.toContain('all 2 cores (80.0 MiB/s)');
    expect(reason).toContain(
      'queued I/O: it outruns the same 40.0 MiB/s, a figure that already spans the cores',
    );
    expect(reason).toContain('the cipher limits this device,');
    // The model agrees: queued SEQ1M Q8T1 is limited by the cipher at the measured figure.
    const seq = plan.predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    expect(seq.predictedWriteBytesPerSecond).toBe(40 * MIB);
    expect(seq.writeLimitedBy).toBe('cipher');
  });
});

describe('measured beats modelled off Linux (issue 24)', () => {
  /** VeraCrypt issue 136: CrystalDiskMark, software BitLocker on a Samsung 970 EVO Plus, MB/s. */
  const bitlocker: PlanFacts = {
    provenance: { platform: 'win32' },
    platformStorage: { cpu: { aes: true, appleSilicon: false, source: null } },
    ioBenchmark: {
      plain: {
        backend: 'plain',
        variant: 'plain',
        profiles: [row('seq1m-q8t1', 'read', 3576.6e6 / MIB), row('rnd4k-q1t1', 'read', 50.5e6 / MIB)],
      },
      encrypted: [
        {
          backend: 'bitlocker',
          variant: 'bitlocker',
          profiles: [row('seq1m-q8t1', 'read', 406.2e6 / MIB), row('rnd4k-q1t1', 'read', 43.4e6 / MIB)],
        },
      ],
    },
  };

  /** The same facts with the encrypted run as VeraCrypt's. */
  const asVeraCrypt = (input: PlanFacts): PlanFacts => ({
    ...input,
    ioBenchmark: {
      ...input.ioBenchmark,
      encrypted: (input.ioBenchmark?.encrypted ?? []).map((run) => ({
        ...run,
        backend: 'veracrypt',
        variant: 'veracrypt',
      })),
    },
  });

  it("pairs a measured BitLocker run with the Windows plan's predictions and answers with it", () => {
    const plan = buildPlan(bitlocker, { targetTool: 'bitlocker' });
    const seq = plan.predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    expect(seq.measuredReadBytesPerSecond).toBe(Math.round(406.2e6));
    expect(seq.plainReadBytesPerSecond).toBe(Math.round(3576.6e6));
    expect(plan.cipherEvidence).toMatchObject({ rank: 1, kind: 'measured-run' });
  });

  it('lets the residual speak off Linux: a measurement far below the model is a performance-residual finding', () => {
    // VeraCrypt, whose benchmark rate needs no sector scaling: the model has no dm-crypt-style rate at
    // BitLocker's 512-byte sectors (rules/performance-model.ts, cipherRateAtSector).
    const veracrypt = asVeraCrypt(bitlocker);
    const speed = effectiveCipherSpeed(
      facts(veracrypt, ciphers(cipherMiB('aes-xts', 512, 5000, 5000))),
      'aes-xts',
      512,
    );
    const { predictedPerformance, findings } = predictPlatformPerformance(veracrypt, 'veracrypt', speed);
    const seq = predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    expect(seq.readErrorPercent).toBeGreaterThan(25);
    expect(findings.map((finding) => finding.ruleId)).toContain('performance-residual');
  });

  it('says why BitLocker at 512-byte sectors predicts nothing for cipher-bound profiles, unless measured', () => {
    const unmeasured: PlanFacts = {
      ...bitlocker,
      ioBenchmark: { ...bitlocker.ioBenchmark, encrypted: [] },
    };
    const speed = effectiveCipherSpeed(
      facts(unmeasured, ciphers(cipherMiB('aes-xts', 256, 3000, 3000))),
      'aes-xts',
      256,
    );
    const { predictedPerformance, findings } = predictPlatformPerformance(unmeasured, 'bitlocker', speed);
    const seq = predictedPerformance.find((p) => p.profile === 'seq1m-q8t1')!;
    expect(seq.cipherReadBytesPerSecond).toBeNull();
    expect(seq.predictedReadBytesPerSecond).toBeNull();
    const finding = findings.find((f) => f.ruleId === 'small-sector-cipher-bound');
    expect(finding?.message).toContain('this tool encrypts each sector as its own unit');
    expect(finding?.message).toContain('seq1m-q8t1');
    expect(finding?.message).not.toContain('--sector-size 4096');
    // A profile the BitLocker run measured in both directions is not left unknown; one measured read only is.
    const both: PlanFacts = {
      ...bitlocker,
      ioBenchmark: {
        plain: {
          backend: 'plain',
          variant: 'plain',
          profiles: [row('seq1m-q8t1', 'read', 3000), row('seq1m-q8t1', 'write', 2500)],
        },
        encrypted: [
          {
            backend: 'bitlocker',
            variant: 'bitlocker',
            profiles: [row('seq1m-q8t1', 'read', 1000), row('seq1m-q8t1', 'write', 900)],
          },
        ],
      },
    };
    const measured = predictPlatformPerformance(both, 'bitlocker', speed).findings.find(
      (f) => f.ruleId === 'small-sector-cipher-bound',
    );
    expect(measured?.message).not.toContain('seq1m-q8t1');
    expect(measured?.message).toContain('seq1m-q1t1');
    // No cipher speed at all: the cipher evidence says why, not the sector size.
    expect(
      predictPlatformPerformance(unmeasured, 'bitlocker', null).findings.map((f) => f.ruleId),
    ).not.toContain('small-sector-cipher-bound');
  });

  it('leaves a page-cache figure out of the pairing', () => {
    const cached: PlanFacts = {
      ...bitlocker,
      ioBenchmark: {
        plain: { backend: 'plain', variant: 'plain', profiles: [row('rnd4k-q1t1', 'write', 20)] },
        encrypted: [
          { backend: 'bitlocker', variant: 'bitlocker', profiles: [row('rnd4k-q1t1', 'write', 130)] },
        ],
      },
    };
    const { predictedPerformance } = predictPlatformPerformance(cached, 'bitlocker', null);
    expect(
      predictedPerformance.find((p) => p.profile === 'rnd4k-q1t1')?.measuredWriteBytesPerSecond,
    ).toBeNull();
  });

  it('says the load was too light to tell when an encrypted run keeps up below the cipher ceiling', () => {
    const light: PlanFacts = asVeraCrypt({
      ...bitlocker,
      ioBenchmark: {
        plain: { backend: 'plain', variant: 'plain', profiles: [row('seq1m-q8t1', 'read', 500)] },
        encrypted: [
          { backend: 'bitlocker', variant: 'bitlocker', profiles: [row('seq1m-q8t1', 'read', 495)] },
        ],
      },
    });
    const fast = effectiveCipherSpeed(facts(light, ciphers(cipherMiB('aes-xts', 512, 5000))), 'aes-xts', 512);
    const tooLight = predictPlatformPerformance(light, 'veracrypt', fast).findings;
    expect(tooLight.find((f) => f.ruleId === 'encryption-cost-load')?.message).toContain('too light to tell');
    const slow = effectiveCipherSpeed(facts(light, ciphers(cipherMiB('aes-xts', 512, 300))), 'aes-xts', 512);
    const reached = predictPlatformPerformance(light, 'veracrypt', slow).findings;
    expect(reached.find((f) => f.ruleId === 'encryption-cost-load')?.message).toContain('No measurable cost');
  });
});
