import { evidence, type Evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import { AES_XTS_512_OVER_256 } from './cipher-speed.js';
import type { PlanFacts } from './facts.js';
import { isKernelAtLeast } from './kernel-version.js';
import type { PredictedPerformance } from './performance-model.js';

/**
 * Linux 6.10's AES-XTS rewrite (arch/x86/crypto/aes-xts-avx-x86_64.S: `xts-aes-vaes-avx2`,
 * `xts-aes-vaes-avx10_256`, `xts-aes-vaes-avx10_512`; crypto pull "v6.10-p1": "Add faster AES-XTS on modern
 * x86_64 CPUs"). The published gains of AES-256-XTS at 4096-byte messages over the former `xts-aes-aesni`,
 * measured with the kernel's crypto_skcipher API (decryption; "encryption performs almost identically"): Eric
 * Biggers, "[PATCH v2 0/6] Faster AES-XTS on modern x86_64 CPUs", linux-crypto, 2024-03-29,
 * Message-ID <20240329080355.2871-1-ebiggers@kernel.org>, table "This patchset increases the throughput of
 * AES-256-XTS". (v1 of the series, 2024-03-26, <20240326080305.402382-1-ebiggers@kernel.org>, measured
 * +1 / +92 / +115 / +82 / +118 % on Skylake / Ice Lake / Sapphire Rapids / Zen 3 / Zen 4 before v2 interleaved
 * the tweak computation.)
 */
const PUBLISHED_GAIN_PERCENT = {
  'Intel Ice Lake': 127,
  'Intel Sapphire Rapids': 151,
  'AMD Zen 3': 138,
  'AMD Zen 4': 155,
} as const;
type CpuFamily = keyof typeof PUBLISHED_GAIN_PERCENT;

/** The families the CPU's vendor and flags leave possible (VAES with AVX-512: Ice Lake and later, Zen 4; VAES
 * with AVX2 only: Zen 3; same cover letter, "Intel Ice Lake (2019) and later, and AMD Zen 3 (2020) and later").
 * Intel without AVX-512 (Alder Lake and later client parts) has no published figure: none. */
function familiesOf(vendor: string | null, avx512: boolean | null): readonly CpuFamily[] {
  const amd = avx512 === true ? (['AMD Zen 4'] as const) : avx512 === false ? (['AMD Zen 3'] as const) : [];
  const intel = avx512 === true ? (['Intel Ice Lake', 'Intel Sapphire Rapids'] as const) : [];
  if (vendor === 'AMD') {
    return amd;
  }
  if (vendor === 'Intel') {
    return intel;
  }
  return [...amd, ...intel];
}

const percent = (value: number) => `+${String(Math.round(value))} %`;

/** The kernel release, its xts(aes) driver and the profiles the cipher limits: what the rules that advise a
 * newer kernel for the cipher's sake read (this one and rules/retpoline-aes-xts.ts). */
export function kernelCipherBound(facts: PlanFacts, predictions: readonly PredictedPerformance[]) {
  return {
    machine: facts.machine,
    kernel: facts.machine?.os?.kernel ?? null,
    driver: facts.kernelCrypto?.xtsAes?.driver ?? null,
    bound: predictions.filter((row) => row.readLimitedBy === 'cipher' || row.writeLimitedBy === 'cipher'),
  };
}

/**
 * `kernel-aes-xts-upgrade`: the kernel is older than 6.10, the CPU has VAES, dm-crypt would use the former
 * AES-NI driver, and the cipher limits this device in at least one profile: a kernel ≥ 6.10 lifts the cipher's
 * speed by the published gain for the CPU family, more than AES-128 instead of AES-256 would
 * ({@link AES_XTS_512_OVER_256}), without weakening the key. Empty otherwise (unknown kernel, flags or limit).
 */
export function findKernelAesXtsUpgrade(
  facts: PlanFacts,
  predictions: readonly PredictedPerformance[],
): Finding[] {
  const { machine, kernel, driver, bound } = kernelCipherBound(facts, predictions);
  if (
    isKernelAtLeast(kernel, 6, 10) !== false ||
    machine?.cryptoFlags?.vaes !== true ||
    machine.cryptoFlags.aes !== true ||
    // A distribution kernel that backported the VAES drivers already has them; a generic C driver is the
    // kernel-aes-unaccelerated finding's case.
    (driver !== null && /vaes/.test(driver)) ||
    facts.kernelCrypto?.xtsAesImplementation === 'generic'
  ) {
    return [];
  }
  if (bound.length === 0) {
    return [];
  }
  const vendor = machine.cpuVendor ?? null;
  const families = familiesOf(vendor, machine.cryptoFlags.avx512 ?? null);
  const gains = families.map((family) => PUBLISHED_GAIN_PERCENT[family]);
  const least = gains.length === 0 ? null : Math.min(...gains);
  const aes128Gain = (1 / AES_XTS_512_OVER_256 - 1) * 100;
  const lifted = (row: PredictedPerformance, gain: number) =>
    (['Read', 'Write'] as const).every((direction) => {
      const cipher = row[`cipher${direction}BytesPerSecond`];
      const plain = row[`plain${direction}BytesPerSecond`];
      return cipher === null || plain === null || cipher * (1 + gain / 100) >= plain;
    });
  const freed = least === null ? [] : bound.filter((row) => lifted(row, least)).map((row) => row.profile);
  const familyText =
    families.length === 0
      ? 'this CPU family has no published figure (Biggers expects the VAES + AVX2 path to be the best on it)'
      : families.map((family) => `${family} ${percent(PUBLISHED_GAIN_PERCENT[family])}`).join(', ');
  const gainText =
    least === null
      ? ''
      : `, at least ${percent(least)} against about ${percent(aes128Gain)} from AES-128 instead of AES-256`;
  const items: Evidence[] = [
    evidence('machine.os.kernel', kernel, sourceOf('uname', 'release')),
    evidence('cpu.vaes', true, sourceOf('/proc/cpuinfo', 'flags')),
    evidence('cpu.avx512', machine.cryptoFlags.avx512 ?? null, sourceOf('/proc/cpuinfo', 'flags')),
    evidence('kernel xts(aes) driver', driver, sourceOf('/proc/crypto', 'driver')),
    evidence(
      'published AES-256-XTS gain of Linux 6.10 (%)',
      least,
      sourceOf('linux-crypto', 'Biggers 2024-03-29'),
    ),
    evidence(
      'cipher-bound profiles',
      bound.map((row) => row.profile).join(', '),
      sourceOf('encplan', 'model'),
    ),
  ];
  return [
    {
      ruleId: 'kernel-aes-xts-upgrade',
      severity: 'warning',
      message:
        `The cipher limits ${bound.map((row) => row.profile).join(', ')} on this device, and kernel ${String(kernel)} predates Linux 6.10's AES-XTS rewrite for CPUs with VAES ` +
        `(E. Biggers, "Faster AES-XTS on modern x86_64 CPUs", 2024: AES-256-XTS ${familyText} at 4096-byte sectors). ` +
        `A kernel ≥ 6.10 beats a cipher change${gainText}, and keeps the 256-bit key` +
        (freed.length > 0 ? `; with it the device, not the cipher, would limit ${freed.join(', ')}.` : '.'),
      evidence: items,
    },
  ];
}
