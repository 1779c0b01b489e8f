import type { CipherBenchmark } from '../../domain/cipher.js';
import type { Warning } from '../../domain/warning.js';
import type { Host } from '../../ports.js';
import { findKernelCipherBottleneck, hasHardwareAes } from '../../rules/kernel-cipher-bottleneck.js';
import { probeCipherSpeed, probeKdfSpeed, type SpeedProbeOptions } from './cipher-speed.js';
import { attemptProbeStep, type ProbeResult } from './probe-step.js';
import { probeKernelCrypto } from './kernel-crypto.js';

/**
 * The whole cipher benchmark: kernel crypto drivers, CPU AES flag, cipher speed (cryptsetup, then OpenSSL on one
 * and all cores), key-derivation speed, and the "generic kernel AES on a CPU with AES instructions" finding.
 * Expected failures are warnings; only cancellation (CANCELLED) throws.
 */
export async function runCipherBenchmark(host: Host, options: Omit<SpeedProbeOptions, 'logicalCpuCount'> = {}): Promise<ProbeResult<CipherBenchmark>> {
  const warnings: Warning[] = [];
  const kernel = await probeKernelCrypto(host);
  const info = await attemptProbeStep(warnings, 'systeminformation', () => host.systemInfo());
  const cores = info?.cpu.cores;
  const cipher = await probeCipherSpeed(host, { ...options, ...(typeof cores === 'number' && cores > 0 ? { logicalCpuCount: cores } : {}) });
  const kdf = await probeKdfSpeed(host, options);
  warnings.push(...kernel.warnings, ...cipher.warnings, ...kdf.warnings);
  const cpuHasAes = info === null ? null : hasHardwareAes(info.cpuFlags);
  const finding =
    kernel.facts === null || cpuHasAes === null ? null : findKernelCipherBottleneck({ kernel: kernel.facts, cpuHasAes, cipherSpeed: cipher.facts });
  return {
    facts: { cpuHasAes, kernelCrypto: kernel.facts, cipherSpeed: cipher.facts, kdfSpeed: kdf.facts, findings: finding === null ? [] : [finding] },
    warnings,
  };
}
