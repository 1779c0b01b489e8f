import type { CipherBenchmark, KernelCryptoFacts } from '../domain/cipher.js';
import type { Machine } from '../domain/cpu.js';
import { findKernelCipherBottleneck } from '../rules/kernel-cipher-bottleneck.js';
import {
  probeCipherSpeed,
  probeKdfSpeed,
  speedProbeReductions,
  type SpeedProbeOptions,
} from '../probes/cipher-speed.js';
import { probeKernelCrypto } from '../probes/kernel-crypto.js';
import { probeMachine } from '../probes/machine.js';
import type { ProbeContext } from '../probes/probe-context.js';

/**
 * The whole cipher benchmark: kernel crypto drivers, the CPU's AES flag and core count (probeMachine), cipher speed
 * (cryptsetup, then OpenSSL on one and all cores), key-derivation speed, and the "generic kernel AES on a CPU with
 * AES instructions" finding. Expected failures become warnings in the context; only cancellation throws.
 */
export async function runCipherBenchmark(
  context: ProbeContext,
  options: Omit<SpeedProbeOptions, 'logicalCpuCount' | 'kernelCrypto'> = {},
  known?: { readonly kernelCrypto: KernelCryptoFacts | null; readonly machine: Machine | null },
): Promise<CipherBenchmark> {
  // An assessment has read /proc/crypto and the machine already; read them here only when run on its own.
  const kernelCrypto = known === undefined ? await probeKernelCrypto(context) : known.kernelCrypto;
  const machine = known === undefined ? (await probeMachine(context)).machine : known.machine;
  const cores = machine?.logicalCores ?? 0;
  const speedOptions = { ...options, kernelCrypto };
  const cipherSpeed = await probeCipherSpeed(context, {
    ...speedOptions,
    ...(cores > 0 ? { logicalCpuCount: cores } : {}),
  });
  const kdfSpeed = await probeKdfSpeed(context, speedOptions);
  const cpuHasAes = machine === null ? null : machine.cryptoFlags.aes;
  const finding =
    kernelCrypto === null || cpuHasAes === null
      ? null
      : findKernelCipherBottleneck({ kernel: kernelCrypto, cpuHasAes, cipherSpeed });
  return {
    cpuHasAes,
    kernelCrypto,
    cipherSpeed,
    kdfSpeed,
    findings: finding === null ? [] : [finding],
    reductions: speedProbeReductions(speedOptions),
  };
}
