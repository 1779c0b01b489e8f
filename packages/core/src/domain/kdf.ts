import { z } from 'zod';

/** PBKDF2 hashes as cryptsetup benchmark prints them, without the "-256" output-size suffix (cryptsetup(8) BENCHMARK). */
export type Pbkdf2Hash = 'sha1' | 'sha256' | 'sha512' | 'ripemd160' | 'whirlpool' | 'blake2s' | 'streebog';

/** PBKDF2 speed for one hash, as `cryptsetup benchmark` reports it ("iterations per second for 256-bit key"). */
const pbkdf2SpeedSchema = z.object({
  /** cryptsetup's hash name: "sha256", "sha512", "whirlpool", "blake2s-256", "ripemd160", … */
  hash: z.string(),
  iterationsPerSecond: z.number().int(),
  /**
   * Size of the derived key the benchmark used; null when the output did not say (cryptsetup 1.6). PBKDF2 costs one
   * iteration chain per hash-output block: a 512-bit key from SHA-256 or BLAKE2s-256 (32-byte output) costs twice
   * the 256-bit figure, from SHA-512 or Whirlpool (64-byte output) the same (RFC 8018 Meijer & van Gastel, "Self-encrypting deception", IEEE S&P 2019; Microsoft ADV180028, KB4516071).
   */
  derivedKeyBits: z.number().int().nullable(),
  /**
   * Every run's iterations per second in run order (since assessment 1.6, cipher-benchmark 1.3), present after
   * more than one run of the hash; `iterationsPerSecond` is then their median, rounded (issue 24 item 4).
   */
  iterationsPerSecondSamples: z.array(z.number().int()).optional(),
  /**
   * The runs' spread, slowest to fastest over the median in per cent (as fio's `spreadPercent`), one decimal;
   * present with `iterationsPerSecondSamples` (since assessment 1.7, cipher-benchmark 1.4; issue 24 item 4).
   */
  iterationsPerSecondSpreadPercent: z.number().optional(),
});

/**
 * Argon2 parameters cryptsetup's benchmark chose for the requested unlock time: what `luksFormat` would pick on
 * this machine (LUKS2 defaults argon2id, 2000 ms, ≤ 1 GiB, 4 threads; cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc).
 */
const argon2SpeedSchema = z.object({
  variant: z.enum(['argon2i', 'argon2id']),
  timeCost: z.number().int(),
  memoryKibibytes: z.number().int(),
  threads: z.number().int(),
  derivedKeyBits: z.number().int().nullable(),
  requestedDurationMs: z.number().int(),
});

/** A hash whose PBKDF2 speed could not be measured, and why. */
const unmeasuredKdfSchema = z.object({ hash: z.string(), reason: z.string() });
export type UnmeasuredKdf = z.infer<typeof unmeasuredKdfSchema>;

/** Key-derivation speed facts of this machine (defender side: one core, cryptsetup's crypto backend). */
export const kdfSpeedSchema = z.object({
  pbkdf2: z.array(pbkdf2SpeedSchema),
  argon2: z.array(argon2SpeedSchema),
  unmeasured: z.array(unmeasuredKdfSchema),
});
export type KdfSpeedFacts = z.infer<typeof kdfSpeedSchema>;
