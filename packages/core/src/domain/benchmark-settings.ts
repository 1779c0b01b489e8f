import { z } from 'zod';

/**
 * How quick mode shortens the benchmarks. Revision 1 is quick mode as issue 4 made it (every profile, every
 * hash, one 1 s run each); revision 2 (issue 18) fits a whole assessment in 30 s on a 2-core machine by
 * measuring fewer things, never by overlapping measurements. A bundle records the revision it was collected
 * with, so `assess --bundle` replays the same steps.
 */
export type QuickRevision = 1 | 2 | 3 | 4 | 5 | 6;
/** The revision `--quick` runs today. */
export const CURRENT_QUICK_REVISION: QuickRevision = 6;

/** What one quick revision leaves out; null means "as in full mode". */
export interface QuickCuts {
  readonly revision: QuickRevision;
  /** The standard fio profiles measured (ids); null: all of them. */
  readonly fioProfileIds: readonly string[] | null;
  /** OpenSSL ciphers also measured on all cores; null: every cipher. */
  readonly opensslAllCoresEvps: readonly string[] | null;
  /** PBKDF2 hashes measured; null: every hash. */
  readonly pbkdf2Hashes: readonly string[] | null;
  /** The argon2id time asked of `cryptsetup benchmark` (--iter-time); null: cryptsetup's default, 2000 ms. */
  readonly argon2IterTimeMs: number | null;
  /** fscrypt's fio jobs pass once over a cold file instead of looping (plan/fio-jobs.ts FioJob.onePass). */
  readonly fscryptOnePass: boolean;
  /** OpenSSL ciphers also measured decrypting (`openssl speed -decrypt`), so reads are predicted. */
  readonly opensslDecryptEvps: readonly string[];
  /**
   * One-core encryption runs of aes-128-xts and aes-256-xts, interleaved in pairs (128, 256, 128, 256, …), so
   * AES-128's gain is a median with a spread and a busy moment slows both sides of a pair alike; 1 before
   * revision 4. Full mode runs {@link FULL_OPENSSL_KEY_SIZE_SAMPLES}.
   */
  readonly opensslKeySizeSamples: number;
  /**
   * OpenSSL's AES runs only where they can reach the plan (revision 5): on Linux, when /proc/crypto shows that
   * the kernel's xts(aes) driver does not use the CPU's AES instructions, only the one-core aes-256-xts figure
   * runs (the kernel-aes-unaccelerated finding quotes it); the key-size pairs run only when cryptsetup's
   * kernel benchmark did not measure aes-xts at both key sizes. False: every AES run as the revision lists it.
   */
  readonly opensslAesOnlyWhereUsed: boolean;
  /** Runs of each PBKDF2 hash in {@link pbkdf2RepeatedHashes}, interleaved; iterations follow their median. */
  readonly pbkdf2Runs: number;
  /** The hashes run {@link pbkdf2Runs} times (the others {@link pbkdf2OtherRuns} times); null: every measured hash. */
  readonly pbkdf2RepeatedHashes: readonly string[] | null;
  /** Runs of each hash not in {@link pbkdf2RepeatedHashes}: 1 before revision 6. */
  readonly pbkdf2OtherRuns: number;
  /** argon2id benchmark runs; the key-derivation rule takes the median cost of them (1 before revision 6). */
  readonly argon2Runs: number;
}

/** Full mode's interleaved aes-128/256-xts one-core pairs (3: the fewest with a median apart from its ends). */
export const FULL_OPENSSL_KEY_SIZE_SAMPLES = 3;
/** Full mode's argon2id benchmark runs: the key-derivation rule takes the median cost of them. */
export const FULL_ARGON2_RUNS = 3;
/** Full mode's runs of every PBKDF2 hash (interleaved): iterations follow the median (issue 24 item 4). */
export const FULL_PBKDF2_RUNS = 3;

/** Revision 2 (issue 18), also the base of revision 3. */
const REVISION_2: QuickCuts = {
  revision: 2,
  // The two ends of CrystalDiskMark's default set (DiskMarkDlg.cpp "Default"): the deepest sequential queue,
  // where the cipher's throughput is the limit, and single 4 KiB requests, where its latency adds to the
  // device's. SEQ1M Q1T1 and RND4K Q32T1 lie between them.
  fioProfileIds: ['seq1m-q8t1-read', 'rnd4k-q1t1-read', 'seq1m-q8t1-write', 'rnd4k-q1t1-write'],
  // aes-256-xts is LUKS2's default cipher (aes-xts-plain64, 512-bit key; cryptsetup(8) "--cipher" defaults).
  opensslAllCoresEvps: ['aes-256-xts'],
  // The hashes the VeraCrypt KDF rule compares (sha512, whirlpool, sha256; VeraCrypt documentation, "Header
  // Key Derivation"); LUKS1 and LUKS2's PBKDF2 use sha256 (cryptsetup(8) "--hash").
  pbkdf2Hashes: ['sha256', 'sha512', 'whirlpool'],
  // cryptsetup scales argon2's cost to the time asked (--iter-time; cryptsetup(8) BENCHMARK), and the
  // key-derivation rule scales by the requested time the benchmark printed.
  argon2IterTimeMs: 1000,
  fscryptOnePass: false,
  opensslDecryptEvps: [],
  opensslKeySizeSamples: 1,
  opensslAesOnlyWhereUsed: false,
  pbkdf2Runs: 1,
  pbkdf2RepeatedHashes: null,
  pbkdf2OtherRuns: 1,
  argon2Runs: 1,
};

// Revision 5 (issues 24 and 28): revision 4 without the OpenSSL AES runs the plan cannot use (a kernel xts(aes)
// driver without the CPU's AES instructions: rules/cipher-speed.ts admits no OpenSSL AES figure then; a kernel
// benchmark of both key sizes: its figures outrank OpenSSL's), and with PBKDF2 sha512 (VeraCrypt's default
// PRF, VeraCrypt documentation "Header Key Derivation, Salt, and Iteration Count") run three times,
// interleaved with the other hashes, so the PIM follows a median (issue 24 item 4). sha256, whirlpool and
// argon2id stay at one run: cryptsetup times PBKDF2 in CPU time (lib/crypto_backend/pbkdf_check.c,
// getrusage), so on a busy machine each run takes several seconds of wall time, and the 30 s budget holds
// one hash's repeats (full mode repeats every hash).
const REVISION_5: QuickCuts = {
  ...REVISION_2,
  revision: 5,
  fscryptOnePass: true,
  opensslDecryptEvps: ['aes-256-xts'],
  opensslKeySizeSamples: 3,
  opensslAesOnlyWhereUsed: true,
  pbkdf2Runs: 3,
  pbkdf2RepeatedHashes: ['sha512'],
  pbkdf2OtherRuns: 1,
};

export const QUICK_CUTS: Readonly<Record<QuickRevision, QuickCuts>> = {
  1: {
    revision: 1,
    fioProfileIds: null,
    opensslAllCoresEvps: null,
    pbkdf2Hashes: null,
    argon2IterTimeMs: null,
    fscryptOnePass: false,
    opensslDecryptEvps: [],
    opensslKeySizeSamples: 1,
    opensslAesOnlyWhereUsed: false,
    pbkdf2Runs: 1,
    pbkdf2RepeatedHashes: null,
    pbkdf2OtherRuns: 1,
    argon2Runs: 1,
  },
  2: REVISION_2,
  // Revision 3 (issue 24): revision 2, plus fscrypt measured in one cold pass so the page cache cannot serve
  // it, plus aes-256-xts decryption on one core (about 1.2 s) so reads are predicted.
  3: { ...REVISION_2, revision: 3, fscryptOnePass: true, opensslDecryptEvps: ['aes-256-xts'] },
  // Revision 4 (issue 24 item 4): revision 3 with three interleaved 1 s pairs of aes-128/256-xts on one core
  // instead of one run each (+4 s), so AES-128's gain is stated with its spread.
  4: {
    ...REVISION_2,
    revision: 4,
    fscryptOnePass: true,
    opensslDecryptEvps: ['aes-256-xts'],
    opensslKeySizeSamples: 3,
  },
  5: REVISION_5,
  // Revision 6 (issue 24 item 4): revision 5 with every KDF speed a rule reads repeated, so none rests on one
  // run and each has a spread: PBKDF2 sha512 three interleaved runs as before, sha256 (the GRUB keyslot) and
  // whirlpool (the VeraCrypt hash choice) two, and argon2id two (the LUKS2 iterations follow their median
  // cost). The 30 s budget sets the counts: cryptsetup times each PBKDF2 run in CPU time until one pass takes
  // over 500 ms, doubling the iterations (lib/crypto_backend/pbkdf_check.c crypt_pbkdf_check), about 1 s of CPU
  // per run, so nine runs cost 4 s more than revision 5's five; two runs of the other hashes cost 2 s. argon2id
  // asks for 500 ms instead of 1000 ms: cryptsetup scales its parameters to the time asked (--iter-time;
  // crypt_argon2_check) and the rule divides by the time the benchmark printed. Where the CPU cannot do
  // cryptsetup's smallest parameters in the time asked, it stops there (4 iterations, 65536 KiB, captured at
  // 500 and at 1000 ms on this project's loaded VM: fixtures/cryptsetup-benchmark/PROVENANCE-pbkdf2-runs.md) and
  // the printed time understates the cost whichever time was asked; the shorter time understates it more.
  // Two argon2id runs, not three: measured on this project's VM (quiet), one `--iter-time 500` run takes 2.0 s and
  // the third pushed the quick assessment to the 30 s budget (npm run bench, docs/performance.md).
  6: { ...REVISION_5, revision: 6, pbkdf2OtherRuns: 2, argon2IterTimeMs: 500, argon2Runs: 2 },
};

/** What a benchmark left out to be quick, in words; recorded in the JSON and shown in the report. */
export const benchmarkReductionsSchema = z.array(z.string());

/** How the I/O benchmark ran fio: per-run time, repeats, file size, and what quick mode left out (since 1.2). */
export const ioBenchmarkSettingsSchema = z.object({
  runtimeSeconds: z.number().positive(),
  repeats: z.number().int().positive(),
  fileSizeBytes: z.number().int().positive(),
  profileIds: z.array(z.string()),
  quickRevision: z.number().int().positive().nullable(),
  reductions: benchmarkReductionsSchema,
});
export type IoBenchmarkSettings = z.infer<typeof ioBenchmarkSettingsSchema>;
