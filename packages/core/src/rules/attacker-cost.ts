import { z } from 'zod';
import type { ReferenceGpu } from './reference-rates.js';
import { VERACRYPT_GPU_RATES } from './reference-rates.js';
import type { Luks2Pbkdf, VeracryptKdf } from './key-derivation.js';

/** Expected time for one attacker to guess a password of a given entropy. */
export const attackerCostSchema = z.object({
  /** "veracrypt-pbkdf2-sha512", "luks2-argon2id". */
  kdf: z.string(),
  /** A reference GPU, or "unlock-machine" (a machine as fast as the one that unlocks). */
  attacker: z.string(),
  entropyBits: z.number(),
  /** Guesses per second; null when no figure transfers. */
  guessesPerSecond: z.number().nullable(),
  /** Expected (average: half the key space) seconds; null when no figure transfers. */
  expectedSeconds: z.number().nullable(),
  /** False when published GPU figures do not apply to these parameters (memory-hard argon2id). */
  transfers: z.boolean(),
  note: z.string(),
});
export type AttackerCost = z.infer<typeof attackerCostSchema>;

const GPU_ORDER: readonly ReferenceGpu[] = ['rtx-4090', 'rtx-5090', 'h100-pcie'];

/** Expected seconds to find a password of `entropyBits` at `guessesPerSecond`: half the space on average. */
export function expectedGuessSeconds(entropyBits: number, guessesPerSecond: number): number {
  return 2 ** (entropyBits - 1) / guessesPerSecond;
}

/**
 * Attacker cost of a VeraCrypt header: hashcat's rates at 500,000 iterations rescaled linearly to the
 * planned iterations (dosoos/hashcat_speeds (hashcat -b outputs); hashcat#3535 warns benchmark iteration counts are not real-world).
 */
export function estimateVeracryptAttackerCost(
  kdf: VeracryptKdf,
  entropyBits: readonly number[],
): AttackerCost[] {
  const rates = VERACRYPT_GPU_RATES[kdf.hash];
  return GPU_ORDER.flatMap((gpu) => {
    const rate = rates[gpu];
    if (rate === undefined) {
      return [];
    }
    const guessesPerSecond = (rate.guessesPerSecond * rate.iterations) / kdf.iterations;
    return entropyBits.map((bits) => ({
      kdf: `veracrypt-pbkdf2-${kdf.hash}`,
      attacker: gpu,
      entropyBits: bits,
      guessesPerSecond,
      expectedSeconds: expectedGuessSeconds(bits, guessesPerSecond),
      transfers: true,
      note: `${rate.mode} at ${String(rate.iterations)} iterations, scaled to ${String(kdf.iterations)}; one GPU, divide by the number of GPUs.`,
    }));
  });
}

/**
 * Attacker cost of a LUKS2 argon2id keyslot. GPU PBKDF2 figures do not transfer: hashcat mode 34100 exists
 * but argon2id is memory-bound and the GPU advantage vanishes around 100–200 MB per hash (dosoos/hashcat_speeds (hashcat -b outputs)). What does
 * transfer: each guess costs one unlock on a machine like the unlocking one.
 */
export function estimateLuks2AttackerCost(pbkdf: Luks2Pbkdf, entropyBits: readonly number[]): AttackerCost[] {
  return entropyBits.flatMap((bits) => {
    const gpuRow: AttackerCost = {
      kdf: 'luks2-argon2id',
      attacker: 'rtx-4090',
      entropyBits: bits,
      guessesPerSecond: null,
      expectedSeconds: null,
      transfers: false,
      note: `No published GPU rate applies: argon2id with ${String(pbkdf.memoryKiB)} KiB per guess is memory-bound, so PBKDF2 GPU figures do not transfer (hashcat mode 34100 has no comparable benchmark).`,
    };
    if (pbkdf.predictedUnlockMs === null) {
      return [gpuRow];
    }
    const guessesPerSecond = 1000 / pbkdf.predictedUnlockMs;
    return [
      gpuRow,
      {
        kdf: 'luks2-argon2id',
        attacker: 'unlock-machine',
        entropyBits: bits,
        guessesPerSecond,
        expectedSeconds: expectedGuessSeconds(bits, guessesPerSecond),
        transfers: true,
        note:
          pbkdf.predictedUnlockLowerBound === true
            ? 'One machine as fast as the unlocking one, one guess per unlock time; divide by the number of machines. The unlock time is only a lower bound (the argon2id benchmark stopped at its minimum cost), so this is the least the attacker spends.'
            : 'One machine as fast as the unlocking one, one guess per unlock time; divide by the number of machines.',
      },
    ];
  });
}
