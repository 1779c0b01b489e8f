import type { CipherSpeedMeasurement, UnmeasuredCipher } from '../../domain/cipher.js';
import type { KdfSpeedFacts, UnmeasuredKdf } from '../../domain/kdf.js';
import type { CryptsetupBenchmark } from './parse-cryptsetup-benchmark.js';
import { median } from '../../domain/statistics.js';

/** One parsed `cryptsetup benchmark` run with the argv that produced it. */
export interface CryptsetupBenchmarkRun {
  readonly argv: readonly string[];
  readonly benchmark: CryptsetupBenchmark;
}

/** Cipher rows of cryptsetup runs as measurements (one thread, kernel crypto); "N/A" rows become unmeasured. */
export function cipherFactsFromCryptsetup(runs: readonly CryptsetupBenchmarkRun[]): {
  measurements: CipherSpeedMeasurement[];
  unmeasured: UnmeasuredCipher[];
} {
  const measurements: CipherSpeedMeasurement[] = [];
  const unmeasured: UnmeasuredCipher[] = [];
  for (const { argv, benchmark } of runs) {
    for (const row of benchmark.ciphers) {
      if (row.encryptBytesPerSecond === null && row.decryptBytesPerSecond === null) {
        unmeasured.push({
          cipher: row.cipher,
          keyBits: row.keyBits,
          source: 'cryptsetup',
          reason:
            'cryptsetup printed N/A: the kernel lacks this cipher or mode (module not built or not loaded).',
        });
        continue;
      }
      measurements.push({
        cipher: row.cipher,
        keyBits: row.keyBits,
        source: 'cryptsetup',
        encryptBytesPerSecond: row.encryptBytesPerSecond,
        decryptBytesPerSecond: row.decryptBytesPerSecond,
        allCoresEncryptBytesPerSecond: null,
        allCoresDecryptBytesPerSecond: null,
        allCoresThreads: null,
        // cryptsetup encrypts in 64 KiB chunks (lib/crypto_backend/cipher_check.c CIPHER_BLOCK_BYTES; cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c).
        messageBytes: 65536,
        argv: [...argv],
      });
    }
  }
  return { measurements, unmeasured };
}

/**
 * PBKDF2 and Argon2 lines of cryptsetup runs as KDF facts: repeated PBKDF2 runs of one hash become one row whose
 * iterations per second are the median of the runs, with every run kept in `iterationsPerSecondSamples`; every
 * Argon2 line is kept in run order (repeated argon2id runs give the rule its median).
 */
export function kdfFactsFromCryptsetup(runs: readonly CryptsetupBenchmarkRun[]): KdfSpeedFacts {
  const pbkdf2 = new Map<string, { derivedKeyBits: number | null; samples: number[] }>();
  const unmeasured = new Map<string, UnmeasuredKdf>();
  const argon2: KdfSpeedFacts['argon2'][number][] = [];
  for (const { benchmark } of runs) {
    for (const line of benchmark.pbkdf2) {
      if (line.iterationsPerSecond === null) {
        if (pbkdf2.has(line.hash)) {
          continue;
        }
        unmeasured.set(line.hash, {
          hash: line.hash,
          reason:
            'cryptsetup printed N/A: its crypto backend has no such hash (OpenSSL 3 has no Streebog without the GOST engine).',
        });
      } else {
        unmeasured.delete(line.hash);
        const samples = [...(pbkdf2.get(line.hash)?.samples ?? []), line.iterationsPerSecond];
        pbkdf2.set(line.hash, { derivedKeyBits: line.derivedKeyBits, samples });
      }
    }
    for (const line of benchmark.argon2) {
      argon2.push({ ...line });
    }
  }
  const rows = [...pbkdf2].map(([hash, { derivedKeyBits, samples }]) => {
    const middle = median(samples) ?? 0;
    const spread = middle > 0 ? ((Math.max(...samples) - Math.min(...samples)) / middle) * 100 : 0;
    return {
      hash,
      iterationsPerSecond: Math.round(middle),
      derivedKeyBits,
      ...(samples.length > 1
        ? {
            iterationsPerSecondSamples: samples,
            iterationsPerSecondSpreadPercent: Math.round(spread * 10) / 10,
          }
        : {}),
    };
  });
  return { pbkdf2: rows, argon2, unmeasured: [...unmeasured.values()] };
}
