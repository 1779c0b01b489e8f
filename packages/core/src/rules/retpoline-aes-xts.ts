import { evidence, type Finding } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { PlanFacts } from './facts.js';
import { kernelCipherBound } from './kernel-aes-xts-upgrade.js';
import { isKernelAtLeast } from './kernel-version.js';
import type { PredictedPerformance } from './performance-model.js';

/**
 * Spectre v2 retpolines and the AES-NI XTS glue code before Linux 5.12. Before commit 86ad60a65f29 ("crypto:
 * x86/aes-ni-xts - use direct calls to and 4-way stride", A. Biesheuvel, merged for Linux 5.12) the XTS code
 * made 3 indirect calls per 64 bytes; with retpolines each costs a trampoline, and the commit (1 indirect call
 * per 512 bytes) measured "a 65% speedup when operating on 1 KB blocks" on an i7-8650U. Published with and
 * without the mitigation, `cryptsetup benchmark` aes-xts 256b on an AMD Ryzen 5 2600 (Yoon Chae-kyung,
 * "Linux 5.12 Mostly Restores Long-Horrid AES-XTS Performance Introduced By CPU-Bug Mitigations",
 * linuxreviews.org, 2021-03-02, first table): kernel 5.11.1 with Spectre v2 mitigations 1813.4 MiB/s encryption
 * and 1798.2 MiB/s decryption, without them 3031.2 / 3073.2 MiB/s, 5.12-rc1 with them 2947.3 / 3024.3 MiB/s.
 * The gain of 5.12 with the mitigation kept, the lower of the two directions: 2947.3 / 1813.4 = 1.625.
 * Phoronix ("A Look At The Big Impact To AES-XTS Encryption Performance From Spectre Retpolines", 2020-12-30)
 * found no measurable cost on a Tiger Lake, which mitigates Spectre v2 without retpolines (IBRS): the finding
 * needs the kernel's own word that retpolines are in use.
 */
const RETPOLINE_FIX_GAIN = 2947.3 / 1813.4;

/** The mitigation text of /sys/devices/system/cpu/vulnerabilities/spectre_v2 that names retpolines
 * ("Mitigation: Full generic retpoline", "Mitigation: Full AMD retpoline", "Mitigation: Retpolines", …;
 * arch/x86/kernel/cpu/bugs.c, spectre_v2_strings). */
const RETPOLINE = /retpoline/i;

/**
 * `retpoline-aes-xts`: an x86 kernel older than 5.12 using the AES-NI XTS driver, Spectre v2 mitigated with
 * retpolines (the kernel says so), and the cipher limits this device in at least one profile: the measured
 * cipher speed carries the retpoline cost that Linux 5.12 removed, so a newer kernel gains about
 * {@link RETPOLINE_FIX_GAIN} with the mitigation kept, more than any cipher change and without turning the
 * mitigation off. Empty when any of these is unknown.
 */
export function findRetpolineAesXts(
  facts: PlanFacts,
  predictions: readonly PredictedPerformance[],
): Finding[] {
  const { machine, kernel, driver, bound: boundRows } = kernelCipherBound(facts, predictions);
  const spectreV2 =
    machine?.mitigations?.vulnerabilities?.find((entry) => entry?.name === 'spectre_v2') ?? null;
  const mitigation = spectreV2?.state === 'mitigated' ? (spectreV2.text ?? null) : null;
  if (
    isKernelAtLeast(kernel, 5, 12) !== false ||
    machine?.cryptoFlags?.aes !== true ||
    driver === null ||
    !/aesni/.test(driver) ||
    mitigation === null ||
    !RETPOLINE.test(mitigation)
  ) {
    return [];
  }
  const bound = boundRows.map((row) => row.profile);
  if (bound.length === 0) {
    return [];
  }
  const gain = `+${String(Math.round((RETPOLINE_FIX_GAIN - 1) * 100))} %`;
  return [
    {
      ruleId: 'retpoline-aes-xts',
      severity: 'warning',
      message:
        `The cipher limits ${bound.join(', ')} on this device, and kernel ${String(kernel)} runs the AES-NI XTS code with Spectre v2 retpolines (${mitigation}), ` +
        `which cost that code a third of its speed before Linux 5.12 (commit 86ad60a65f29, direct calls in the XTS glue). ` +
        `Published, cryptsetup benchmark aes-xts on a Ryzen 5 2600 with the mitigation on: 1813 MiB/s on 5.11.1, 2947 MiB/s on 5.12-rc1 (${gain}; 3031 MiB/s with mitigations off). ` +
        `A kernel ≥ 5.12 (or one with that commit backported) recovers it with the mitigation kept: do not turn mitigations off for it. The cipher speed measured here includes this cost.`,
      evidence: [
        evidence('machine.os.kernel', kernel, sourceOf('uname', 'release')),
        evidence('kernel xts(aes) driver', driver, sourceOf('/proc/crypto', 'driver')),
        evidence(
          'spectre_v2 mitigation',
          mitigation,
          sourceOf('/sys/devices/system/cpu/vulnerabilities', 'spectre_v2'),
        ),
        evidence(
          'published AES-XTS gain of Linux 5.12 with retpolines (×)',
          Math.round(RETPOLINE_FIX_GAIN * 1000) / 1000,
          sourceOf('linuxreviews.org', 'Linux 5.12 AES-XTS, 2021-03-02'),
        ),
        evidence('cipher-bound profiles', bound.join(', '), sourceOf('encplan', 'model')),
      ],
    },
  ];
}
