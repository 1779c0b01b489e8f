import { z } from 'zod';
import { cipherIdSchema, type CipherId } from '../domain/cipher.js';
import { sourceOf, type FactSource } from '../domain/source.js';
import { cacheAbsorbed } from '../analyses/io-overhead.js';
import { median } from '../domain/statistics.js';
import { ONE_PASS_ARGS } from '../domain/io-benchmark.js';
import { plansForLinux, type PlanFacts } from './facts.js';
import { benchmarksThroughPageCache } from '../targets/registry.js';
import { storageModelOfFacts } from './storage-facts.js';

/**
 * AES-256-XTS (512-bit key) runs ≈ 20 % slower than AES-128-XTS when the cipher is the limit: measured
 * −19 … −23 % on four machines, −8 % with VAES (cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615).
 */
export const AES_XTS_512_OVER_256 = 0.8;
/** With VAES the 512-bit key costs only ≈ 8 % (cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615, "Fendos" report). */
export const AES_XTS_512_OVER_256_VAES = 0.92;

/**
 * How the cipher speed a prediction uses was obtained, best first (issue 24):
 * 1 `measured-run` — an encrypted run of the backend itself was measured (the prediction is then paired
 *   with it per profile and the answer uses the measurement, {@link pairPredictedWithMeasured});
 * 2 `kernel-api` — the kernel's crypto API through AF_ALG (`cryptsetup benchmark`, both directions; what
 *   dm-crypt runs: cryptsetup(8) BENCHMARK);
 * 3 `kernel-cipher` — a measurement through the kernel's own xts(aes) without AF_ALG or device-mapper: a cold
 *   fscrypt file written with end_fsync and read back once (fscrypt encrypts and decrypts file contents with
 *   the kernel's skcipher, Linux Documentation/filesystems/fscrypt.rst "Encryption modes and usage");
 * 4 `userspace-upper-bound` — `openssl speed`, only where the kernel's driver for the mode uses the CPU's AES
 *   instructions (/proc/crypto) or, off Linux, where the CPU has them; an upper bound, since user space skips
 *   the kernel's per-request work.
 */
export const cipherEvidenceKindSchema = z.enum([
  'measured-run',
  'kernel-api',
  'kernel-cipher',
  'userspace-upper-bound',
]);
export type CipherEvidenceKind = z.infer<typeof cipherEvidenceKindSchema>;

/** The rank of each kind of evidence: 1 is the best. */
export const CIPHER_EVIDENCE_RANK: Readonly<Record<CipherEvidenceKind, number>> = {
  'measured-run': 1,
  'kernel-api': 2,
  'kernel-cipher': 3,
  'userspace-upper-bound': 4,
};

/**
 * What a cipher figure's cores are (issue 24: the key-size text multiplied a figure that already spanned the
 * run's cores by the core count again). `one-core`: a one-core rate (cryptsetup benchmark, `openssl speed`
 * without -multi) that queued I/O multiplies by the cores it spreads over, up to a measured all-cores rate.
 * `cores-of-the-run`: a rate measured through the kernel's cipher by real I/O (a cold fscrypt file), which
 * already spans whatever cores that run used: it is what one stream gets and also what queued I/O gets, never
 * multiplied. Read a rate on N cores only through {@link cipherRateOnCores}.
 */
export type CipherFigureCores = 'one-core' | 'cores-of-the-run';

/** One cipher at one key size as the rules use it: the kernel's one-core rate and OpenSSL's all-core rate. */
export interface MeasuredCipherSpeed {
  readonly cipher: CipherId;
  readonly keyBits: number;
  /** What the `...OneCore` figures are: a one-core rate, or a rate over the cores its run used. */
  readonly figureCores: CipherFigureCores;
  readonly encryptBytesPerSecondOneCore: number | null;
  readonly decryptBytesPerSecondOneCore: number | null;
  readonly encryptBytesPerSecondAllCores: number | null;
  /** All-cores decryption where measured (openssl -decrypt -multi, or the fscrypt read); null: as encryption. */
  readonly decryptBytesPerSecondAllCores?: number | null;
  readonly source: FactSource;
  /** Which rank of evidence the figure is (see {@link cipherEvidenceKindSchema}). */
  readonly evidence: CipherEvidenceKind;
  /** Why a better-ranked source was not used, or what the figure means (for reasons and the report). */
  readonly note: string;
}

/** The kernel's AES driver class for disk encryption as /proc/crypto shows it; null off Linux or unknown. */
function kernelAesImplementation(facts: PlanFacts) {
  return facts.kernelCrypto?.xtsAesImplementation ?? null;
}

/**
 * Whether an `openssl speed` row may stand for what the kernel (or the OS's own encryption) gets. On Linux the
 * kernel's driver must use the CPU's AES instructions (a generic C driver such as xts(ecb(aes-fixed-time))
 * runs far below OpenSSL's AES-NI: issue 24 measured fscrypt at 32–52 MiB/s beside OpenSSL's 7457 MiB/s on
 * the same CPU). Off Linux there is no /proc/crypto: BitLocker and APFS use the CPU's AES instructions when it
 * has them (Microsoft, "BitLocker overview": "software-based encryption … uses the CPU"; Apple Platform
 * Security Guide, "Data Protection"), so OpenSSL is accepted there as an upper bound when the CPU has AES.
 * Ciphers other than AES (ChaCha20 as Adiantum's proxy) keep the OpenSSL figure as an upper bound.
 */
function opensslAdmissible(facts: PlanFacts, cipher: CipherId): { ok: boolean; note: string } {
  if (!cipher.startsWith('aes-')) {
    return { ok: true, note: 'OpenSSL in user space: an upper bound for the kernel.' };
  }
  if (plansForLinux(facts)) {
    const implementation = kernelAesImplementation(facts);
    const driver = facts.kernelCrypto?.xtsAes?.driver ?? null;
    if (implementation === 'cpu-instructions') {
      return {
        ok: true,
        note: `OpenSSL in user space, admitted because the kernel's xts(aes) driver ${driver ?? ''} uses the CPU's AES instructions: an upper bound for dm-crypt.`.replace(
          '  ',
          ' ',
        ),
      };
    }
    return {
      ok: false,
      note:
        implementation === null
          ? "OpenSSL not used: /proc/crypto does not show which driver the kernel's xts(aes) would use, so user-space AES speed says nothing about dm-crypt."
          : `OpenSSL not used: the kernel's xts(aes) is ${driver ?? implementation} (${implementation}), which dm-crypt and fscrypt run instead of the CPU's AES instructions.`,
    };
  }
  const aes = facts.machine?.cryptoFlags?.aes ?? storageModelOfFacts(facts)?.cpu?.aes ?? null;
  return aes === true
    ? {
        ok: true,
        note: "OpenSSL in user space with the CPU's AES instructions: an upper bound for the OS's own encryption.",
      }
    : {
        ok: false,
        note: 'OpenSSL not used: the CPU is not known to have AES instructions, so the OS cipher speed is unknown.',
      };
}

/**
 * The measurement of `cipher` at `keyBits`, by rank: a cryptsetup row (the kernel's crypto API, what dm-crypt
 * runs; cryptsetup(8) BENCHMARK); else, for AES-XTS-512 (fscrypt's AES-256-XTS), the cold fscrypt run
 * ({@link kernelCipherFromFscrypt}); else an OpenSSL row where {@link opensslAdmissible}. The all-cores rate can
 * only come from OpenSSL (`openssl speed -multi`), and only when OpenSSL is admissible.
 */
function findCipherSpeed(facts: PlanFacts, cipher: CipherId, keyBits: number): MeasuredCipherSpeed | null {
  const rows = (facts.cipherBenchmark?.cipherSpeed?.measurements ?? []).filter(
    (row) => cipherIdSchema.safeParse(row.cipher).data === cipher && row.keyBits === keyBits,
  );
  const kernel = rows.filter((row) => row.source === 'cryptsetup');
  const openssl = opensslAdmissible(facts, cipher);
  const userspace = openssl.ok ? rows.filter((row) => row.source === 'openssl') : [];
  const first = <T>(
    from: readonly (typeof rows)[number][],
    pick: (row: (typeof rows)[number]) => T | null | undefined,
  ): T | null => from.map(pick).find((value) => value !== null && value !== undefined) ?? null;
  const allCores = first(userspace, (row) => row.allCoresEncryptBytesPerSecond);
  const allCoresDecrypt = first(userspace, (row) => row.allCoresDecryptBytesPerSecond);
  // One measured speed from the first rows of one source that give each figure (all-cores figures: OpenSSL's).
  const fromRows = (
    from: readonly (typeof rows)[number][],
    tool: string,
    evidence: MeasuredCipherSpeed['evidence'],
    note: string,
  ): MeasuredCipherSpeed => {
    const top = from[0];
    return {
      cipher,
      keyBits,
      figureCores: 'one-core',
      encryptBytesPerSecondOneCore: first(from, (row) => row.encryptBytesPerSecond),
      decryptBytesPerSecondOneCore: first(from, (row) => row.decryptBytesPerSecond),
      encryptBytesPerSecondAllCores: allCores,
      decryptBytesPerSecondAllCores: allCoresDecrypt,
      source: sourceOf(top?.source ?? tool, (top?.argv ?? []).join(' ') || null),
      evidence,
      note,
    };
  };
  if (kernel.length > 0) {
    return fromRows(
      kernel,
      'cryptsetup',
      'kernel-api',
      "The kernel's crypto API (cryptsetup benchmark through AF_ALG), what dm-crypt runs.",
    );
  }
  const fscrypt = cipher === 'aes-xts' && keyBits === 512 ? kernelCipherFromFscrypt(facts) : null;
  if (fscrypt !== null) {
    return fscrypt;
  }
  return userspace.length === 0
    ? null
    : fromRows(userspace, 'openssl', 'userspace-upper-bound', openssl.note);
}

/** Why OpenSSL was not used for `cipher`, when it was refused (for the plan's evidence); null when admitted. */
export function opensslRefusal(facts: PlanFacts, cipher: CipherId): string | null {
  const verdict = opensslAdmissible(facts, cipher);
  return verdict.ok ? null : verdict.note;
}

/**
 * The kernel's own AES-XTS-512 speed seen through a cold fscrypt run on the assessed filesystem (rank 3): the
 * largest sequential profile per direction, unless the page cache absorbed it ({@link cacheAbsorbed}). fscrypt
 * runs the kernel's xts(aes) for file contents with a 512-bit key (fscrypt v2 AES-256-XTS; Linux
 * Documentation/filesystems/fscrypt.rst), on the same driver dm-crypt would use. The figure includes the
 * device, so it is a lower bound on the cipher; the plan treats it as the speed dm-crypt gets on all the cores
 * the run used (no further scaling).
 */
function kernelCipherFromFscrypt(facts: PlanFacts): MeasuredCipherSpeed | null {
  const target = (facts.ioBenchmark?.encrypted ?? []).find((row) => benchmarksThroughPageCache(row.backend));
  const plain = facts.ioBenchmark?.plain;
  if (target === undefined) {
    return null;
  }
  const rateOf = (direction: 'read' | 'write') => {
    const rows = (target.profiles ?? []).filter(
      (row) =>
        row.profile?.direction === direction &&
        row.profile.pattern === 'sequential' &&
        (row.profile.blockSizeBytes ?? 0) >= 1024 * 1024 &&
        // Only a one-pass run is cold: a time-based run loops over its file and re-reads it from the page
        // cache (plan/fio-jobs.ts ONE_PASS_ARGS).
        ONE_PASS_ARGS.every((arg) => (row.fioArgv ?? []).includes(arg)),
    );
    const honest = rows.filter((row) => {
      const base = (plain?.profiles ?? []).find((candidate) => candidate.profile?.id === row.profile?.id);
      return !cacheAbsorbed(base?.summary, row.summary);
    });
    const rates = honest
      .map((row) => row.summary?.medianBytesPerSecond)
      .filter((value): value is number => typeof value === 'number' && value > 0);
    return rates.length === 0 ? null : Math.max(...rates);
  };
  const encrypt = rateOf('write');
  const decrypt = rateOf('read');
  if (encrypt === null && decrypt === null) {
    return null;
  }
  return {
    cipher: 'aes-xts',
    keyBits: 512,
    figureCores: 'cores-of-the-run',
    encryptBytesPerSecondOneCore: encrypt,
    decryptBytesPerSecondOneCore: decrypt,
    // What the run reached is what the kernel's driver gave on the cores it used: no scaling beyond it.
    encryptBytesPerSecondAllCores: encrypt,
    decryptBytesPerSecondAllCores: decrypt,
    source: sourceOf('fio', 'fscrypt sequential run (kernel xts(aes), cold file)'),
    evidence: 'kernel-cipher',
    note: "The kernel's own xts(aes) measured through fscrypt (no AF_ALG here): a cold file written with end_fsync and read back once; it includes the drive, so the cipher is at least this fast.",
  };
}

/**
 * A cipher speed used by a rule: bytes/s per direction for one stream (one core's rate, or a rate over the cores
 * its run used: `figureCores`), and whether it was measured or derived. A rate on more cores comes only from
 * {@link cipherRateOnCores}.
 */
export interface EffectiveCipherSpeed {
  readonly cipher: CipherId;
  readonly keyBits: number;
  readonly figureCores: CipherFigureCores;
  readonly encryptBytesPerSecond: number | null;
  readonly decryptBytesPerSecond: number | null;
  readonly allCoresEncryptBytesPerSecond: number | null;
  /** All-cores decryption where it was measured; absent or null: the encryption figure stands for it. */
  readonly allCoresDecryptBytesPerSecond?: number | null;
  readonly measured: boolean;
  readonly basis: MeasuredCipherSpeed;
}

/**
 * The one-core speed of `cipher` at `keyBits`: measured when present; for aes-xts 512 derived from a 256-bit
 * measurement with {@link AES_XTS_512_OVER_256}; for Adiantum, XChaCha12 falls back to the XChaCha20
 * measurement (a lower bound: 12 rounds are faster than 20, Crowley & Biggers, "Adiantum", IACR ToSC 2018 (eprint 2018/720); source.android.com "Enabling Adiantum"; raspberrypi/linux#3648). Null when nothing applies.
 */
export function effectiveCipherSpeed(
  facts: PlanFacts,
  cipher: CipherId,
  keyBits: number,
): EffectiveCipherSpeed | null {
  const direct = findCipherSpeed(facts, cipher, keyBits);
  if (direct !== null) {
    return fromMeasurement(cipher, keyBits, direct, 1, true);
  }
  if (cipher === 'aes-xts' && keyBits === 512) {
    const aes256 = findCipherSpeed(facts, 'aes-xts', 256);
    const factor =
      facts.machine?.cryptoFlags?.vaes === true ? AES_XTS_512_OVER_256_VAES : AES_XTS_512_OVER_256;
    return aes256 === null ? null : fromMeasurement(cipher, keyBits, aes256, factor, false);
  }
  if (cipher === 'xchacha12,aes-adiantum') {
    const xchacha20 = findCipherSpeed(facts, 'xchacha20,aes-adiantum', keyBits);
    return xchacha20 === null ? null : fromMeasurement(cipher, keyBits, xchacha20, 1, false);
  }
  // Serpent and Twofish do not change speed with key size (cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615).
  if (cipher === 'serpent-xts' || cipher === 'twofish-xts') {
    const other = findCipherSpeed(facts, cipher, keyBits === 512 ? 256 : 512);
    return other === null ? null : fromMeasurement(cipher, keyBits, other, 1, false);
  }
  return null;
}

function fromMeasurement(
  cipher: CipherId,
  keyBits: number,
  basis: MeasuredCipherSpeed,
  factor: number,
  measured: boolean,
): EffectiveCipherSpeed {
  const scale = (value: number | null): number | null => (value === null ? null : value * factor);
  return {
    cipher,
    keyBits,
    figureCores: basis.figureCores,
    encryptBytesPerSecond: scale(basis.encryptBytesPerSecondOneCore),
    decryptBytesPerSecond: scale(basis.decryptBytesPerSecondOneCore),
    allCoresEncryptBytesPerSecond: scale(basis.encryptBytesPerSecondAllCores),
    allCoresDecryptBytesPerSecond: scale(basis.decryptBytesPerSecondAllCores ?? null),
    measured,
    basis,
  };
}

/**
 * The rate of one direction of `speed` on `cores` cores, the one place a cipher rate is multiplied by cores: a
 * one-core rate times the cores, capped by a measured all-cores rate; a rate over the cores of its run
 * ({@link CipherFigureCores} `cores-of-the-run`) as it is. `scale` maps each figure first (the model's sector
 * scaling). Null when the direction is unmeasured.
 */
export function cipherRateOnCores(
  speed: EffectiveCipherSpeed | null,
  direction: 'encrypt' | 'decrypt',
  cores: number,
  scale: (bytesPerSecond: number) => number | null = (bytesPerSecond) => bytesPerSecond,
): number | null {
  const figure = direction === 'encrypt' ? speed?.encryptBytesPerSecond : speed?.decryptBytesPerSecond;
  const oneStream = figure === null || figure === undefined ? null : scale(figure);
  if (speed === null || oneStream === null) {
    return null;
  }
  if (speed.figureCores === 'cores-of-the-run' || cores <= 1) {
    return oneStream;
  }
  const allCores =
    direction === 'decrypt'
      ? (speed.allCoresDecryptBytesPerSecond ?? speed.allCoresEncryptBytesPerSecond)
      : speed.allCoresEncryptBytesPerSecond;
  const allCoresScaled = allCores === null ? null : scale(allCores);
  return Math.min(oneStream * cores, allCoresScaled ?? Number.POSITIVE_INFINITY);
}

/** The slower direction of `speed` on `cores` cores ({@link cipherRateOnCores}); null when neither is known. */
export function slowerOnCores(speed: EffectiveCipherSpeed | null, cores: number): number | null {
  const values = (['encrypt', 'decrypt'] as const)
    .map((direction) => cipherRateOnCores(speed, direction, cores))
    .filter((v): v is number => v !== null && v > 0);
  return values.length === 0 ? null : Math.min(...values);
}

/** The slower direction of an effective speed. */
export function slowerEffective(speed: EffectiveCipherSpeed | null): number | null {
  if (speed === null) {
    return null;
  }
  const values = [speed.encryptBytesPerSecond, speed.decryptBytesPerSecond].filter(
    (v): v is number => v !== null && v > 0,
  );
  return values.length === 0 ? null : Math.min(...values);
}

/** The fastest plain rate the I/O benchmark measured on the device (any profile, either direction). */
export function fastestPlainBytesPerSecond(facts: PlanFacts): number | null {
  const values = (facts.ioBenchmark?.plain?.profiles ?? [])
    .map((profile) => profile.summary?.medianBytesPerSecond)
    .filter((v): v is number => v !== undefined && v > 0);
  return values.length === 0 ? null : Math.max(...values);
}

/** AES-128's gain over AES-256 from interleaved one-core pairs: median and spread in per cent, and the pair count. */
export interface KeySizeGainSpread {
  readonly medianPercent: number;
  readonly lowPercent: number;
  readonly highPercent: number;
  readonly pairs: number;
}

/**
 * AES-128's gain over AES-256 (AES-XTS 256-bit over 512-bit key) per interleaved pair of OpenSSL one-core runs
 * (the i-th sample of each, run back to back, so a busy moment slows both alike): the median and the lowest and
 * highest pair. Null unless both ciphers carry the same number (≥ 2) of samples and OpenSSL is admitted for
 * AES here ({@link opensslAdmissible}).
 */
export function keySizeGainSpread(facts: PlanFacts): KeySizeGainSpread | null {
  if (!opensslAdmissible(facts, 'aes-xts').ok) {
    return null;
  }
  const samplesOf = (keyBits: number) =>
    (facts.cipherBenchmark?.cipherSpeed?.measurements ?? []).find(
      (row) => row.source === 'openssl' && row.cipher === 'aes-xts' && row.keyBits === keyBits,
    )?.encryptSamplesBytesPerSecond ?? [];
  const aes128 = samplesOf(256);
  const aes256 = samplesOf(512);
  if (aes128.length < 2 || aes128.length !== aes256.length) {
    return null;
  }
  const gains = aes128
    .map((rate, index) => (rate / (aes256[index] ?? 0) - 1) * 100)
    .filter((gain) => Number.isFinite(gain))
    .sort((a, b) => a - b);
  if (gains.length !== aes128.length) {
    return null;
  }
  return {
    medianPercent: median(gains) ?? 0,
    lowPercent: Math.round(gains[0]!),
    highPercent: Math.round(gains[gains.length - 1]!),
    pairs: gains.length,
  };
}
