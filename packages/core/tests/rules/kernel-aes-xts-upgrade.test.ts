import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { cipherMiB, ciphers, facts, ioBenchmark, machine } from './facts-builder.js';

const MB = 1e6;

/** A Zen 4 (AMD, VAES + AVX-512) on an older kernel whose AES-256-XTS (2000 MiB/s a core) limits a 5 GB/s drive. */
function zen4(kernel: string, extra: PlanFacts = {}): PlanFacts {
  return facts(
    machine({ aes: true, vaes: true, cores: 8, kernel }),
    { machine: { cpuVendor: 'AMD', cryptoFlags: { avx512: true } } },
    ciphers(cipherMiB('aes-xts', 512, 2000)),
    ioBenchmark({ 'seq1m-q1t1': [5000 * MB, 5000 * MB] }),
    extra,
  );
}

const upgradeOf = (input: PlanFacts) =>
  buildPlan(input).findings.find((finding) => finding.ruleId === 'kernel-aes-xts-upgrade');

describe('kernel-aes-xts-upgrade (Linux 6.10 AES-XTS with VAES)', () => {
  it('says a kernel ≥ 6.10 beats a cipher change on a cipher-bound Zen 4 with kernel 6.8', () => {
    const finding = upgradeOf(zen4('6.8.0-45-generic'));
    expect(finding?.severity).toBe('warning');
    expect(finding?.message).toContain('AMD Zen 4 +155 %');
    expect(finding?.message).toContain(
      'A kernel ≥ 6.10 beats a cipher change, at least +155 % against about +25 %',
    );
    // 2000 MiB/s × 2.55 = 5347 MB/s ≥ 5000 MB/s: the drive would limit the stream.
    expect(finding?.message).toContain('the device, not the cipher, would limit seq1m-q1t1');
    expect(finding?.evidence.find((item) => item.fact.startsWith('published'))?.value).toBe(155);
  });

  it('gives Zen 3 (AMD, VAES without AVX-512) its own figure, and Intel with AVX-512 the Ice Lake … Sapphire Rapids range', () => {
    expect(
      upgradeOf(zen4('6.1.0-27-amd64', { machine: { cryptoFlags: { avx512: false } } }))?.message,
    ).toContain('AMD Zen 3 +138 %');
    const intel = upgradeOf(zen4('6.1.0-27-amd64', { machine: { cpuVendor: 'Intel' } }))?.message;
    expect(intel).toContain('Intel Ice Lake +127 %, Intel Sapphire Rapids +151 %');
    expect(intel).toContain('at least +127 %');
  });

  it('names no gain for Intel VAES without AVX-512 (no published figure)', () => {
    const finding = upgradeOf(
      zen4('6.1.0-27-amd64', { machine: { cpuVendor: 'Intel', cryptoFlags: { avx512: false } } }),
    );
    expect(finding?.message).toContain('no published figure');
    expect(finding?.evidence.find((item) => item.fact.startsWith('published'))?.value).toBeNull();
  });

  it('stays silent on 6.10 and later, an unknown kernel, no VAES, a backported VAES driver, or a device-bound plan', () => {
    expect(upgradeOf(zen4('6.10.3'))).toBeUndefined();
    expect(upgradeOf(zen4('6.18.0'))).toBeUndefined();
    expect(upgradeOf(zen4('unknown'))).toBeUndefined();
    expect(upgradeOf(zen4('6.8.0', { machine: { cryptoFlags: { vaes: false } } }))).toBeUndefined();
    expect(
      upgradeOf(zen4('5.14.0-427.el9', { kernelCrypto: { xtsAes: { driver: 'xts-aes-vaes-avx10_512' } } })),
    ).toBeUndefined();
    expect(upgradeOf(zen4('6.8.0', ioBenchmark({ 'seq1m-q1t1': [500 * MB, 500 * MB] })))).toBeUndefined();
  });
});
