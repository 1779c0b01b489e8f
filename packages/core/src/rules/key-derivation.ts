import { z } from 'zod';
import { median } from '../domain/statistics.js';
import { machineFactOrigin } from '../domain/cpu.js';
import { evidence, type Evidence, type Recommendation } from '../domain/recommendation.js';
import { sourceOf } from '../domain/source.js';
import type { Pbkdf2Hash } from '../domain/kdf.js';
import type { ResolvedPlanOptions } from './plan-options.js';
import { UNLOCK_RAM_SHARE } from './flag-definitions.js';
import type { PlanFacts } from './facts.js';
import { VERACRYPT_GPU_RATES } from './reference-rates.js';
import type { RuleResult } from './rule-result.js';
import { leadsBeyondSpread, rangeOfRuns, scaleRange, type MeasuredRange } from './measured-difference.js';

/**
 * cryptsetup's default maximum argon2 memory, 1 GiB in KiB: "If the memory cost parameter is benchmarked (not
 * specified by a parameter) it is always in range from 64 MiB to 1 GiB" (cryptsetup-luksFormat(8) 2.6.1,
 * "MINIMAL AND MAXIMAL PBKDF COSTS"; DEFAULT_LUKS2_MEMORY_KB in cryptsetup lib/utils_pbkdf.c). The format
 * allows 4 GiB; the plan stays at the default ceiling, the memory every cryptsetup build is tested with.
 */
const ARGON2_MAX_MEMORY_KIB = 1_048_576;
/**
 * cryptsetup's argon2 minimum time cost, 4: "For Argon2i and Argon2id, minimum iteration count (CPU cost) is 4"
 * (cryptsetup-luksFormat(8) 2.6.1, "MINIMAL AND MAXIMAL PBKDF COSTS"; verify_pbkdf_params in cryptsetup
 * lib/utils_pbkdf.c refuses a forced count below it).
 */
export const ARGON2_MIN_ITERATIONS = 4;
/**
 * The least memory cryptsetup's argon2 benchmark settles on, 64 MiB in KiB: "If the memory cost parameter is
 * benchmarked (not specified by a parameter) it is always in range from 64 MiB to 1 GiB" (cryptsetup-luksFormat(8)
 * 2.6.1, "MINIMAL AND MAXIMAL PBKDF COSTS").
 */
const ARGON2_BENCHMARK_MIN_MEMORY_KIB = 65_536;
/**
 * cryptsetup's default and maximum --pbkdf-parallel, 4, "decreased automatically if CPU online count is lower"
 * (cryptsetup-luksFormat(8) 2.6.1, --pbkdf-parallel; init_pbkdf_type in cryptsetup lib/utils_pbkdf.c).
 */
const ARGON2_DEFAULT_PARALLEL = 4;
/**
 * Argon2 memory ≤ a quarter of the unlocking machine's RAM. cryptsetup itself caps at half of physical memory
 * (cryptsetup lib/utils_pbkdf.c, adjusted_phys_memory: "Never use more than half of physical memory"), and that
 * half is what gets luksFormat OOM-killed on 2 GiB machines while an installer runs (agama-project/agama#2907,
 * latchset/clevis#339, ansible-collections/community.crypto#136); an initramfs unlock shares RAM with the boot
 * environment. coreos/coreos-assembler#829 settled on 512 MiB for 2 GiB VMs: a quarter (UNLOCK_RAM_SHARE,
 * flag-definitions.ts).
 *
 * The formatting machine's cap: with --pbkdf-force-iterations cryptsetup skips its benchmark and writes the
 * memory given, except that it never uses more than half of the physical memory of the machine it runs on
 * (cryptsetup lib/utils_pbkdf.c, init_pbkdf_type → adjusted_phys_memory; cryptsetup 2.0.0 release notes "We never
 * try to use more than half of available physical memory"). cryptsetup 2.8.0 no longer limits the Argon2
 * memory "on systems with more than 4GB of available memory" (2.8.0 release notes); there the half is over 2 GiB,
 * above the 1 GiB ceiling, so this cap only binds below 4 GiB, where every version still applies it.
 */
const FORMAT_RAM_SHARE = 0.5;
/**
 * When the unlocking machine's RAM is unknown: 256 MiB, the fixed default omarchy chose so that every
 * install gets the same KDF parameters (omacom/omarchy-iso#96).
 */
const ARGON2_UNKNOWN_RAM_MEMORY_KIB = 262_144;
/**
 * Argon2 memory is rounded down to this grid (KiB): powers of two and their midpoints from 64 MiB (RFC 9106
 * §4 second recommended option) to 1 GiB, so the same RAM always gives the same setting.
 */
const ARGON2_MEMORY_GRID_KIB = [
  65_536, 98_304, 131_072, 196_608, 262_144, 393_216, 524_288, 786_432, 1_048_576,
] as const;

/** `memoryKiB` rounded down to {@link ARGON2_MEMORY_GRID_KIB} (unchanged below its first step). */
function roundArgon2Memory(memoryKiB: number): number {
  const steps = ARGON2_MEMORY_GRID_KIB.filter((step) => step <= memoryKiB);
  return steps.length === 0 ? Math.floor(memoryKiB) : (steps.at(-1) ?? memoryKiB);
}

/**
 * The LUKS2 keyslot KDF the plan emits. The rule always pins iterations (`--pbkdf-force-iterations`), so
 * cryptsetup skips its benchmark and the header gets exactly `memoryKiB` and `parallel` (cryptsetup-luksFormat(8),
 * --pbkdf: "use --pbkdf-force-iterations with --pbkdf-memory and --pbkdf-parallel. This will override the values
 * without benchmarking"). `iterations` null (plans made before this
 * rule pinned them) means "let cryptsetup benchmark to iterTimeMs", and `memoryKiB` is then a cap it may lower.
 */
export const luks2PbkdfSchema = z.object({
  /**
   * The keyslot's KDF (contract 1.x, added): argon2id, or pbkdf2 where GRUB must open the volume
   * (rules/grub-boot.ts). Absent in older plans: argon2id. For pbkdf2, memoryKiB is 0 and parallel 1 (PBKDF2 has
   * no memory or parallel cost: cryptsetup-luksFormat(8), "Memory and parallel costs are unused for PBKDF2").
   */
  kdf: z.enum(['argon2id', 'pbkdf2']).optional(),
  memoryKiB: z.number().int(),
  parallel: z.number().int(),
  iterations: z.number().int().nullable(),
  iterTimeMs: z.number().int().nullable(),
  /** Expected unlock time on the weakest machine, if computable. */
  predictedUnlockMs: z.number().nullable(),
  /**
   * (plan 1.5, added) true when every argon2id benchmark run stopped at cryptsetup's minimum cost: the unlock
   * then takes at least `predictedUnlockMs` (a lower bound) and `iterations` is cryptsetup's minimum, not sized
   * from a measured speed; false when `predictedUnlockMs` is an estimate from measured runs. Absent in older
   * plans and where nothing was predicted.
   */
  predictedUnlockLowerBound: z.boolean().optional(),
});
export type Luks2Pbkdf = Readonly<z.infer<typeof luks2PbkdfSchema>>;

const ARGON2_SOURCE = sourceOf('cryptsetup benchmark', 'argon2id');

/**
 * Whether a `cryptsetup benchmark` argon2id result sits at cryptsetup's minimum cost. Its search lowers the
 * iterations, then the memory, until one run takes the time asked; where even the minimum iterations and memory
 * take longer, it stops there and prints that minimum (cryptsetup lib/crypto_backend/pbkdf_check.c,
 * next_argon2_params: "if (new_m_cost < min_m_cost) { *m_cost = min_m_cost; return FINAL; }", the iteration floor
 * from crypt_pbkdf_get_limits: min_iterations 4). A loaded or slow CPU ends there: the time the printed cost took
 * is then at least the time asked, not equal to it.
 */
function atBenchmarkMinimum(row: { readonly timeCost: number; readonly memoryKiB: number }): boolean {
  return row.timeCost <= ARGON2_MIN_ITERATIONS && row.memoryKiB <= ARGON2_BENCHMARK_MIN_MEMORY_KIB;
}

/**
 * This machine's argon2id cost per KiB·iteration per lane (ms), the median over every argon2id run of
 * `cryptsetup benchmark` the assessment holds, with the first run's figures for the evidence; null when no run
 * has all four numbers. cryptsetup lowers the memory a busy CPU can fill in the time asked, so one run's memory
 * says nothing stable; the time per unit of work is what the iterations follow. A run at cryptsetup's minimum
 * cost ({@link atBenchmarkMinimum}) only bounds the cost from below: it counts only when every run is there, and
 * then `lowerBound` says so.
 */
function argon2idSpeedOf(
  facts: PlanFacts,
  machineCores: number | null,
): {
  msPerKiBIterationLane: number;
  runs: number;
  /** The runs' spread of that cost, (highest − lowest) / median in per cent; null after one run. */
  spreadPercent: number | null;
  /** Every run stopped at cryptsetup's minimum cost: the cost is at least `msPerKiBIterationLane`. */
  lowerBound: boolean;
  first: { timeCost: number; memoryKiB: number; threads: number; targetMs: number };
} | null {
  const all = (facts.cipherBenchmark?.kdfSpeed?.argon2 ?? []).flatMap((row) => {
    const { variant, timeCost, memoryKibibytes, threads, requestedDurationMs } = row ?? {};
    if (
      variant !== 'argon2id' ||
      timeCost === undefined ||
      memoryKibibytes === undefined ||
      threads === undefined ||
      requestedDurationMs === undefined ||
      timeCost <= 0 ||
      memoryKibibytes <= 0 ||
      threads <= 0 ||
      requestedDurationMs <= 0
    ) {
      return [];
    }
    return [{ timeCost, memoryKiB: memoryKibibytes, threads, targetMs: requestedDurationMs }];
  });
  // Runs that met the time asked measure the cost; runs stopped at the minimum only bound it from below.
  const measured = all.filter((row) => !atBenchmarkMinimum(row));
  const rows = measured.length > 0 ? measured : all;
  const first = rows[0];
  if (first === undefined) {
    return null;
  }
  const costs = rows.map((row) => {
    const lanes = Math.min(row.threads, machineCores ?? row.threads);
    return (row.targetMs * lanes) / (row.timeCost * row.memoryKiB);
  });
  const middle = median(costs) ?? 0;
  const spreadPercent =
    costs.length < 2 || middle <= 0
      ? null
      : Math.round(((Math.max(...costs) - Math.min(...costs)) / middle) * 100);
  return {
    msPerKiBIterationLane: middle,
    runs: rows.length,
    spreadPercent,
    lowerBound: measured.length === 0,
    first,
  };
}

/**
 * The Argon2 memory policy: the weakest unlocking machine's RAM share, cryptsetup's default ceiling and the
 * formatting machine's half-RAM cap, rounded to the grid. It reads no benchmark: a busy CPU never changes it.
 */
export function argon2MemoryPolicy(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): { readonly memoryKiB: number; readonly basis: string } {
  const unlockMemoryBytes = options.unlockMachine.memoryBytes ?? facts.machine?.memoryTotalBytes ?? null;
  const formatMemoryBytes = facts.machine?.memoryTotalBytes ?? null;
  const unlockCapKiB =
    unlockMemoryBytes === null
      ? ARGON2_UNKNOWN_RAM_MEMORY_KIB
      : Math.floor((unlockMemoryBytes * UNLOCK_RAM_SHARE) / 1024);
  const formatCapKiB =
    formatMemoryBytes === null ? Infinity : Math.floor((formatMemoryBytes * FORMAT_RAM_SHARE) / 1024);
  const memoryKiB = roundArgon2Memory(Math.min(ARGON2_MAX_MEMORY_KIB, unlockCapKiB, formatCapKiB));
  const unlockBasis =
    unlockMemoryBytes === null
      ? `the unlocking machine's RAM is unknown, so ${String(ARGON2_UNKNOWN_RAM_MEMORY_KIB)} KiB, a safe default`
      : `a quarter of the unlocking machine's ${String(Math.round(unlockMemoryBytes / 2 ** 20))} MiB of RAM (at most 1 GiB), leaving room for the installer or initramfs`;
  const basis =
    formatCapKiB < Math.min(ARGON2_MAX_MEMORY_KIB, unlockCapKiB)
      ? `half of this machine's ${String(Math.round((formatMemoryBytes ?? 0) / 2 ** 20))} MiB of RAM, the most cryptsetup uses where it formats (${unlockBasis} would be more)`
      : unlockBasis;
  return { memoryKiB, basis };
}

/**
 * `luks2-pbkdf`: argon2id with memory from a policy ({@link argon2MemoryPolicy}: the weakest machine that must
 * unlock, cryptsetup's caps), lanes from that machine's cores, and iterations from this machine's measured
 * argon2id speed (median of the runs) for the unlock time, never below cryptsetup's minimum of 4. All three are
 * pinned in the command (--pbkdf-memory, --pbkdf-parallel, --pbkdf-force-iterations), so the header gets what
 * the plan says. Assumes time ∝ iterations × memory / lanes and that the unlocking machine's cores are as fast
 * as this one's (stated in the reason when the machines differ).
 */
export function recommendLuks2Pbkdf(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
): RuleResult & { readonly pbkdf: Luks2Pbkdf } {
  const machineCores = facts.machine?.logicalCores ?? null;
  const unlockMemoryBytes = options.unlockMachine.memoryBytes ?? facts.machine?.memoryTotalBytes ?? null;
  const unlockCores = options.unlockMachine.cores ?? machineCores;
  const otherMachine = options.unlockMachine.memoryBytes !== null || options.unlockMachine.cores !== null;
  const speed = argon2idSpeedOf(facts, machineCores);
  // cryptsetup lowers --pbkdf-parallel to the CPUs online where luksFormat runs (init_pbkdf_type): the lanes
  // are the fewest of 4, the unlocking machine's cores and this machine's.
  const parallel = Math.min(
    ARGON2_DEFAULT_PARALLEL,
    unlockCores ?? ARGON2_DEFAULT_PARALLEL,
    machineCores ?? ARGON2_DEFAULT_PARALLEL,
  );
  const policy = argon2MemoryPolicy(facts, options);
  const memoryKiB = policy.memoryKiB;
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
  const pinned = `The command pins memory, lanes and iterations (--pbkdf-memory, --pbkdf-parallel, --pbkdf-force-iterations), so cryptsetup runs no benchmark of its own and luksDump shows exactly these figures.`;
  if (speed === null) {
    const pbkdf: Luks2Pbkdf = {
      kdf: 'argon2id',
      memoryKiB,
      parallel,
      iterations: ARGON2_MIN_ITERATIONS,
      iterTimeMs: null,
      predictedUnlockMs: null,
    };
    return {
      recommendations: [
        {
          ruleId: 'luks2-pbkdf',
          value: {
            pbkdf: 'argon2id',
            memoryKiB,
            parallel,
            iterations: ARGON2_MIN_ITERATIONS,
            iterTimeMs: null,
          },
          reason: `Fix argon2id at ${String(memoryKiB)} KiB (${policy.basis}), ${String(parallel)} lanes and ${String(ARGON2_MIN_ITERATIONS)} iterations, cryptsetup's minimum. No argon2id speed was measured, so the unlock time is unknown: assess with --benchmark to size the iterations to ${String(options.unlockTimeMs)} ms. ${pinned}`,
          evidence: reasons,
          confidence: 'low',
        },
      ],
      findings: [],
      pbkdf,
    };
  }
  const { first } = speed;
  reasons.push(
    evidence('argon2id benchmark iterations', first.timeCost, ARGON2_SOURCE),
    evidence('argon2id benchmark memory (KiB)', first.memoryKiB, ARGON2_SOURCE),
    evidence('argon2id benchmark threads', first.threads, ARGON2_SOURCE),
    evidence('argon2id benchmark target (ms)', first.targetMs, ARGON2_SOURCE),
    evidence('argon2id benchmark runs', speed.runs, ARGON2_SOURCE),
    evidence('argon2id benchmark stopped at the minimum cost', speed.lowerBound, ARGON2_SOURCE),
  );
  const unlockLanes = Math.min(parallel, unlockCores ?? parallel);
  const timed = Math.floor((options.unlockTimeMs * unlockLanes) / (speed.msPerKiBIterationLane * memoryKiB));
  // A cost that is only a lower bound cannot size iterations (more iterations could take far longer than the
  // time asked): cryptsetup's minimum, with the unlock time stated as "at least".
  const iterations = speed.lowerBound ? ARGON2_MIN_ITERATIONS : Math.max(ARGON2_MIN_ITERATIONS, timed);
  const predictedUnlockMs = Math.round((iterations * memoryKiB * speed.msPerKiBIterationLane) / unlockLanes);
  const pbkdf: Luks2Pbkdf = {
    kdf: 'argon2id',
    memoryKiB,
    parallel,
    iterations,
    iterTimeMs: null,
    predictedUnlockMs,
    predictedUnlockLowerBound: speed.lowerBound,
  };
  const assumption = otherMachine
    ? " It assumes the unlocking machine's cores are as fast as this one's; format there if they are slower."
    : '';
  const slow =
    !speed.lowerBound && timed < ARGON2_MIN_ITERATIONS
      ? ` Even cryptsetup's minimum of ${String(ARGON2_MIN_ITERATIONS)} iterations at this memory takes about ${String(predictedUnlockMs)} ms here, more than the ${String(options.unlockTimeMs)} ms asked: the memory stays (it comes from the unlocking machine's RAM, not from this CPU's speed); give --unlock-memory a smaller size to unlock faster.`
      : '';
  const timing = speed.lowerBound
    ? `${String(iterations)} iterations, cryptsetup's minimum (at least ${String(predictedUnlockMs)} ms per unlock: every one of the ${String(speed.runs)} argon2id benchmark run(s) stopped at cryptsetup's minimum cost, ${String(ARGON2_MIN_ITERATIONS)} iterations and ${String(ARGON2_BENCHMARK_MIN_MEMORY_KIB)} KiB, without reaching the ${String(first.targetMs)} ms asked, so this CPU's speed is only a bound and the iterations are not sized from a measurement; assess again while the CPU is idle to size them)`
    : `${String(iterations)} iterations (about ${String(predictedUnlockMs)} ms per unlock, from the median of ${String(speed.runs)} argon2id benchmark run(s)${speed.spreadPercent === null ? '' : `, whose cost per KiB spread ${String(speed.spreadPercent)} %`})`;
  const recommendation: Recommendation = {
    ruleId: 'luks2-pbkdf',
    value: { pbkdf: 'argon2id', memoryKiB, parallel, iterations, iterTimeMs: null },
    reason: `Fix argon2id at ${String(memoryKiB)} KiB (${policy.basis}), ${String(parallel)} lanes and ${timing} so the weakest machine that must unlock gets no boot-time out-of-memory, whatever a faster or busier formatting machine would pick. ${pinned}${slow}${assumption}`,
    evidence: reasons,
    confidence: otherMachine || speed.lowerBound ? 'medium' : 'high',
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
/**
 * How a PBKDF2 figure was measured when its hash ran more than once: the median of the runs, with the lowest and
 * highest (issue 24 item 4); empty after one run.
 */
function pbkdf2RunsNote(
  row: { readonly iterationsPerSecondSamples?: readonly number[] | undefined } | undefined,
): string {
  const samples = row?.iterationsPerSecondSamples ?? [];
  return samples.length < 2
    ? ''
    : `, the median of ${String(samples.length)} runs, ${String(Math.min(...samples))}–${String(Math.max(...samples))} iterations/s`;
}

/** A candidate's advantage range relative to the chosen hash's, e.g. "0.95–1.10× over 3 runs". */
function spreadText(range: MeasuredRange, reference: number): string {
  return `${(range.low / reference).toFixed(2)}–${(range.high / reference).toFixed(2)}× over its runs`;
}

/**
 * PBKDF2 iterations per second for a `keyBytes` key from a benchmark that derived `benchKeyBytes`: the cost
 * scales with the number of output blocks, ceil(key / hash output) (RFC 8018 §5.2).
 */
function pbkdf2RateForKey(
  measured: number,
  benchKeyBytes: number,
  keyBytes: number,
  hash: Pbkdf2Hash,
): number {
  const outputBytes = HASH_OUTPUT_BYTES[hash];
  return (measured * Math.ceil(benchKeyBytes / outputBytes)) / Math.ceil(keyBytes / outputBytes);
}
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
    const iterationsPerSecond = pbkdf2RateForKey(measured, benchKeyBytes, keyBytes, hash);
    // Attacker seconds per defender second ∝ defender iterations/s ÷ GPU iterations/s (dosoos/hashcat_speeds (hashcat -b outputs) derived ratio).
    const advantage = iterationsPerSecond / (gpu.guessesPerSecond * gpu.iterations);
    // The advantage over the repeated runs: every run scales the same way (issue 24 item 4).
    const runs = rangeOfRuns(row?.iterationsPerSecondSamples ?? []) ?? {
      value: measured,
      low: measured,
      high: measured,
      spreadKnown: false,
    };
    const advantageRange: MeasuredRange = { ...scaleRange(runs, advantage / measured), value: advantage };
    return [{ hash, iterationsPerSecond, advantage, advantageRange, speed, runs: pbkdf2RunsNote(row) }];
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
  // VeraCrypt's default PRF, SHA-512 (VeraCrypt documentation, "Header Key Derivation, Salt, and Iteration
  // Count"), stays unless another hash gives the attacker more work beyond the spread of the repeated runs of
  // both (issue 24 item 4); figures from single runs decide between themselves as before.
  const ordered = [...candidates].sort((a, b) => Number(b.hash === 'sha512') - Number(a.hash === 'sha512'));
  const best = ordered.reduce<(typeof candidates)[number] | null>(
    (top, c) =>
      top === null || leadsBeyondSpread(c.advantageRange, top.advantageRange, 'compare-figures') ? c : top,
    null,
  );
  const insideSpread = candidates.filter((c) => best !== null && c !== best && c.advantage > best.advantage);
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
    .map(
      (c) =>
        `${c.hash} ${(best.advantage / c.advantage).toFixed(1)}×${
          // The lead with its spread: slowest run of the chosen hash over the fastest of the other, and back.
          best.advantageRange.spreadKnown && c.advantageRange.spreadKnown
            ? ` (${(best.advantageRange.low / c.advantageRange.high).toFixed(1)}–${(best.advantageRange.high / c.advantageRange.low).toFixed(1)}× over their runs)`
            : ''
        }`,
    )
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
        reason:
          insideSpread.length === 0
            ? `Per second of your unlock wait, ${best.hash} gives a GPU attacker the most work of the measured hashes (more than ${others === '' ? 'no alternative measured' : others}), from this CPU's PBKDF2 speed against hashcat's RTX 4090 rates.`
            : `Keep ${best.hash}: ${insideSpread.map((c) => `${c.hash} measured ${(c.advantage / best.advantage).toFixed(2)}× its work per second of unlock wait (${spreadText(c.advantageRange, best.advantage)})`).join(', ')}, a lead inside the spread of the repeated runs, so it decides nothing; from this CPU's PBKDF2 speed against hashcat's RTX 4090 rates.`,
        evidence: reasons,
        confidence: 'medium',
      },
      {
        ruleId: 'veracrypt-pim',
        value: pim,
        reason: `PIM ${String(pim)} (${String(iterations)} iterations) takes about ${String(predictedUnlockMs)} ms to unlock on this machine with --hash ${best.hash}${floorNote}${best.runs === '' ? '' : ` (${best.hash}${best.runs})`}.`,
        evidence: reasons,
        confidence: 'high',
      },
    ],
    findings: [],
    kdf,
  };
}

/**
 * cryptsetup's PBKDF2 minimum, 1000 iterations: "For PBKDF2, the minimum iteration count is 1000"
 * (cryptsetup-luksFormat(8) 2.6.1, "MINIMAL AND MAXIMAL PBKDF COSTS").
 */
const PBKDF2_MIN_ITERATIONS = 1000;

/**
 * The PBKDF2 keyslot GRUB can open (rules/grub-boot.ts): PBKDF2-sha256 (cryptsetup's LUKS2 default --hash,
 * cryptsetup-luksFormat(8)), iterations from this machine's measured `cryptsetup benchmark` PBKDF2-sha256 speed
 * for the unlock time, as cryptsetup's --iter-time does ("The number of milliseconds to spend with PBKDF
 * passphrase processing", cryptsetup-luksFormat(8)), for a derived key of the volume key's size (a LUKS2 keyslot
 * derives a key of the volume key's length when its cipher suits the keyslot area: cryptsetup
 * lib/luks2/luks2_keyslot_luks2.c). Pinned with --pbkdf-force-iterations, as the argon2id case pins its
 * figures; unmeasured, the command leaves the timing to cryptsetup (--iter-time) and the iterations are null.
 */
export function recommendGrubPbkdf2(
  facts: PlanFacts,
  options: ResolvedPlanOptions,
  keyBits: number,
): RuleResult & { readonly pbkdf: Luks2Pbkdf } {
  const row = (facts.cipherBenchmark?.kdfSpeed?.pbkdf2 ?? []).find(
    (candidate) => candidate.hash?.replace(/-\d+$/, '') === 'sha256',
  );
  const measured = row?.iterationsPerSecond;
  const why =
    'GRUB opens a LUKS2 volume only through a PBKDF2 keyslot ("For LUKS2 only the PBKDF2 key derivation function is supported, as Argon2 is not yet supported", GNU GRUB manual, cryptomount), and /boot lies on this volume';
  const source = sourceOf('cryptsetup benchmark', 'PBKDF2-sha256');
  if (measured === undefined || measured === null || measured <= 0) {
    const pbkdf: Luks2Pbkdf = {
      kdf: 'pbkdf2',
      memoryKiB: 0,
      parallel: 1,
      iterations: null,
      iterTimeMs: options.unlockTimeMs,
      predictedUnlockMs: null,
    };
    return {
      recommendations: [
        {
          ruleId: 'luks2-pbkdf',
          value: {
            pbkdf: 'pbkdf2',
            memoryKiB: 0,
            parallel: 1,
            iterations: null,
            iterTimeMs: options.unlockTimeMs,
          },
          reason: `Use PBKDF2-sha256 for the keyslot, not argon2id: ${why}. No PBKDF2 speed was measured, so cryptsetup times the iterations itself (--iter-time ${String(options.unlockTimeMs)}); assess with --benchmark to pin them.`,
          evidence: [
            evidence(
              'options.unlockTimeMs',
              options.unlockTimeMs,
              sourceOf('encplan', 'options.unlockTimeMs'),
            ),
            evidence('PBKDF2-sha256 iterations per second', null, source),
          ],
          confidence: 'medium',
        },
      ],
      findings: [],
      pbkdf,
    };
  }
  const benchKeyBytes = (row?.derivedKeyBits ?? CRYPTSETUP_BENCH_KEY_BYTES * 8) / 8;
  const perSecond = pbkdf2RateForKey(measured, benchKeyBytes, keyBits / 8, 'sha256');
  const iterations = Math.max(PBKDF2_MIN_ITERATIONS, Math.floor((perSecond * options.unlockTimeMs) / 1000));
  const predictedUnlockMs = Math.round((iterations / perSecond) * 1000);
  const pbkdf: Luks2Pbkdf = {
    kdf: 'pbkdf2',
    memoryKiB: 0,
    parallel: 1,
    iterations,
    iterTimeMs: null,
    predictedUnlockMs,
  };
  return {
    recommendations: [
      {
        ruleId: 'luks2-pbkdf',
        value: { pbkdf: 'pbkdf2', memoryKiB: 0, parallel: 1, iterations, iterTimeMs: null },
        reason: `Use PBKDF2-sha256 for the keyslot, not argon2id: ${why}. ${String(iterations)} iterations take about ${String(predictedUnlockMs)} ms here (measured ${String(Math.round(measured))} iterations/s${pbkdf2RunsNote(row)} for a ${String(benchKeyBytes * 8)}-bit key, scaled to the ${String(keyBits)}-bit volume key), pinned with --pbkdf-force-iterations so the header gets exactly this count.`,
        evidence: [
          evidence('options.unlockTimeMs', options.unlockTimeMs, sourceOf('encplan', 'options.unlockTimeMs')),
          evidence('PBKDF2-sha256 iterations per second', measured, source),
        ],
        confidence: 'high',
      },
    ],
    findings: [],
    pbkdf,
  };
}
