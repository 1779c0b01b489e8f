import { cipherIdSchema, type CipherId } from '../domain/cipher.js';
import { sourceOf, type FactSource } from '../domain/source.js';
import type { PlanFacts } from './facts.js';

/**
 * AES-256-XTS (512-bit key) runs ≈ 20 % slower than AES-128-XTS when the cipher is the limit: measured
 * −19 … −23 % on four machines, −8 % with VAES (cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615).
 */
export const AES_XTS_512_OVER_256 = 0.8;
/** With VAES the 512-bit key costs only ≈ 8 % (cryptsetup benchmark pairs: kubesail/pibox-os#17, jo-so.de 2017, rvso.com/de/archives/1576615, "Fendos" report). */
const AES_XTS_512_OVER_256_VAES = 0.92;

/** One cipher at one key size as the rules use it: the kernel's one-core rate and OpenSSL's all-core rate. */
export interface MeasuredCipherSpeed {
  readonly cipher: CipherId;
  readonly keyBits: number;
  readonly encryptBytesPerSecondOneCore: number | null;
  readonly decryptBytesPerSecondOneCore: number | null;
  readonly encryptBytesPerSecondAllCores: number | null;
  readonly source: FactSource;
}

/**
 * The measurement of `cipher` at `keyBits` in the assessment's cipherBenchmark, if any: a cryptsetup row (the
 * kernel's code, what dm-crypt runs; cryptsetup(8) BENCHMARK) wins over an OpenSSL row per direction, and the
 * all-cores rate can only come from OpenSSL (`openssl speed -multi`).
 */
function findCipherSpeed(facts: PlanFacts, cipher: CipherId, keyBits: number): MeasuredCipherSpeed | null {
  const rows = (facts.cipherBenchmark?.cipherSpeed?.measurements ?? []).filter(
    (row) => cipherIdSchema.safeParse(row.cipher).data === cipher && row.keyBits === keyBits,
  );
  if (rows.length === 0) {
    return null;
  }
  const ordered = [...rows].sort(
    (a, b) => (a.source === 'cryptsetup' ? -1 : 0) - (b.source === 'cryptsetup' ? -1 : 0),
  );
  const first = <T>(pick: (row: (typeof ordered)[number]) => T | null | undefined): T | null =>
    ordered.map(pick).find((value) => value !== null && value !== undefined) ?? null;
  const top = ordered[0];
  return {
    cipher,
    keyBits,
    encryptBytesPerSecondOneCore: first((row) => row.encryptBytesPerSecond),
    decryptBytesPerSecondOneCore: first((row) => row.decryptBytesPerSecond),
    encryptBytesPerSecondAllCores: first((row) => row.allCoresEncryptBytesPerSecond),
    source: sourceOf(top?.source ?? 'cipher benchmark', (top?.argv ?? []).join(' ') || null),
  };
}

/** A cipher speed used by a rule: bytes/s per direction on one core, and whether it was measured or derived. */
export interface EffectiveCipherSpeed {
  readonly cipher: CipherId;
  readonly keyBits: number;
  readonly encryptBytesPerSecond: number | null;
  readonly decryptBytesPerSecond: number | null;
  readonly allCoresEncryptBytesPerSecond: number | null;
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
    encryptBytesPerSecond: scale(basis.encryptBytesPerSecondOneCore),
    decryptBytesPerSecond: scale(basis.decryptBytesPerSecondOneCore),
    allCoresEncryptBytesPerSecond: scale(basis.encryptBytesPerSecondAllCores),
    measured,
    basis,
  };
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
