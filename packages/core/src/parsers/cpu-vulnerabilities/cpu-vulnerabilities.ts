import type { CpuMitigations } from '../../domain/cpu.js';

/** The directory whose files state each CPU vulnerability (Documentation/ABI/testing/sysfs-devices-system-cpu). */
export const CPU_VULNERABILITIES_DIRECTORY = '/sys/devices/system/cpu/vulnerabilities';

type VulnerabilityState = NonNullable<CpuMitigations['vulnerabilities']>[number]['state'];

/**
 * The state of one vulnerability file. The ABI defines "Not affected", "Vulnerable" and "Mitigation: $M"
 * (Documentation/ABI/testing/sysfs-devices-system-cpu); the hw-vuln pages also document "Vulnerable: …"
 * (e.g. "Vulnerable: No microcode", Documentation/admin-guide/hw-vuln/gather_data_sampling.rst) and
 * "Unknown: …" (e.g. srbds "Unknown: Dependent on hypervisor status", hw-vuln/special-register-buffer-data-sampling.rst).
 * itlb_multihit prefixes its state with "KVM: " ("KVM: Mitigation: VMX unsupported", hw-vuln/multihit.rst).
 * Anything else is `unknown`: never read as not affected.
 */
export function vulnerabilityState(text: string): VulnerabilityState {
  const trimmed = text.trim().replace(/^KVM: /, '');
  if (trimmed === 'Not affected') {
    return 'not-affected';
  }
  if (trimmed.startsWith('Mitigation:')) {
    return 'mitigated';
  }
  if (trimmed === 'Vulnerable' || trimmed.startsWith('Vulnerable:') || trimmed.startsWith('Vulnerable;')) {
    return 'vulnerable';
  }
  return 'unknown';
}

/** The kernel's own parameters on a command line (/proc/cmdline): its words up to "--" (the rest go to init). */
export function kernelParameters(commandLine: string): string[] {
  const words = commandLine.trim().split(/\s+/);
  const end = words.indexOf('--');
  return end < 0 ? words : words.slice(0, end);
}

/**
 * The value of `mitigations=` on a kernel command line (/proc/cmdline), the last one when given twice (the
 * kernel's early_param handlers see each in turn, the last wins). Null when it is not set (the kernel default,
 * auto: Documentation/admin-guide/kernel-parameters.txt, "mitigations="). Arguments after "--" go to init.
 */
export function mitigationsParameter(commandLine: string): string | null {
  let value: string | null = null;
  for (const word of kernelParameters(commandLine)) {
    if (word.startsWith('mitigations=')) {
      value = word.slice('mitigations='.length);
    }
  }
  return value;
}

/**
 * The mitigations in effect from the vulnerability files (name → text; null when the directory is absent or
 * unreadable, `missingReason` then says why) and the kernel command line (null when unread).
 */
export function parseCpuMitigations(
  files: ReadonlyMap<string, string> | null,
  commandLine: string | null,
  missingReason: string,
): CpuMitigations {
  const vulnerabilities =
    files === null || files.size === 0
      ? null
      : [...files.entries()]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, text]) => ({ name, state: vulnerabilityState(text), text: text.trim() }));
  return {
    vulnerabilities,
    commandLine: commandLine === null ? null : mitigationsParameter(commandLine),
    commandLineRead: commandLine !== null,
    unknownReason: vulnerabilities === null ? missingReason : null,
  };
}
