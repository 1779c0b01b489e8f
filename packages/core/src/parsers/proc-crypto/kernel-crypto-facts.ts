import type {
  AdiantumAvailability,
  AesImplementation,
  KernelCryptoFacts,
  KernelDriver,
} from '../../domain/cipher.js';
import type { ProcCryptoEntry } from './parse-proc-crypto.js';

/** Module lists of the running kernel: /lib/modules/<release>/modules.builtin and modules.dep, null if unreadable. */
export interface KernelModuleLists {
  readonly builtin: string | null;
  readonly dep: string | null;
}

/**
 * Classifies an AES driver name. Names come from the kernel sources: generic C `aes-generic` (crypto/aes_generic.c),
 * `aes-fixed-time` (crypto/aes_ti.c), `aes-lib`; x86 `aesni`/`vaes` (arch/x86/crypto/aesni-intel_glue.c); ARMv8 CE
 * `-ce` (arch/arm64/crypto/aes-glue.c); s390 CPACF `-s390`; POWER8 `p8`/`vmx`; RISC-V `zvkned`; bit-sliced NEON `neonbs`.
 */
export function classifyAesDriver(driver: string): AesImplementation {
  const name = driver.toLowerCase();
  if (/aesni|vaes|(^|[-(_])ce([-),_]|$)|aes-ce|s390|cpacf|p8|vmx|zvkned|riscv64/.test(name)) {
    return 'cpu-instructions';
  }
  if (/neonbs|-bs\b|bitslice/.test(name)) {
    return 'bitsliced-simd';
  }
  if (/aes-generic|aes-fixed-time|aes-lib|aes-arm64$|aes-arm$/.test(name)) {
    return 'generic';
  }
  return 'other';
}

/** The entry the kernel's crypto API would pick for `name`: the highest priority among non-internal entries. */
function selectKernelDriver(entries: readonly ProcCryptoEntry[], name: string): ProcCryptoEntry | null {
  const candidates = entries.filter((entry) => entry.name === name && !entry.internal);
  return candidates.reduce<ProcCryptoEntry | null>(
    (best, entry) => (best === null || entry.priority > best.priority ? entry : best),
    null,
  );
}

/**
 * Where the `xts(aes)` driver comes from, in the order the crypto API would look. /proc/crypto shows templates
 * only once instantiated; until then the xts template would wrap the best ecb(aes) or plain aes cipher
 * (crypto/xts.c builds "xts(ecb(<cipher>))"), so the driver is predicted (`inferred`) from its parts.
 */
const XTS_AES_SOURCES: readonly { name: string; driver: (inner: string) => string; inferred: boolean }[] = [
  { name: 'xts(aes)', driver: (listed) => listed, inferred: false },
  { name: 'ecb(aes)', driver: (ecb) => `xts(${ecb})`, inferred: true },
  { name: 'aes', driver: (cipher) => `xts(ecb(${cipher}))`, inferred: true },
];

function xtsAesDriver(entries: readonly ProcCryptoEntry[]): KernelDriver | null {
  for (const source of XTS_AES_SOURCES) {
    const entry = selectKernelDriver(entries, source.name);
    if (entry !== null) {
      return {
        algorithm: 'xts(aes)',
        driver: source.driver(entry.driver),
        module: entry.module,
        priority: entry.priority,
        inferred: source.inferred,
      };
    }
  }
  return null;
}

function adiantumAvailability(
  listed: readonly ProcCryptoEntry[],
  modules: KernelModuleLists,
): AdiantumAvailability {
  if (listed.length > 0) {
    return 'instantiated';
  }
  // Module paths in these lists look like "kernel/crypto/adiantum.ko" (or .ko.xz/.ko.zst in modules.dep).
  const mentions = (text: string | null) => text !== null && /(^|\/)adiantum\.ko/m.test(text);
  if (mentions(modules.builtin)) {
    return 'built-in';
  }
  if (mentions(modules.dep)) {
    return 'module';
  }
  return modules.builtin !== null && modules.dep !== null ? 'absent' : 'unknown';
}

/** Derives what dm-crypt and fscrypt would use from /proc/crypto entries and the kernel's module lists. */
export function deriveKernelCryptoFacts(
  entries: readonly ProcCryptoEntry[],
  modules: KernelModuleLists,
): KernelCryptoFacts {
  const xtsAes = xtsAesDriver(entries);
  const adiantum = entries.filter((entry) => entry.name.startsWith('adiantum(') && !entry.internal);
  return {
    xtsAes,
    xtsAesImplementation: xtsAes === null ? null : classifyAesDriver(xtsAes.driver),
    adiantum: adiantumAvailability(adiantum, modules),
    adiantumDrivers: adiantum.map((entry) => entry.driver),
    algorithmCount: entries.length,
  };
}
