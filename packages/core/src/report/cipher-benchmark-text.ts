import type { CipherBenchmark, KernelCryptoFacts } from '../domain/cipher.js';
import type { Warning } from '../domain/warning.js';
import { formatTextTable } from './text-report.js';

// MiB = 2^20 bytes, the unit cryptsetup prints (src/cryptsetup.c); stated in every header.
const MIB = 1024 * 1024;

function mibPerSecond(bytesPerSecond: number | null): string {
  return bytesPerSecond === null ? '-' : (bytesPerSecond / MIB).toFixed(1);
}

function kernelLine(kernel: KernelCryptoFacts | null): string {
  const xtsAes = kernel?.xtsAes ?? null;
  if (kernel === null || xtsAes === null) {
    return 'Kernel AES-XTS driver: unknown (no /proc/crypto entry).';
  }
  const predicted = xtsAes.inferred ? ', predicted' : '';
  return `Kernel AES-XTS driver (dm-crypt, fscrypt): ${xtsAes.driver} (${kernel.xtsAesImplementation ?? 'unknown'}${predicted}, priority ${String(xtsAes.priority)}); Adiantum: ${kernel.adiantum}.`;
}

/** The human report of `encplan benchmark ciphers`: the kernel finding first when it is the bottleneck. */
export function renderCipherBenchmark(result: CipherBenchmark, warnings: readonly Warning[]): string {
  const out: string[] = [];
  for (const finding of result.findings) {
    out.push(`! ${finding.message}`, `  hint: ${finding.hint}`, '');
  }
  out.push(kernelLine(result.kernelCrypto), '');
  const speedRows = result.cipherSpeed.measurements.map((m) => [
    m.cipher,
    String(m.keyBits),
    mibPerSecond(m.encryptBytesPerSecond),
    mibPerSecond(m.decryptBytesPerSecond),
    mibPerSecond(m.allCoresEncryptBytesPerSecond),
    mibPerSecond(m.allCoresDecryptBytesPerSecond),
    m.allCoresThreads === null ? '-' : String(m.allCoresThreads),
    m.source,
  ]);
  out.push('Cipher speed (MiB/s = 2^20 bytes per second; "-" = not measured)');
  out.push(
    formatTextTable(
      ['cipher', 'key bits', '1-core enc', '1-core dec', 'all-core enc', 'all-core dec', 'cores', 'source'],
      speedRows,
    ),
  );
  const slower = result.cipherSpeed.measurements.filter(
    (m) =>
      m.allCoresEncryptBytesPerSecond !== null &&
      m.encryptBytesPerSecond !== null &&
      m.allCoresEncryptBytesPerSecond < m.encryptBytesPerSecond,
  );
  if (slower.length > 0) {
    out.push(
      `  note: all cores measured slower than one core for ${slower.map((m) => `${m.cipher} ${String(m.keyBits)}`).join(', ')}: the CPUs are shared or throttled (a busy host or VM).`,
    );
  }
  for (const unmeasured of result.cipherSpeed.unmeasured) {
    out.push(
      `  not measured (${unmeasured.source}): ${unmeasured.cipher}${unmeasured.keyBits === null ? '' : ` ${String(unmeasured.keyBits)}b`}: ${unmeasured.reason}`,
    );
  }
  out.push('', 'Key derivation (one core, cryptsetup)');
  out.push(
    formatTextTable(
      ['hash', 'key bits', 'PBKDF2 iterations/s'],
      result.kdfSpeed.pbkdf2.map((p) => [
        p.hash,
        String(p.derivedKeyBits ?? '-'),
        String(p.iterationsPerSecond),
      ]),
    ),
  );
  for (const argon of result.kdfSpeed.argon2) {
    out.push(
      `${argon.variant}: time cost ${String(argon.timeCost)}, memory ${String(argon.memoryKibibytes)} KiB, ${String(argon.threads)} threads for ${String(argon.requestedDurationMs)} ms`,
    );
  }
  for (const unmeasured of result.kdfSpeed.unmeasured) {
    out.push(`  not measured: PBKDF2-${unmeasured.hash}: ${unmeasured.reason}`);
  }
  if (warnings.length > 0) {
    out.push('', 'Warnings');
    out.push(...warnings.map((warning) => `  ${warning.code}: ${warning.message}`));
  }
  return `${out.join('\n')}\n`;
}
