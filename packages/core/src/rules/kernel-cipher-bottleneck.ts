import type { CipherSpeedFacts, KernelCipherFinding, KernelCryptoFacts } from '../domain/cipher.js';

const MIB = 1024 * 1024;

/**
 * Finds the case where dm-crypt/fscrypt would run AES-XTS in portable C although the CPU has AES instructions
 * (on this project's CI machine the kernel uses xts(ecb(aes-fixed-time)): fscrypt writes ~52 MiB/s while OpenSSL
 * does ~4.8 GB/s per core; issue 4). Null when the driver is accelerated, unknown, or the CPU has no AES.
 */
export function findKernelCipherBottleneck(input: {
  readonly kernel: KernelCryptoFacts;
  readonly cpuHasAes: boolean;
  readonly cipherSpeed?: CipherSpeedFacts | null;
}): KernelCipherFinding | null {
  const { kernel, cpuHasAes } = input;
  if (!cpuHasAes || kernel.xtsAes === null || kernel.xtsAesImplementation !== 'generic') {
    return null;
  }
  // Quote the figure for the 512-bit key luksFormat uses (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc), else the best AES-XTS figure.
  const openssl = (input.cipherSpeed?.measurements ?? [])
    .filter((m) => m.source === 'openssl' && m.cipher === 'aes-xts' && m.encryptBytesPerSecond !== null)
    .sort(
      (a, b) =>
        Number(b.keyBits === 512) - Number(a.keyBits === 512) ||
        (b.encryptBytesPerSecond ?? 0) - (a.encryptBytesPerSecond ?? 0),
    );
  const quoted = openssl[0];
  const best = quoted?.encryptBytesPerSecond ?? null;
  const comparison =
    quoted === undefined || best === null
      ? ''
      : ` OpenSSL encrypts aes-xts with a ${String(quoted.keyBits)}-bit key at ${(best / MIB).toFixed(0)} MiB/s per core on this CPU.`;
  const predicted = kernel.xtsAes.inferred ? ' (predicted: xts(aes) is not instantiated yet)' : '';
  return {
    id: 'kernel-aes-unaccelerated',
    severity: 'warning',
    message:
      `The kernel would encrypt disks with ${kernel.xtsAes.driver}${predicted}, a portable C AES without the CPU's AES ` +
      `instructions: dm-crypt and fscrypt will be far slower than the CPU allows.${comparison}`,
    hint:
      'Load the accelerated driver (x86: modprobe aesni_intel; arm64: modprobe aes-ce-blk) or use a kernel built ' +
      "with it (CONFIG_CRYPTO_AES_NI_INTEL / CONFIG_CRYPTO_AES_ARM64_CE_BLK); in a VM, pass the host CPU's AES flag through.",
    evidence: {
      xtsAesDriver: kernel.xtsAes.driver,
      inferred: kernel.xtsAes.inferred,
      cpuHasAes,
      opensslAesXtsBytesPerSecond: best,
    },
  };
}
