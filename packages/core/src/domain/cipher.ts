import { z } from 'zod';
import { kdfSpeedSchema } from './kdf.js';
import { benchmarkReductionsSchema } from './benchmark-settings.js';

/**
 * Where a cipher figure was measured. `cryptsetup` = the kernel's crypto API through AF_ALG (the code dm-crypt and
 * fscrypt run, without their I/O path; cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c); `openssl` = userspace OpenSSL (`openssl speed -evp`),
 * an upper bound for what the kernel could do with the same CPU instructions (lelegard/aesbench RESULTS.md; published cryptsetup benchmark outputs).
 */
const cipherSpeedSourceSchema = z.enum(['cryptsetup', 'openssl']);

/**
 * The dm-crypt ciphers the plan's rules compare, as `cryptsetup benchmark -c` names them (without the IV part;
 * cryptsetup(8) BENCHMARK). A measurement with another name (OpenSSL's "chacha20") is kept but not compared.
 */
export const cipherIdSchema = z.enum([
  'aes-xts',
  'aes-cbc',
  'serpent-xts',
  'twofish-xts',
  'xchacha12,aes-adiantum',
  'xchacha20,aes-adiantum',
]);
export type CipherId = z.infer<typeof cipherIdSchema>;

/** One cipher at one key size, from one source. Rates are integer bytes per second; null = not measured. */
const cipherSpeedMeasurementSchema = z.object({
  /** cryptsetup's spelling: "aes-xts", "serpent-xts", "xchacha12,aes-adiantum"; OpenSSL's ChaCha20 is "chacha20". */
  cipher: z.string(),
  /** The whole key as cryptsetup's `-s` counts it: aes-xts 512 = AES-256-XTS (two 256-bit keys). */
  keyBits: z.number().int(),
  source: cipherSpeedSourceSchema,
  /** One thread (cryptsetup measures one thread only; openssl without -multi). */
  encryptBytesPerSecond: z.number().int().nullable(),
  decryptBytesPerSecond: z.number().int().nullable(),
  /** All online CPUs (`openssl speed -multi N`); null for cryptsetup, which has no multi-core mode. */
  allCoresEncryptBytesPerSecond: z.number().int().nullable(),
  allCoresDecryptBytesPerSecond: z.number().int().nullable(),
  /** Processes used for the all-cores figures. */
  allCoresThreads: z.number().int().nullable(),
  /** Size of each encrypted message: openssl `-bytes`; cryptsetup always uses 64 KiB chunks (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c). */
  messageBytes: z.number().int().nullable(),
  /** The exact command, for the report's evidence. */
  argv: z.array(z.string()),
  /**
   * One-core encryption rates of repeated runs, in the order run (since assessment 1.4, cipher-benchmark 1.2;
   * absent after one run). OpenSSL's aes-128-xts and aes-256-xts runs interleave, so the i-th samples of the
   * two form a pair; `encryptBytesPerSecond` is the median of the samples.
   */
  encryptSamplesBytesPerSecond: z.array(z.number().int()).optional(),
});
/** A validated {@link cipherSpeedMeasurementSchema} value. */
export type CipherSpeedMeasurement = z.infer<typeof cipherSpeedMeasurementSchema>;

/** A cipher that could not be measured, and why (a missing kernel module, a tool that cannot do it). */
const unmeasuredCipherSchema = z.object({
  cipher: z.string(),
  keyBits: z.number().int().nullable(),
  source: cipherSpeedSourceSchema,
  reason: z.string(),
});
export type UnmeasuredCipher = z.infer<typeof unmeasuredCipherSchema>;

/** Cipher speed facts of this machine: every measurement kept with its source, plus what could not be measured. */
export const cipherSpeedSchema = z.object({
  measurements: z.array(cipherSpeedMeasurementSchema),
  unmeasured: z.array(unmeasuredCipherSchema),
  /** Whether cryptsetup could reach the kernel's skcipher interface (AF_ALG); null when cryptsetup was not run. */
  kernelCipherBenchmarkAvailable: z.boolean().nullable(),
});
export type CipherSpeedFacts = z.infer<typeof cipherSpeedSchema>;

/**
 * How the kernel implements AES for a driver: `generic` = portable C (`aes-generic`, `aes-fixed-time`, `aes-lib`),
 * `cpu-instructions` = AES-NI/VAES, ARMv8 CE, s390 CPACF, POWER8, RISC-V Zvkned; `bitsliced-simd` = NEON/SSE
 * bit-slicing without AES instructions; `other` = anything else (hardware engines, unknown names).
 */
const aesImplementationSchema = z.enum(['generic', 'cpu-instructions', 'bitsliced-simd', 'other']);
export type AesImplementation = z.infer<typeof aesImplementationSchema>;

/** The driver the kernel picks for an algorithm: the highest-priority non-internal entry of /proc/crypto. */
const kernelDriverSchema = z.object({
  /** Algorithm name as /proc/crypto spells it, e.g. "xts(aes)". */
  algorithm: z.string(),
  driver: z.string(),
  module: z.string().nullable(),
  priority: z.number().int(),
  /** True when /proc/crypto had no entry for the algorithm itself and the driver is predicted from its parts. */
  inferred: z.boolean(),
});
export type KernelDriver = z.infer<typeof kernelDriverSchema>;

/**
 * Whether the kernel can do Adiantum: `instantiated` (listed in /proc/crypto), `built-in` / `module` (listed in
 * /lib/modules/<release>/modules.builtin / modules.dep), `absent` (module lists read, not there), `unknown`
 * (/proc/crypto lists only algorithms already instantiated, so its silence proves nothing).
 */
const adiantumAvailabilitySchema = z.enum(['instantiated', 'built-in', 'module', 'absent', 'unknown']);
export type AdiantumAvailability = z.infer<typeof adiantumAvailabilitySchema>;

/** What the kernel's crypto API would use for disk encryption (dm-crypt, fscrypt). */
export const kernelCryptoSchema = z.object({
  /** The driver behind `xts(aes)` (aes-xts-plain64, fscrypt's default contents mode); null when nothing tells. */
  xtsAes: kernelDriverSchema.nullable(),
  xtsAesImplementation: aesImplementationSchema.nullable(),
  adiantum: adiantumAvailabilitySchema,
  /** Adiantum drivers listed in /proc/crypto, e.g. "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)". */
  adiantumDrivers: z.array(z.string()),
  /** Number of entries /proc/crypto listed. */
  algorithmCount: z.number().int(),
});
/** A validated {@link kernelCryptoSchema} value. */
export type KernelCryptoFacts = z.infer<typeof kernelCryptoSchema>;

/** A finding about the kernel's disk-encryption cipher, with the facts it rests on. */
export const kernelCipherFindingSchema = z.object({
  /** Stable rule id (docs/json-contract.md). */
  id: z.literal('kernel-aes-unaccelerated'),
  severity: z.literal('warning'),
  message: z.string(),
  hint: z.string(),
  evidence: z.object({
    xtsAesDriver: z.string(),
    inferred: z.boolean(),
    cpuHasAes: z.boolean(),
    /** Single-core OpenSSL aes-xts figure on the same CPU (the 512-bit key if measured), if any. */
    opensslAesXtsBytesPerSecond: z.number().int().nullable(),
  }),
});
export type KernelCipherFinding = z.infer<typeof kernelCipherFindingSchema>;

/** The result of `encplan benchmark ciphers` (the envelope's `result`), also usable inside an assessment. */
export const cipherBenchmarkSchema = z.object({
  /** From the CPU flags (systeminformation); null when they could not be read. */
  cpuHasAes: z.boolean().nullable(),
  kernelCrypto: kernelCryptoSchema.nullable(),
  cipherSpeed: cipherSpeedSchema,
  kdfSpeed: kdfSpeedSchema,
  findings: z.array(kernelCipherFindingSchema),
  /** What quick mode left out, in words; empty for a full run (since assessment 1.2; absent in older documents). */
  reductions: benchmarkReductionsSchema.optional(),
});
/** A validated {@link cipherBenchmarkSchema} value. */
export type CipherBenchmark = z.infer<typeof cipherBenchmarkSchema>;
