import { z } from 'zod';
import { machineFactOrigin } from '../domain/cpu.js';
import { evidence, type Evidence, type Recommendation } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { Pbkdf2Hash } from '../domain/kdf.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import { ARGON2_MIN_MEMORY_KIB, UNLOCK_RAM_SHARE } from './flag-definitions.js';
import type { PlanFacts } from './facts.js';
import { VERACRYPT_GPU_RATES } from './reference-rates.js';
import type { RuleResult } from './rule-result.js';

/** cryptsetup's default maximum argon2 memory, 1 GiB in KiB (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc, meson_options.txt). */
const ARGON2_MAX_MEMORY_KIB = 1_048_576;
/** cryptsetup's argon2 minimum time cost, 4 (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc, cryptsetup FAQ 10.5, lib/utils_pbkdf.c: attacks work up to 3 iterations). */
const ARGON2_MIN_ITERATIONS = 4;
/** cryptsetup's default --pbkdf-parallel, 4, capped by online CPUs (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc). */
const ARGON2_DEFAULT_PARALLEL = 4;
/**
 * When the unlocking machine's RAM is unknown: 256 MiB, the fixed default omarchy chose so that every
 * install gets the same KDF parameters (omacom/omarchy-iso#96).
 */
const ARGON2_UNKNOWN_RAM_MEMORY_KIB = 262_144;
/**
 * Argon2 memory is rounded down to this grid (KiB): powers of two and their midpoints from 64 MiB (RFC 9106
 * §4 second recommended option) to 1 GiB, so a few per cent of benchmark noise moves it by at most one step
 * and the same facts always give the same setting.
 */
export const ARGON2_MEMORY_GRID_KIB = [
  65_536, 98_304, 131_072, 196_608, 262_144, 393_216, 524_288, 786_432, 1_048_576,
] as const;

/** `memoryKiB` rounded down to {@link ARGON2_MEMORY_GRID_KIB} (unchanged below its first step). */
function roundArgon2Memory(memoryKiB: number): number {
  const steps = ARGON2_MEMORY_GRID_KIB.filter((step) => step <= memoryKiB);
  return steps.length === 0 ? Math.floor(memoryKiB) : (steps.at(-1) ?? memoryKiB);
}

/**
 * The LUKS2 keyslot KDF the plan emits. `iterations` null means "let cryptsetup benchmark to iterTimeMs";
 * `memoryKiB` is then a cap cryptsetup may lower. cryptsetup also lowers `parallel` to the CPUs online on
 * the machine that runs luksFormat (checked in tests/integration/plan-luks-format.integration.test.ts).
 */
export const luks2PbkdfSchema = z.object({
  memoryKiB: z.number().int(),
  parallel: z.number().int(),
  iterations: z.number().int().nullable(),
  iterTimeMs: z.number().int().nullable(),
  /** Expected unlock time on the weakest machine, if computable. */
  predictedUnlockMs: z.number().nullable(),
});
export type Luks2Pbkdf = Readonly<z.infer<typeof luks2PbkdfSchema>>;

const ARGON2_SOURCE = sourceOf('cryptsetup benchmark', 'argon2id');

/** What `cryptsetup benchmark` chose for argon2id on this machine, when all four numbers are known. */
function argon2idBenchmarkOf(
  facts: PlanFacts,
): { timeCost: number; memoryKiB: number; threads: number; targetMs: number } | null {
  const row = facts.cipherBenchmark?.kdfSpeed?.argon2?.find((candidate) => candidate.variant === 'argon2id');
  const { timeCost, memoryKibibytes, threads, requestedDurationMs } = row ?? {};
  if (
    timeCost === undefined ||
    memoryKibibytes === undefined ||
    threads === undefined ||
    requestedDurationMs === undefined ||
    timeCost <= 0 ||
    memoryKibibytes <= 0 ||
    threads <= 0
  ) {
    return null;
  }
  return { timeCost, memoryKiB: memoryKibibytes, threads, targetMs: requestedDurationMs };
}

/**
 * `luks2-pbkdf`: argon2id with explicit memory, parallelism and iterations, computed from this machine's
 * argon2id benchmark for the weakest machine that must unlock (its RAM and cores), capped at half its RAM
 * (cryptsetup FAQ 10.5, lib/utils_pbkdf.c). Assumes time ∝ iterations × memory / lanes and that the unlocking machine's cores are as fast as
 * this one's (stated in the reason when the machines differ).
 */
export function recommendLuks2Pbkdf(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { readonly pbkdf: Luks2Pbkdf } {
  const machineCores = facts.machine?.logicalCores ?? null;
  const unlockMemoryBytes = options.unlockMachine.memoryBytes ?? facts.machine?.memoryTotalBytes ?? null;
  const unlockCores = options.unlockMachine.cores ?? machineCores;
  const otherMachine = options.unlockMachine.memoryBytes !== null || options.unlockMachine.cores !== null;
  const bench = argon2idBenchmarkOf(facts);
  const parallel = Math.min(
    ARGON2_DEFAULT_PARALLEL,
    unlockCores ?? bench?.threads ?? ARGON2_DEFAULT_PARALLEL,
  );
  const memoryCapKiB = roundArgon2Memory(
    Math.min(
      ARGON2_MAX_MEMORY_KIB,
      unlockMemoryBytes !== null
        ? Math.floor((unlockMemoryBytes * UNLOCK_RAM_SHARE) / 1024)
        : Math.min(bench?.memoryKiB ?? ARGON2_UNKNOWN_RAM_MEMORY_KIB, ARGON2_UNKNOWN_RAM_MEMORY_KIB),
    ),
  );
  const capBasis =
    unlockMemoryBytes === null
      ? `the unlocking machine's RAM is unknown, so ${String(ARGON2_UNKNOWN_RAM_MEMORY_KIB)} KiB, a safe default`
      : `a quarter of the unlocking machine's ${String(Math.round(unlockMemoryBytes / 2 ** 20))} MiB of RAM (at most 1 GiB), leaving room for the installer or initramfs`;
  const reasons: Evidence[] = [
    evidence(
      'unlock machine memory (bytes)',
      unlockMemoryBytes,
      otherMachine
        ? sourceOf('encplan', 'options.unlockMachine')
        : sourceOf(machineFactOrigin(facts.machine, '/proc/meminfo'), 'MemTotal'),
    ),
    evidence(
      'unlock machine cores',
      unlockCores,
      otherMachine
        ? sourceOf('encplan', 'options.unlockMachine')
        : sourceOf(machineFactOrigin(facts.machine, '/proc/cpuinfo'), 'processor'),
    ),
    evidence('options.unlockTimeMs', options.unlockTimeMs, sourceOf('encplan', 'options.unlockTimeMs')),
  ];
  if (bench === null) {
    const pbkdf: Luks2Pbkdf = {
      memoryKiB: memoryCapKiB,
      parallel,
      iterations: null,
      iterTimeMs: options.unlockTimeMs,
      predictedUnlockMs: options.unlockTimeMs,
    };
    return {
      recommendations: [
        {
          ruleId: 'luks2-pbkdf',
          value: {
            pbkdf: 'argon2id',
            memoryKiB: pbkdf.memoryKiB,
            parallel,
            iterations: null,
            iterTimeMs: options.unlockTimeMs,
          },
          reason: `No argon2id benchmark is available, so cap memory at ${String(memoryCapKiB)} KiB (${capBasis}) and ${String(parallel)} lanes for the weakest unlocking machine and let cryptsetup pick iterations for ${String(options.unlockTimeMs)} ms; run luksFormat on that machine so its own speed is measured. The memory is a maximum: on a machine too slow to meet the time with it, cryptsetup's benchmark lowers it (cryptsetup(8), --pbkdf-memory), so luksDump may show less.`,
          evidence: reasons,
          confidence: 'low',
        },
      ],
      findings: [],
      pbkdf,
    };
  }
  reasons.push(
    evidence('argon2id benchmark iterations', bench.timeCost, ARGON2_SOURCE),
    evidence('argon2id benchmark memory (KiB)', bench.memoryKiB, ARGON2_SOURCE),
    evidence('argon2id benchmark threads', bench.threads, ARGON2_SOURCE),
    evidence('argon2id benchmark target (ms)', bench.targetMs, ARGON2_SOURCE),
  );
  const benchLanes = Math.min(bench.threads, machineCores ?? bench.threads);
  const msPerKiBIterationLane = (bench.targetMs * benchLanes) / (bench.timeCost * bench.memoryKiB);
  const unlockLanes = Math.min(parallel, unlockCores ?? parallel);
  let memoryKiB = memoryCapKiB;
  let iterations = Math.floor((options.unlockTimeMs * unlockLanes) / (msPerKiBIterationLane * memoryKiB));
  if (iterations < ARGON2_MIN_ITERATIONS) {
    // cryptsetup lowers memory, not iterations, to reach the time target (cryptsetup FAQ 10.5, lib/utils_pbkdf.c).
    iterations = ARGON2_MIN_ITERATIONS;
    memoryKiB = Math.max(
      ARGON2_MIN_MEMORY_KIB,
      roundArgon2Memory(
        Math.floor((options.unlockTimeMs * unlockLanes) / (msPerKiBIterationLane * iterations)),
      ),
    );
  }
  const predictedUnlockMs = Math.round((iterations * memoryKiB * msPerKiBIterationLane) / unlockLanes);
  const pbkdf: Luks2Pbkdf = { memoryKiB, parallel, iterations, iterTimeMs: null, predictedUnlockMs };
  const memoryNote = `no more memory than ${capBasis}`;
  const assumption = otherMachine
    ? " It assumes the unlocking machine's cores are as fast as this one's; format there if they are slower."
    : '';
  const recommendation: Recommendation = {
    ruleId: 'luks2-pbkdf',
    value: { pbkdf: 'argon2id', memoryKiB, parallel, iterations, iterTimeMs: null },
    reason: `Fix argon2id at ${String(memoryKiB)} KiB, ${String(parallel)} lanes and ${String(iterations)} iterations (about ${String(predictedUnlockMs)} ms per unlock) so the weakest machine that must unlock gets ${memoryNote} and no boot-time out-of-memory, instead of whatever a faster formatting machine would pick.${assumption}`,
    evidence: reasons,
    confidence: otherMachine ? 'medium' : 'high',
  };
  return { recommendations: [recommendation], findings: [], pbkdf };
}

/** Bytes of output per hash block, for PBKDF2's block count (RFC 8018 §5.2). */
const HASH_OUTPUT_BYTES: Readonly<Record<Pbkdf2Hash, number>> = {
  sha1: 20,
  sha256: 32,
  sha512: 64,
  ripemd160: 20,
  whirlpool: 64,
  blake2s: 32,
  streebog: 64,
};
/** cryptsetup benchmark derives a 256-bit key (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c "per second for 256-bit key"). */
const CRYPTSETUP_BENCH_KEY_BYTES = 32;
/** VeraCrypt derives 64 bytes (two 256-bit XTS keys) per cipher of the cascade (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c Cascades). */
const VERACRYPT_KEY_BYTES_PER_CIPHER = 64;
/**
 * VeraCrypt's PIM for non-system volumes: iterations = 15000 + 1000·PIM, and passwords under 20 characters
 * require PIM ≥ 485 (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage",
 * "Cascades"; cryptsetup lib/tcrypt/tcrypt.c).
 */
const VERACRYPT_PIM = {
  baseIterations: 15_000,
  iterationsPerPim: 1000,
  shortPasswordChars: 20,
  shortPasswordMinPim: 485,
} as const;

/** VeraCrypt --hash names of the hashes the plan may pick. */
export type VeracryptHash = 'sha512' | 'whirlpool' | 'sha256';

/** Iterations of a non-system VeraCrypt volume at `pim`. */
export function veracryptIterations(pim: number): number {
  return VERACRYPT_PIM.baseIterations + VERACRYPT_PIM.iterationsPerPim * pim;
}

/** The VeraCrypt header KDF the plan emits. */
export interface VeracryptKdf {
  readonly hash: VeracryptHash;
  readonly pim: number;
  readonly iterations: number;
  /** Header-key derivations per second on this machine for VeraCrypt's key length; null when unmeasured. */
  readonly derivationsPerSecond: number | null;
  readonly predictedUnlockMs: number | null;
}

/** The VeraCrypt settings a plan shows: the cipher cascade and the header KDF's hash, PIM and unlock time. */
export const veracryptPlanSettingsSchema = z.object({
  encryption: z.string(),
  hash: z.string(),
  pim: z.number().int(),
  iterations: z.number().int(),
  predictedUnlockMs: z.number().nullable(),
});

/** The plan's VeraCrypt settings, from the chosen cascade and KDF. */
export function veracryptPlanSettings(chosen: {
  readonly encryption: string;
  readonly kdf: VeracryptKdf;
}): z.infer<typeof veracryptPlanSettingsSchema> {
  const { hash, pim, iterations, predictedUnlockMs } = chosen.kdf;
  return { encryption: chosen.encryption, hash, pim, iterations, predictedUnlockMs };
}

/**
 * `veracrypt-pim`: the hash whose measured speed here, against its hashcat rate (dosoos/hashcat_speeds (hashcat -b outputs)), gives the attacker
 * the most work per second of the user's wait, and the PIM that makes one unlock take `unlockTimeMs`,
 * never below 485 for passwords shorter than 20 characters (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c).
 */
export function recommendVeracryptKdf(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  cascadeCiphers: number,
): RuleResult & { readonly kdf: VeracryptKdf } {
  const keyBytes = VERACRYPT_KEY_BYTES_PER_CIPHER * cascadeCiphers;
  const candidates = (['sha512', 'whirlpool', 'sha256'] as const).flatMap((hash) => {
    // cryptsetup prints "sha256" or "blake2s-256"; the suffix is the hash's output size.
    const row = (facts.cipherBenchmark?.kdfSpeed?.pbkdf2 ?? []).find(
      (candidate) => candidate.hash?.replace(/-\d+$/, '') === hash,
    );
    const gpu = VERACRYPT_GPU_RATES[hash]['rtx-4090'];
    const measured = row?.iterationsPerSecond;
    if (measured === undefined || measured <= 0 || gpu === undefined) {
      return [];
    }
    const benchKeyBytes = (row?.derivedKeyBits ?? CRYPTSETUP_BENCH_KEY_BYTES * 8) / 8;
    const speed = {
      iterationsPerSecond: measured,
      benchKeyBits: benchKeyBytes * 8,
      source: sourceOf('cryptsetup benchmark', `PBKDF2-${row?.hash ?? hash}`),
    };
    const outputBytes = HASH_OUTPUT_BYTES[hash];
    // PBKDF2 cost scales with the number of output blocks: ceil(key / hash output) (RFC 8018 §5.2).
    const iterationsPerSecond =
      (measured * Math.ceil(benchKeyBytes / outputBytes)) / Math.ceil(keyBytes / outputBytes);
    // Attacker seconds per defender second ∝ defender iterations/s ÷ GPU iterations/s (dosoos/hashcat_speeds (hashcat -b outputs) derived ratio).
    const advantage = iterationsPerSecond / (gpu.guessesPerSecond * gpu.iterations);
    return [{ hash, iterationsPerSecond, advantage, speed }];
  });
  const shortPassword =
    options.passwordLength === null || options.passwordLength < VERACRYPT_PIM.shortPasswordChars;
  const minimumPim = shortPassword ? VERACRYPT_PIM.shortPasswordMinPim : 1;
  const reasons: Evidence[] = [
    evidence('options.passwordLength', options.passwordLength, sourceOf('encplan', 'options.passwordLength')),
    evidence('options.unlockTimeMs', options.unlockTimeMs, sourceOf('encplan', 'options.unlockTimeMs')),
    ...candidates.map((c) =>
      evidence(
        `PBKDF2-${c.hash} iterations/s (${String(c.speed.benchKeyBits)}-bit key)`,
        c.speed.iterationsPerSecond,
        c.speed.source,
      ),
    ),
  ];
  const best = candidates.reduce<(typeof candidates)[number] | null>(
    (top, c) => (top === null || c.advantage > top.advantage ? c : top),
    null,
  );
  if (best === null) {
    const kdf: VeracryptKdf = {
      hash: 'sha512',
      pim: VERACRYPT_PIM.shortPasswordMinPim,
      iterations: veracryptIterations(VERACRYPT_PIM.shortPasswordMinPim),
      derivationsPerSecond: null,
      predictedUnlockMs: null,
    };
    return {
      recommendations: [
        {
          ruleId: 'veracrypt-hash',
          value: 'sha512',
          reason: "No PBKDF2 speed was measured, so keep VeraCrypt's default SHA-512.",
          evidence: reasons,
          confidence: 'low',
        },
        {
          ruleId: 'veracrypt-pim',
          value: kdf.pim,
          reason:
            'Without a PBKDF2 measurement the default PIM 485 (500,000 iterations) is the floor VeraCrypt enforces for passwords under 20 characters.',
          evidence: reasons,
          confidence: 'low',
        },
      ],
      findings: [],
      kdf,
    };
  }
  const target = (options.unlockTimeMs / 1000) * best.iterationsPerSecond;
  const timedPim = Math.ceil((target - VERACRYPT_PIM.baseIterations) / VERACRYPT_PIM.iterationsPerPim);
  const pim = Math.max(minimumPim, timedPim);
  const iterations = veracryptIterations(pim);
  const predictedUnlockMs = Math.round((iterations / best.iterationsPerSecond) * 1000);
  const kdf: VeracryptKdf = {
    hash: best.hash,
    pim,
    iterations,
    derivationsPerSecond: best.iterationsPerSecond / iterations,
    predictedUnlockMs,
  };
  const others = candidates
    .filter((c) => c !== best)
    .map((c) => `${c.hash} ${(best.advantage / c.advantage).toFixed(1)}×`)
    .join(', ');
  // The floor note names the rule that set it: 485 for passwords under 20 characters, 1 (the smallest PIM)
  // for a long password.
  const floorNote =
    pim === minimumPim && timedPim < minimumPim
      ? shortPassword
        ? `; ${String(minimumPim)} is VeraCrypt's floor for passwords under 20 characters`
        : `; ${String(minimumPim)} is the smallest PIM VeraCrypt accepts (allowed because the password has 20 or more characters)`
      : '';
  return {
    recommendations: [
      {
        ruleId: 'veracrypt-hash',
        value: best.hash,
        reason: `Per second of your unlock wait, ${best.hash} gives a GPU attacker the most work of the measured hashes (more than ${others === '' ? 'no alternative measured' : others}), from this CPU's PBKDF2 speed against hashcat's RTX 4090 rates.`,
        evidence: reasons,
        confidence: 'medium',
      },
      {
        ruleId: 'veracrypt-pim',
        value: pim,
        reason: `PIM ${String(pim)} (${String(iterations)} iterations) takes about ${String(predictedUnlockMs)} ms to unlock on this machine with --hash ${best.hash}${floorNote}.`,
        evidence: reasons,
        confidence: 'high',
      },
    ],
    findings: [],
    kdf,
  };
}
