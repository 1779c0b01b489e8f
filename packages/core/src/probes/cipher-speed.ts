import type { CipherSpeedFacts, KernelCryptoFacts, UnmeasuredCipher } from '../domain/cipher.js';
import type { KdfSpeedFacts } from '../domain/kdf.js';
import { parseCryptsetupBenchmark } from '../parsers/cryptsetup-benchmark/parse-cryptsetup-benchmark.js';
import {
  cipherFactsFromCryptsetup,
  kdfFactsFromCryptsetup,
  type CryptsetupBenchmarkRun,
} from '../parsers/cryptsetup-benchmark/cryptsetup-benchmark-facts.js';
import { parseOpensslSpeed } from '../parsers/openssl-speed/parse-openssl-speed.js';
import {
  cipherMeasurementsFromOpenssl,
  type OpensslCipherName,
  type OpensslSpeedRun,
} from '../parsers/openssl-speed/openssl-speed-facts.js';
import { addWarning, attempt, tryRun, type ProbeContext } from './probe-context.js';
import type { CommandOutput } from '../ports.js';
import { RUN_DIRECTLY, type PhaseRunner, type PlannedPhase } from './phase-schedule.js';
import {
  CURRENT_QUICK_REVISION,
  FULL_ARGON2_RUNS,
  FULL_OPENSSL_KEY_SIZE_SAMPLES,
  FULL_PBKDF2_RUNS,
  QUICK_CUTS,
  type QuickCuts,
  type QuickRevision,
} from '../domain/benchmark-settings.js';

/** Options of the cipher and KDF probes (cancellation comes with the probe context's signal). */
export interface SpeedProbeOptions {
  /** Short runs (openssl 1 s per figure, decryption only where the quick revision says) for `--quick`. */
  readonly quick?: boolean;
  /** Processes for the all-cores figures (logical CPUs); 1 when absent. */
  readonly logicalCpuCount?: number;
  /** Called before each tool run with a short description, for progress output. */
  readonly onProgress?: (step: string) => void;
  /** Which quick mode to run (a bundle replays the one it was collected with); the current one when absent. */
  readonly quickRevision?: QuickRevision;
  /** Runs each tool call as a planned phase, one at a time, with progress; directly when absent. */
  readonly phases?: PhaseRunner;
  /**
   * The kernel's crypto drivers (/proc/crypto) when read: quick revision ≥ 5 leaves out the OpenSSL AES runs
   * the plan cannot use ({@link opensslAesReachesPlan}); null or absent: not Linux or not read, every run.
   */
  readonly kernelCrypto?: KernelCryptoFacts | null;
}

/** A speed run that exited non-zero: a warning quoting its first stderr line. */
/** A tool's output parsed; a parser error becomes the usual probe warning (null). */
function parseOutput<T>(
  context: ProbeContext,
  tool: 'cryptsetup' | 'openssl',
  purpose: string,
  parse: () => T,
): Promise<T | null> {
  return attempt(context, tool, purpose, () => Promise.resolve(parse()));
}

function warnFailed(
  context: ProbeContext,
  tool: 'cryptsetup' | 'openssl',
  args: string[],
  stderr: string,
): void {
  addWarning(context, {
    code: 'TOOL_FAILED',
    message: `${tool} ${args.join(' ')} failed: ${firstLineOf(stderr)}`,
    source: tool,
  });
}

/** One tool run of a speed probe, known before anything runs so the phases can be planned. */
interface SpeedStep extends PlannedPhase {
  readonly args: string[];
  readonly label: string;
}

function quickCutsOf(options: SpeedProbeOptions): QuickCuts | null {
  return options.quick === true ? QUICK_CUTS[options.quickRevision ?? CURRENT_QUICK_REVISION] : null;
}

/** A cryptsetup cipher benchmark runs each direction for about a second, plus start-up (cryptsetup(8) BENCHMARK). */
const CRYPTSETUP_CIPHER_EXPECTED_MS = 2500;
/** PBKDF2 benchmarks aim at about one second each (cryptsetup(8) BENCHMARK). */
const PBKDF2_EXPECTED_MS = 1200;
/** Start-up and fork/join of one `openssl speed` beyond its measuring time, on a 2-core VM (measured: 1.03–1.17 s for 1 s runs). */
const OPENSSL_OVERHEAD_MS = 150;

/** cryptsetup benchmark runs: `-s 512` is what luksFormat uses, Adiantum is not in the default list (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c). */
const CRYPTSETUP_CIPHERS: readonly (readonly [string, string])[] = [
  ['aes-xts', '512'],
  ['aes-xts', '256'],
  ['xchacha12,aes-adiantum-plain64', '256'],
  ['xchacha20,aes-adiantum-plain64', '256'],
];
/** Full mode adds what only the kernel can measure (OpenSSL has neither Serpent nor Twofish). */
const CRYPTSETUP_CIPHERS_FULL: readonly (readonly [string, string])[] = [
  ['serpent-xts', '512'],
  ['twofish-xts', '512'],
];
// cryptsetup's message when AF_ALG skcipher is missing (src/cryptsetup.c, action_benchmark; captured in
// fixtures/cryptsetup-benchmark/linux-no-af-alg-debian12-aes-xts-512/stderr).
const NO_KERNEL_INTERFACE = 'Required kernel crypto interface not available';
const NO_AF_ALG_WARNING = {
  code: 'KERNEL_FEATURE_MISSING',
  message:
    "cryptsetup cannot reach the kernel's skcipher interface (AF_ALG: algif_skcipher, CONFIG_CRYPTO_USER_API_SKCIPHER), " +
    'so kernel cipher speed is not measurable here; OpenSSL figures are shown instead.',
  source: 'cryptsetup',
} as const;
const CIPHER_NOT_AVAILABLE = /Cipher (\S+) \(with (\d+) bits key\) is not available/;
/** The tool a speed step runs, its time limit and what a failure warning says it was doing. */
interface StepRun {
  readonly tool: 'cryptsetup' | 'openssl';
  /** The step's deadline, from the work it does (docs/benchmarks-io.md "Deadlines"). */
  readonly deadlineMs: (step: SpeedStep) => number;
  readonly purpose: string;
  /** What a warning about unreadable output says it was doing. */
  readonly reading: string;
}

/**
 * A cryptsetup step's deadline follows its work: {@link DEADLINE_FACTOR} times its expected time plus
 * {@link START_ALLOWANCE_MS} (docs/benchmarks-io.md "Deadlines"). cryptsetup measures for a fixed time, not a
 * fixed amount of data (cryptsetup(8) BENCHMARK: about a second per cipher direction; argon2id searches for the
 * --iter-time asked), so a slow CPU lengthens a step little; a step this far past its time is hung.
 */
const DEADLINE_FACTOR = 8;
/** Start-up of a cold cryptsetup (libraries, the kernel crypto API's first allocation) on a loaded machine. */
const START_ALLOWANCE_MS = 10_000;

/** The deadline of a cryptsetup speed step: 30 s for a cipher, 19.6 s for PBKDF2, 50 s for argon2id at 2000 ms. */
function cryptsetupStepDeadlineMs(step: SpeedStep): number {
  return DEADLINE_FACTOR * step.expectedMs + START_ALLOWANCE_MS;
}

/** A cipher benchmark runs ≥ 1 s per direction (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c). */
const CRYPTSETUP_CIPHER_RUN: StepRun = {
  tool: 'cryptsetup',
  deadlineMs: cryptsetupStepDeadlineMs,
  purpose: 'Measuring kernel cipher speed',
  reading: 'Reading kernel cipher speed',
};
/** 4096-byte messages: the sector size dm-crypt should use and fscrypt's block size (Eric Biggers, "x86: AES-XTS with VAES/AVX10" cover letter, linux-crypto 2024; systemd/systemd#24382; cryptsetup 2.4.0 release notes). */
const OPENSSL_MESSAGE_BYTES = 4096;
const OPENSSL_EVPS: readonly OpensslCipherName[] = ['aes-128-xts', 'aes-256-xts', 'chacha20'];

function displayCipher(cipher: string): string {
  // cryptsetup prints the cipher without its IV mode: "xchacha12,aes-adiantum-plain64" → "xchacha12,aes-adiantum".
  return cipher.replace(/-plain64$/, '');
}

/** The parsed stdout of a run that exited 0; a failed run is a TOOL_FAILED warning and null, like unreadable output. */
function parseSucceeded<T>(
  context: ProbeContext,
  run: StepRun,
  step: SpeedStep,
  output: CommandOutput,
  parse: (stdout: string) => T,
): Promise<T | null> {
  if (output.exitCode !== 0) {
    warnFailed(context, run.tool, step.args, output.stderr);
    return Promise.resolve(null);
  }
  return parseOutput(context, run.tool, run.reading, () => parse(output.stdout));
}

/** The first line of a tool's stderr, for warnings. */
function firstLineOf(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '(no message)'
  );
}

function cryptsetupCipherSteps(options: SpeedProbeOptions): SpeedStep[] {
  const list =
    options.quick === true ? CRYPTSETUP_CIPHERS : [...CRYPTSETUP_CIPHERS, ...CRYPTSETUP_CIPHERS_FULL];
  return list.map(([cipher, keyBits]) => ({
    id: `cipher:cryptsetup:${cipher}:${keyBits}`,
    resource: 'cpu',
    expectedMs: CRYPTSETUP_CIPHER_EXPECTED_MS,
    args: ['benchmark', '-c', cipher, '-s', keyBits],
    label: `cryptsetup benchmark ${cipher} ${keyBits}b`,
  }));
}

/** Runs one planned tool call of a speed probe as its phase. */
function runStep(context: ProbeContext, options: SpeedProbeOptions, step: SpeedStep, spec: StepRun) {
  options.onProgress?.(step.label);
  return (options.phases ?? RUN_DIRECTLY).run(step.id, step.label, () =>
    tryRun(
      context,
      {
        tool: spec.tool,
        args: step.args,
        timeoutMs: spec.deadlineMs(step),
      },
      spec.purpose,
    ),
  );
}

async function measureWithCryptsetup(context: ProbeContext, options: SpeedProbeOptions) {
  const runs: CryptsetupBenchmarkRun[] = [];
  const unmeasured: UnmeasuredCipher[] = [];
  let available: boolean | null = null;
  for (const step of cryptsetupCipherSteps(options)) {
    const { args } = step;
    const output = await runStep(context, options, step, CRYPTSETUP_CIPHER_RUN);
    if (output === null) {
      break;
    }
    if (output.stderr.includes(NO_KERNEL_INTERFACE)) {
      available = false;
      addWarning(context, NO_AF_ALG_WARNING);
      break;
    }
    const missing = CIPHER_NOT_AVAILABLE.exec(output.stderr);
    if (output.exitCode !== 0 && missing) {
      available = true;
      unmeasured.push({
        cipher: displayCipher(missing[1]!),
        keyBits: Number(missing[2]),
        source: 'cryptsetup',
        reason: `The kernel lacks this cipher: cryptsetup said "${missing[0]}."`,
      });
      continue;
    }
    const benchmark = await parseSucceeded(
      context,
      CRYPTSETUP_CIPHER_RUN,
      step,
      output,
      parseCryptsetupBenchmark,
    );
    if (benchmark?.cipherTestUnavailable === true) {
      // Older cryptsetup prints "# Cipher speed test is not available." with N/A rows instead (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c).
      available = false;
      addWarning(context, NO_AF_ALG_WARNING);
      break;
    }
    if (benchmark !== null) {
      available = true;
      runs.push({ argv: ['cryptsetup', ...args], benchmark });
    }
  }
  options.phases?.skip('cipher:cryptsetup:');
  const facts = cipherFactsFromCryptsetup(runs);
  return { ...facts, unmeasured: [...facts.unmeasured, ...unmeasured], available };
}

/** The ciphers whose one-core encryption runs in interleaved pairs: AES-128's gain is their ratio. */
const KEY_SIZE_PAIR: readonly OpensslCipherName[] = ['aes-128-xts', 'aes-256-xts'];

/** One `openssl speed` run of the probe: which cipher, direction and processes, and which sample of it. */
type OpensslStep = SpeedStep & {
  evp: OpensslCipherName;
  decrypt: boolean;
  processes: number;
  sample: number;
  /** Part of the interleaved aes-128/256-xts one-core pairs. */
  pair: boolean;
};

/**
 * Whether an OpenSSL AES figure can reach the plan: not on Linux when /proc/crypto shows that the kernel's
 * xts(aes) driver is generic or unknown, since dm-crypt and fscrypt then never run the CPU's AES instructions
 * OpenSSL uses (the rule that admits evidence, rules/cipher-speed.ts opensslAdmissible, refuses them; issue 24
 * item 1). No /proc/crypto read (off Linux): OpenSSL may stand for the OS's own encryption, so it runs.
 */
function opensslAesReachesPlan(options: SpeedProbeOptions): boolean {
  const kernel = options.kernelCrypto ?? null;
  return kernel === null || kernel.xtsAesImplementation === 'cpu-instructions';
}

/** The one AES run kept where OpenSSL's AES cannot reach the plan: one core, aes-256-xts (the finding quotes it). */
function quotedAesRun(step: OpensslStep): boolean {
  return step.evp === 'aes-256-xts' && !step.decrypt && step.processes === 1 && step.sample === 1;
}

function opensslSteps(options: SpeedProbeOptions): OpensslStep[] {
  const cpus = Math.max(1, options.logicalCpuCount ?? 1);
  // 1 s per figure keeps --quick inside its budget for a whole assessment; 3 s steadies full runs.
  const seconds = options.quick === true ? 1 : 3;
  const cuts = quickCutsOf(options);
  const allCores = cuts?.opensslAllCoresEvps ?? null;
  const samples = cuts?.opensslKeySizeSamples ?? FULL_OPENSSL_KEY_SIZE_SAMPLES;
  // Quick mode measures decryption only for the ciphers its revision names, on one core (reads are predicted
  // from it: `openssl speed -decrypt`, openssl-speed(1)).
  const directions = (evp: OpensslCipherName) =>
    cuts === null ? [false, true] : cuts.opensslDecryptEvps.includes(evp) ? [false, true] : [false];
  const step = (evp: OpensslCipherName, decrypt: boolean, processes: number, sample: number): OpensslStep => {
    // -mr: machine-readable bytes/s; -elapsed: wall-clock time, not CPU time (honest on a busy or virtual CPU).
    const args = [
      'speed',
      '-mr',
      '-elapsed',
      '-evp',
      evp,
      '-seconds',
      String(seconds),
      '-bytes',
      String(OPENSSL_MESSAGE_BYTES),
      ...(decrypt ? ['-decrypt'] : []),
      ...(processes > 1 ? ['-multi', String(processes)] : []),
    ];
    const repeated = sample > 1 ? `, run ${String(sample)} of ${String(samples)}` : '';
    return {
      id: `cipher:openssl:${evp}:${decrypt ? 'decrypt' : 'encrypt'}:${String(processes)}${sample > 1 ? `:${String(sample)}` : ''}`,
      resource: 'cpu' as const,
      expectedMs: seconds * 1000 + OPENSSL_OVERHEAD_MS,
      args,
      label: `openssl speed ${evp}${decrypt ? ' decrypt' : ''} on ${String(processes)} core(s)${repeated}`,
      evp,
      decrypt,
      processes,
      sample,
      pair: false,
    };
  };
  // AES-128's gain over AES-256 is a ratio of two one-core runs: run them in interleaved pairs so a busy
  // moment slows both sides of a pair alike, and the pairs give a median and a spread (issue 24 item 4).
  // One sample each (quick revisions 1–3) keeps the order those revisions ran in.
  const paired = samples > 1;
  const pairs = paired
    ? Array.from({ length: samples }, (_, index) =>
        KEY_SIZE_PAIR.map((evp) => ({ ...step(evp, false, 1, index + 1), pair: true })),
      ).flat()
    : [];
  const rest = OPENSSL_EVPS.flatMap((evp) =>
    directions(evp).flatMap((decrypt) =>
      (cpus > 1 && (allCores === null || allCores.includes(evp)) && (cuts === null || !decrypt)
        ? [1, cpus]
        : [1]
      )
        .filter((processes) => !paired || decrypt || processes > 1 || !KEY_SIZE_PAIR.includes(evp))
        .map((processes) => step(evp, decrypt, processes, 1)),
    ),
  );
  const all = [...pairs, ...rest];
  return cuts?.opensslAesOnlyWhereUsed === true && !opensslAesReachesPlan(options)
    ? all.filter((candidate) => !candidate.evp.startsWith('aes-') || quotedAesRun(candidate))
    : all;
}

/** Whether cryptsetup measured aes-xts at both key sizes, both directions: the kernel's own figures for the key-size advice. */
function kernelMeasuredKeySizes(kernel: Pick<CipherSpeedFacts, 'measurements'>): boolean {
  return [256, 512].every((keyBits) =>
    kernel.measurements.some(
      (row) =>
        row.source === 'cryptsetup' &&
        row.cipher === 'aes-xts' &&
        row.keyBits === keyBits &&
        row.encryptBytesPerSecond !== null &&
        row.decryptBytesPerSecond !== null,
    ),
  );
}

async function measureWithOpenssl(
  context: ProbeContext,
  options: SpeedProbeOptions,
  kernel: Pick<CipherSpeedFacts, 'measurements'>,
) {
  const runs: OpensslSpeedRun[] = [];
  // The kernel's figures for both key sizes outrank OpenSSL's pairs (rules/cipher-speed.ts evidence ranks), so
  // revision 5 keeps only the pairs' first aes-256-xts run then.
  const pairsUnused =
    quickCutsOf(options)?.opensslAesOnlyWhereUsed === true && kernelMeasuredKeySizes(kernel);
  for (const step of opensslSteps(options)) {
    if (pairsUnused && step.pair && !quotedAesRun(step)) {
      options.phases?.skip(step.id);
      continue;
    }
    const { args, evp, decrypt, processes } = step;
    // OpenSSL runs each figure for its seconds, then forks/joins; 30 s covers start-up on a loaded machine.
    const run: StepRun = {
      tool: 'openssl',
      deadlineMs: () => step.expectedMs - OPENSSL_OVERHEAD_MS + 30_000,
      purpose: 'Measuring userspace cipher speed',
      reading: 'Reading userspace cipher speed',
    };
    const output = await runStep(context, options, step, run);
    if (output === null) {
      options.phases?.skip('cipher:openssl:');
      break;
    }
    const speed = await parseSucceeded(context, run, step, output, parseOpensslSpeed);
    if (speed !== null) {
      runs.push({
        evp,
        decrypt,
        processes,
        messageBytes: OPENSSL_MESSAGE_BYTES,
        argv: ['openssl', ...args],
        speed,
      });
    }
  }
  return cipherMeasurementsFromOpenssl(runs);
}

/**
 * Measures cipher speed: kernel ciphers with `cryptsetup benchmark` (aes-xts 512/256, Adiantum XChaCha12/20; Serpent
 * and Twofish too in full mode), then userspace OpenSSL on one core and on all cores (aes-128-xts, aes-256-xts,
 * chacha20). A missing tool or kernel interface becomes a warning; only cancellation throws (CANCELLED).
 */
export async function probeCipherSpeed(
  context: ProbeContext,
  options: SpeedProbeOptions = {},
): Promise<CipherSpeedFacts> {
  const kernel = await measureWithCryptsetup(context, options);
  const openssl = await measureWithOpenssl(context, options, kernel);
  const measured = new Set(kernel.measurements.map((m) => m.cipher));
  const unmeasured = [...kernel.unmeasured];
  for (const cipher of ['serpent-xts', 'twofish-xts']) {
    if (!measured.has(cipher)) {
      unmeasured.push({
        cipher,
        keyBits: null,
        source: 'openssl',
        reason: 'OpenSSL has no Serpent or Twofish; only cryptsetup (kernel crypto) can measure them.',
      });
    }
  }
  if (![...measured].some((cipher) => cipher.includes('adiantum'))) {
    unmeasured.push({
      cipher: 'xchacha12,aes-adiantum',
      keyBits: 256,
      source: 'openssl',
      reason:
        'OpenSSL has no Adiantum; its chacha20 figure is the closest userspace proxy (Adiantum is XChaCha12/20 plus one AES block per sector).',
    });
  }
  return {
    measurements: [...kernel.measurements, ...openssl],
    unmeasured,
    kernelCipherBenchmarkAvailable: kernel.available,
  };
}

/** PBKDF2 hashes measured: VeraCrypt's SHA-512, Whirlpool, SHA-256, BLAKE2s, Streebog (VeraCrypt documentation: "Personal Iterations Multiplier (PIM)", "Command Line Usage", "Cascades"; cryptsetup lib/tcrypt/tcrypt.c); LUKS1 uses sha256. */
const PBKDF2_HASHES = ['sha256', 'sha512', 'whirlpool', 'blake2s-256', 'streebog512'] as const;
/** PBKDF2 benchmarks aim at ~1 s each, argon2id at the 2000 ms LUKS2 default (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c; cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc). */
const KDF_RUN: StepRun = {
  tool: 'cryptsetup',
  deadlineMs: cryptsetupStepDeadlineMs,
  purpose: 'Measuring key-derivation speed',
  reading: 'Reading key-derivation speed',
};

function kdfSteps(options: SpeedProbeOptions): SpeedStep[] {
  const cuts = quickCutsOf(options);
  const hashes = PBKDF2_HASHES.filter((hash) => cuts?.pbkdf2Hashes?.includes(hash) ?? true);
  const argon2Ms = cuts?.argon2IterTimeMs ?? null;
  // Repeated hashes run in rounds (full mode: sha256, sha512, whirlpool, …, sha256, sha512, …) so a busy moment does not
  // slow every run of one hash; the facts keep each run and the iterations follow their median (issue 24 item 4).
  const runsOf = (hash: string): number =>
    cuts === null
      ? FULL_PBKDF2_RUNS
      : (cuts.pbkdf2RepeatedHashes?.includes(hash) ?? true)
        ? cuts.pbkdf2Runs
        : cuts.pbkdf2OtherRuns;
  const rounds = Math.max(1, ...hashes.map(runsOf));
  const steps = Array.from({ length: rounds }, (_, index) => index + 1).flatMap((round) =>
    hashes
      .filter((hash) => runsOf(hash) >= round)
      .map((hash): SpeedStep => ({
        id: `kdf:pbkdf2:${hash}${round === 1 ? '' : `:${String(round)}`}`,
        resource: 'cpu',
        expectedMs: PBKDF2_EXPECTED_MS,
        args: ['benchmark', '--pbkdf', 'pbkdf2', '--hash', hash],
        label: `cryptsetup benchmark --pbkdf pbkdf2 --hash ${hash}${runsOf(hash) > 1 ? ` (run ${String(round)} of ${String(runsOf(hash))})` : ''}`,
      })),
  );
  const argon2Args = [
    'benchmark',
    '--pbkdf',
    'argon2id',
    ...(argon2Ms === null ? [] : ['--iter-time', String(argon2Ms)]),
  ];
  // Full mode runs argon2id three times: the key-derivation rule sets the iterations from the median cost of
  // the runs, so one run slowed by other work does not move them (issue 24 item 4). Quick mode runs it as its
  // revision says (once before revision 6).
  const runs = cuts === null ? FULL_ARGON2_RUNS : cuts.argon2Runs;
  return [
    ...steps,
    ...Array.from({ length: runs }, (_, index): SpeedStep => ({
      id: `kdf:argon2id${index === 0 ? '' : `:${String(index + 1)}`}`,
      resource: 'cpu',
      // Its search for parameters runs the hash several times: about twice the requested time, plus start-up.
      expectedMs: 2 * (argon2Ms ?? ARGON2_DEFAULT_ITER_TIME_MS) + 1000,
      args: argon2Args,
      label: `cryptsetup ${argon2Args.slice(1).join(' ')}${runs > 1 ? ` (run ${String(index + 1)} of ${String(runs)})` : ''}`,
    })),
  ];
}

/** How often quick mode runs each PBKDF2 hash, in words (empty for one run each). */
function pbkdf2RunsInWords(cuts: QuickCuts): string {
  if (cuts.pbkdf2Runs <= 1) {
    return `, one run each instead of ${String(FULL_PBKDF2_RUNS)}`;
  }
  const repeated = cuts.pbkdf2RepeatedHashes;
  return repeated === null
    ? `, ${String(cuts.pbkdf2Runs)} runs each (median)`
    : `; ${repeated.join(', ')}: ${String(cuts.pbkdf2Runs)} interleaved runs each (median), the others ${cuts.pbkdf2OtherRuns > 1 ? `${String(cuts.pbkdf2OtherRuns)} interleaved runs each (median)` : 'one run'} instead of ${String(FULL_PBKDF2_RUNS)}`;
}

/** The argon2id time cryptsetup's benchmark asks for by default (cryptsetup(8) BENCHMARK; meson_options.txt). */
const ARGON2_DEFAULT_ITER_TIME_MS = 2000;

/** What quick mode leaves out of the cipher and KDF benchmark, in words (empty for a full run). */
export function speedProbeReductions(options: SpeedProbeOptions): string[] {
  const cuts = quickCutsOf(options);
  if (cuts === null) {
    return [];
  }
  const allCores = cuts.opensslAllCoresEvps;
  const hashes = cuts.pbkdf2Hashes;
  return [
    'cryptsetup: Serpent and Twofish are not measured.',
    `OpenSSL: 1 s per figure instead of 3${cuts.opensslKeySizeSamples > 1 ? ` (aes-128/256-xts on one core: ${String(cuts.opensslKeySizeSamples)} interleaved pairs, as in full mode)` : ''}, ${cuts.opensslDecryptEvps.length === 0 ? 'encryption only' : `decryption for ${cuts.opensslDecryptEvps.join(', ')} only`}${allCores === null ? '' : `, all cores for ${allCores.join(', ')} only`}: one short sample${cuts.opensslKeySizeSamples > 1 ? ' of the other figures' : ''}, so a busy machine shows in the figure.`,
    ...(hashes === null
      ? []
      : [
          `PBKDF2: ${hashes.join(', ')} only (${PBKDF2_HASHES.filter((hash) => !hashes.includes(hash)).join(', ')} not measured)${pbkdf2RunsInWords(cuts)}.`,
        ]),
    ...(cuts.opensslAesOnlyWhereUsed && !opensslAesReachesPlan(options)
      ? [
          "OpenSSL AES: one aes-256-xts run on one core only: the kernel's xts(aes) driver does not use the CPU's AES instructions, so no OpenSSL AES figure reaches the plan (key-size pairs, all cores and decryption not run).",
        ]
      : []),
    ...(cuts.argon2IterTimeMs === null
      ? []
      : [
          cuts.argon2Runs > 1
            ? `argon2id: cryptsetup benchmarked ${String(cuts.argon2IterTimeMs)} ms ${String(cuts.argon2Runs)} times instead of ${String(ARGON2_DEFAULT_ITER_TIME_MS)} ms (the plan scales by the time asked; iterations follow the median of the runs).`
            : `argon2id: cryptsetup benchmarked ${String(cuts.argon2IterTimeMs)} ms once instead of ${String(ARGON2_DEFAULT_ITER_TIME_MS)} ms ${String(FULL_ARGON2_RUNS)} times (the plan scales by the time asked; iterations follow one run, not a median).`,
        ]),
  ];
}

/** The tool runs of the cipher and KDF probes as phases, in the order they run: for planning the ETA. */
export function speedProbePhases(options: SpeedProbeOptions): PlannedPhase[] {
  return [...cryptsetupCipherSteps(options), ...opensslSteps(options), ...kdfSteps(options)].map(
    ({ id, resource, expectedMs }) => ({ id, resource, expectedMs }),
  );
}

/**
 * Measures key derivation with cryptsetup: PBKDF2 iterations per second per hash and the argon2id parameters it
 * would choose. A hash the crypto backend lacks ("N/A") is listed as unmeasured; a missing cryptsetup is a warning.
 */
export async function probeKdfSpeed(
  context: ProbeContext,
  options: SpeedProbeOptions = {},
): Promise<KdfSpeedFacts> {
  const runs: CryptsetupBenchmarkRun[] = [];
  for (const step of kdfSteps(options)) {
    const { args } = step;
    const output = await runStep(context, options, step, KDF_RUN);
    if (output === null) {
      options.phases?.skip('kdf:');
      break;
    }
    // An unknown hash exits 1 after printing "PBKDF2-<hash> N/A" (fixtures/…/linux-debian12-pbkdf2-streebog512).
    const benchmark = await parseOutput(context, KDF_RUN.tool, KDF_RUN.reading, () =>
      parseCryptsetupBenchmark(output.stdout),
    );
    if (benchmark === null) {
      continue;
    }
    const reportedNotAvailable = benchmark.pbkdf2.some((line) => line.iterationsPerSecond === null);
    if (output.exitCode !== 0 && !reportedNotAvailable) {
      warnFailed(context, 'cryptsetup', args, output.stderr);
      continue;
    }
    runs.push({ argv: ['cryptsetup', ...args], benchmark });
  }
  const facts = kdfFactsFromCryptsetup(runs);
  const known = new Set([...facts.pbkdf2.map((p) => p.hash), ...facts.unmeasured.map((u) => u.hash)]);
  const chosen = quickCutsOf(options)?.pbkdf2Hashes ?? null;
  const notRun = PBKDF2_HASHES.filter((hash) => !known.has(hash)).map((hash) => ({
    hash,
    reason:
      chosen !== null && !chosen.includes(hash)
        ? 'Not measured in quick mode (run without --quick to measure it).'
        : 'cryptsetup could not be run (see warnings).',
  }));
  return { ...facts, unmeasured: [...facts.unmeasured, ...notRun] };
}
