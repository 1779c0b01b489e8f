import type { CipherSpeedFacts, UnmeasuredCipher } from '../domain/cipher.js';
import type { KdfSpeedFacts } from '../domain/kdf.js';
import type { CommandOutput } from '../ports.js';
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

/** Options of the cipher and KDF probes (cancellation comes with the probe context's signal). */
export interface SpeedProbeOptions {
  /** Short runs (openssl 1 s per figure, encryption only) for `--quick`. */
  readonly quick?: boolean;
  /** Processes for the all-cores figures (logical CPUs); 1 when absent. */
  readonly logicalCpuCount?: number;
  /** Called before each tool run with a short description, for progress output. */
  readonly onProgress?: (step: string) => void;
}

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
/** A cipher benchmark runs ≥ 1 s per direction, up to ~65 MiB buffers (cryptsetup(8) BENCHMARK; cryptsetup src/cryptsetup.c, lib/crypto_backend/cipher_check.c): 60 s is generous. */
const CRYPTSETUP_CIPHER_TIMEOUT_MS = 60_000;
/** 4096-byte messages: the sector size dm-crypt should use and fscrypt's block size (Eric Biggers, "x86: AES-XTS with VAES/AVX10" cover letter, linux-crypto 2024; systemd/systemd#24382; cryptsetup 2.4.0 release notes). */
const OPENSSL_MESSAGE_BYTES = 4096;
const OPENSSL_EVPS: readonly OpensslCipherName[] = ['aes-128-xts', 'aes-256-xts', 'chacha20'];

function displayCipher(cipher: string): string {
  // cryptsetup prints the cipher without its IV mode: "xchacha12,aes-adiantum-plain64" → "xchacha12,aes-adiantum".
  return cipher.replace(/-plain64$/, '');
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

async function measureWithCryptsetup(context: ProbeContext, options: SpeedProbeOptions) {
  const runs: CryptsetupBenchmarkRun[] = [];
  const unmeasured: UnmeasuredCipher[] = [];
  let available: boolean | null = null;
  const list =
    options.quick === true ? CRYPTSETUP_CIPHERS : [...CRYPTSETUP_CIPHERS, ...CRYPTSETUP_CIPHERS_FULL];
  for (const [cipher, keyBits] of list) {
    const args = ['benchmark', '-c', cipher, '-s', keyBits];
    options.onProgress?.(`cryptsetup benchmark ${cipher} ${keyBits}b`);
    const output = await tryRun(
      context,
      { tool: 'cryptsetup', args, timeoutMs: CRYPTSETUP_CIPHER_TIMEOUT_MS },
      'Measuring kernel cipher speed',
    );
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
    const benchmark = await parseIfSucceeded(
      context,
      { tool: 'cryptsetup', args, output },
      'Reading kernel cipher speed',
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
  const facts = cipherFactsFromCryptsetup(runs);
  return { ...facts, unmeasured: [...facts.unmeasured, ...unmeasured], available };
}

/** The parsed output of a run that exited 0; a failed run is a TOOL_FAILED warning with its first stderr line. */
async function parseIfSucceeded<T>(
  context: ProbeContext,
  run: { tool: 'cryptsetup' | 'openssl'; args: readonly string[]; output: CommandOutput },
  purpose: string,
  parse: (stdout: string) => T,
): Promise<T | null> {
  if (run.output.exitCode !== 0) {
    addWarning(context, {
      code: 'TOOL_FAILED',
      message: `${run.tool} ${run.args.join(' ')} failed: ${firstLineOf(run.output.stderr)}`,
      source: run.tool,
    });
    return null;
  }
  return attempt(context, run.tool, purpose, () => Promise.resolve(parse(run.output.stdout)));
}

async function measureWithOpenssl(context: ProbeContext, options: SpeedProbeOptions) {
  const cpus = Math.max(1, options.logicalCpuCount ?? 1);
  // 1 s per figure keeps --quick inside issue 4's 60 s budget for a whole assessment; 3 s steadies full runs.
  const seconds = options.quick === true ? 1 : 3;
  const runs: OpensslSpeedRun[] = [];
  outer: for (const evp of OPENSSL_EVPS) {
    for (const decrypt of options.quick === true ? [false] : [false, true]) {
      for (const processes of cpus > 1 ? [1, cpus] : [1]) {
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
        ];
        if (decrypt) {
          args.push('-decrypt');
        }
        if (processes > 1) {
          args.push('-multi', String(processes));
        }
        options.onProgress?.(
          `openssl speed ${evp}${decrypt ? ' decrypt' : ''} on ${String(processes)} core(s)`,
        );
        // OpenSSL runs each figure for `seconds`, then forks/joins; 30 s covers start-up on a loaded machine.
        const output = await tryRun(
          context,
          { tool: 'openssl', args, timeoutMs: seconds * 1000 + 30_000 },
          'Measuring userspace cipher speed',
        );
        if (output === null) {
          break outer;
        }
        const speed = await parseIfSucceeded(
          context,
          { tool: 'openssl', args, output },
          'Reading userspace cipher speed',
          parseOpensslSpeed,
        );
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
  const openssl = await measureWithOpenssl(context, options);
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
const KDF_TIMEOUT_MS = 60_000;

/**
 * Measures key derivation with cryptsetup: PBKDF2 iterations per second per hash and the argon2id parameters it
 * would choose. A hash the crypto backend lacks ("N/A") is listed as unmeasured; a missing cryptsetup is a warning.
 */
export async function probeKdfSpeed(
  context: ProbeContext,
  options: SpeedProbeOptions = {},
): Promise<KdfSpeedFacts> {
  const runs: CryptsetupBenchmarkRun[] = [];
  const commands = [
    ...PBKDF2_HASHES.map((hash) => ['benchmark', '--pbkdf', 'pbkdf2', '--hash', hash]),
    ['benchmark', '--pbkdf', 'argon2id'],
  ];
  for (const args of commands) {
    options.onProgress?.(`cryptsetup ${args.slice(1).join(' ')}`);
    const output = await tryRun(
      context,
      { tool: 'cryptsetup', args, timeoutMs: KDF_TIMEOUT_MS },
      'Measuring key-derivation speed',
    );
    if (output === null) {
      break;
    }
    // An unknown hash exits 1 after printing "PBKDF2-<hash> N/A" (fixtures/…/linux-debian12-pbkdf2-streebog512).
    const benchmark = await attempt(context, 'cryptsetup', 'Reading key-derivation speed', () =>
      Promise.resolve(parseCryptsetupBenchmark(output.stdout)),
    );
    if (benchmark === null) {
      continue;
    }
    const reportedNotAvailable = benchmark.pbkdf2.some((line) => line.iterationsPerSecond === null);
    if (output.exitCode !== 0 && !reportedNotAvailable) {
      addWarning(context, {
        code: 'TOOL_FAILED',
        message: `cryptsetup ${args.join(' ')} failed: ${firstLineOf(output.stderr)}`,
        source: 'cryptsetup',
      });
      continue;
    }
    runs.push({ argv: ['cryptsetup', ...args], benchmark });
  }
  const facts = kdfFactsFromCryptsetup(runs);
  const known = new Set([...facts.pbkdf2.map((p) => p.hash), ...facts.unmeasured.map((u) => u.hash)]);
  const notRun = PBKDF2_HASHES.filter((hash) => !known.has(hash)).map((hash) => ({
    hash,
    reason: 'cryptsetup could not be run (see warnings).',
  }));
  return { ...facts, unmeasured: [...facts.unmeasured, ...notRun] };
}
