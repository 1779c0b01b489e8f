import { z } from 'zod';

/** The CPU instructions that decide which cipher is fast (lelegard/aesbench RESULTS.md; published cryptsetup benchmark outputs, Crowley & Biggers, "Adiantum", IACR ToSC 2018 (eprint 2018/720); source.android.com "Enabling Adiantum"; raspberrypi/linux#3648). */
const cpuCryptoFlagsSchema = z.object({
  /** x86 AES-NI or ARMv8 AES instructions. */
  aes: z.boolean(),
  /** x86 vector AES (VAES): the kernel's fastest AES-XTS paths (Eric Biggers, "x86: AES-XTS with VAES/AVX10" cover letter, linux-crypto 2024; systemd/systemd#24382; cryptsetup 2.4.0 release notes). */
  vaes: z.boolean(),
  /** x86 carry-less multiply (PCLMULQDQ) or ARMv8 PMULL. */
  carrylessMultiply: z.boolean(),
  avx2: z.boolean(),
  avx512: z.boolean(),
});
export type CpuCryptoFlags = z.infer<typeof cpuCryptoFlagsSchema>;

/**
 * One file of /sys/devices/system/cpu/vulnerabilities as the kernel states it. The ABI
 * (Documentation/ABI/testing/sysfs-devices-system-cpu, "What: /sys/devices/system/cpu/vulnerabilities")
 * defines "Not affected", "Vulnerable" and "Mitigation: $M"; kernels also print "Vulnerable: …" and
 * "Unknown: …" (Documentation/admin-guide/hw-vuln/*), which are kept as `vulnerable` and `unknown`.
 */
const cpuVulnerabilitySchema = z.object({
  /** The file's name, e.g. `spectre_v2`, `retbleed`, `spec_rstack_overflow`, `gather_data_sampling`. */
  name: z.string(),
  state: z.enum(['not-affected', 'mitigated', 'vulnerable', 'unknown']),
  /** The file's text, trimmed (e.g. "Mitigation: Safe RET"). */
  text: z.string(),
});

/**
 * The CPU-vulnerability mitigations in effect while encplan measured: context of every measured cost (kernel
 * entry and return paths cost more with some of them). Read from sysfs and /proc/cmdline without a process.
 */
const cpuMitigationsSchema = z.object({
  /** Every file of /sys/devices/system/cpu/vulnerabilities, sorted by name; null when none could be read. */
  vulnerabilities: z.array(cpuVulnerabilitySchema).nullable(),
  /**
   * The value of `mitigations=` on the kernel command line (/proc/cmdline; "off", "auto", "auto,nosmt", …:
   * Documentation/admin-guide/kernel-parameters.txt), null when the command line does not set it (the kernel's
   * default, auto) or could not be read (`commandLineRead` false).
   */
  commandLine: z.string().nullable(),
  commandLineRead: z.boolean(),
  /** Why `vulnerabilities` is null; null when it was read. */
  unknownReason: z.string().nullable(),
});
export type CpuMitigations = z.infer<typeof cpuMitigationsSchema>;

/** CPU, memory and operating system of the machine running the assessment. */
export const machineSchema = z.object({
  cpuModel: z.string(),
  cpuVendor: z.string(),
  architecture: z.string(),
  logicalCores: z.number().int(),
  physicalCores: z.number().int(),
  cryptoFlags: cpuCryptoFlagsSchema,
  /** Where the flags came from: systeminformation, confirmed (or corrected) by /proc/cpuinfo. */
  cryptoFlagsSource: z.string(),
  memoryTotalBytes: z.number().int(),
  os: z.object({ platform: z.string(), distro: z.string(), release: z.string(), kernel: z.string() }),
  /** CPU-vulnerability mitigations in effect (assessment 1.5; Linux only, absent elsewhere and in older documents). */
  mitigations: cpuMitigationsSchema.optional(),
});
export type Machine = z.infer<typeof machineSchema>;

/**
 * Where a machine fact was read: on Linux since issue 18 from the kernel's files (`cryptoFlagsSource` is
 * `/proc/cpuinfo`), before that and on other platforms from systeminformation. For evidence and reports.
 */
export function machineFactOrigin(
  machine: { readonly cryptoFlagsSource?: string } | null | undefined,
  procFile: '/proc/cpuinfo' | '/proc/meminfo' | '/etc/os-release',
): string {
  return machine?.cryptoFlagsSource === '/proc/cpuinfo' ? procFile : 'systeminformation';
}
