import type { Machine } from '../domain/cpu.js';

/** Where the mitigations were read, for the report's source column. */
export const MITIGATIONS_SOURCE = '/sys/devices/system/cpu/vulnerabilities, /proc/cmdline';

/**
 * The CPU-vulnerability mitigations in effect, as context of every cost measured on this machine (cipher and
 * I/O benchmarks): the kernel's entry and return paths run the mitigations, so a figure measured here holds for
 * a machine with the same ones. Stated as context: the one published with-and-without measurement known to
 * encplan (Spectre v2 retpolines in the AES-NI XTS code of kernels before 5.12, `cryptsetup benchmark` on a
 * Ryzen 5 2600, linuxreviews.org 2021-03-02) is the `retpoline-aes-xts` finding (rules/retpoline-aes-xts.ts);
 * no other cost is put on them. Gather Data
 * Sampling (Downfall) microcode slows AVX gather instructions (Documentation/admin-guide/hw-vuln/
 * gather_data_sampling.rst); the kernel's AES-NI/VAES XTS code (arch/x86/crypto/aes-xts-avx-x86_64.S) uses no
 * gather, so that one is not expected to touch the cipher itself. Unknown is said as unknown, never as
 * "not vulnerable".
 */
export function mitigationsContext(machine: Machine | null | undefined): string {
  const mitigations = machine?.mitigations;
  if (mitigations === undefined) {
    return 'CPU-vulnerability mitigations in effect while measuring: unknown (not read in this assessment).';
  }
  const parameter = mitigations.commandLine;
  const off = parameter?.split(',').includes('off') === true;
  const commandLine = !mitigations.commandLineRead
    ? 'kernel command line not read'
    : parameter === null
      ? 'no mitigations= on the kernel command line (the default, auto)'
      : `kernel command line mitigations=${parameter}`;
  // Documentation/admin-guide/kernel-parameters.txt, "mitigations=off": disables all optional CPU mitigations.
  const offNote = off
    ? ' Mitigations are off: figures measured here will not hold on a machine with mitigations on (its kernel entry and exit paths do more work), and figures from such a machine will not hold here.'
    : '';
  const list = mitigations.vulnerabilities;
  if (list === null) {
    return `CPU-vulnerability mitigations in effect while measuring: unknown (${mitigations.unknownReason ?? 'not read'}; ${commandLine}).${offNote}`;
  }
  const named = (state: (typeof list)[number]['state'], prefix: RegExp): string[] =>
    list
      .filter((entry) => entry.state === state)
      .map((entry) => {
        const detail = entry.text
          .replace(/^KVM: /, '')
          .replace(prefix, '')
          .trim();
        return detail === '' ? entry.name : `${entry.name} (${detail})`;
      });
  const mitigated = named('mitigated', /^Mitigation:/);
  const vulnerable = named('vulnerable', /^Vulnerable:?/);
  const unknown = named('unknown', /^Unknown:/);
  const notAffected = list.filter((entry) => entry.state === 'not-affected').length;
  const parts = [
    `measured with these CPU-vulnerability mitigations on: ${mitigated.length === 0 ? 'none' : mitigated.join('; ')}`,
    ...(vulnerable.length === 0 ? [] : [`vulnerable, not mitigated: ${vulnerable.join('; ')}`]),
    ...(unknown.length === 0 ? [] : [`state unknown: ${unknown.join('; ')}`]),
    `${String(notAffected)} of ${String(list.length)} not affected`,
    commandLine,
  ];
  const sentences = parts.map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}.`);
  return `${sentences.join(' ')}${offNote}`;
}
