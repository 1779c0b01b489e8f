import type { CipherId, PlanCipherSpeed, PlanInput } from '../plan/plan-input.js';

/**
 * AES-256-XTS (512-bit key) runs ≈ 20 % slower than AES-128-XTS when the cipher is the limit: measured
 * −19 … −23 % on four machines, −8 % with VAES (reference-facts §2.4).
 */
export const AES_XTS_512_OVER_256 = 0.8;
/** With VAES the 512-bit key costs only ≈ 8 % (reference-facts §2.4, "Fendos" report). */
export const AES_XTS_512_OVER_256_VAES = 0.92;

/** The measurement of `cipher` at `keyBits`, if any. */
export function findCipherSpeed(input: PlanInput, cipher: CipherId, keyBits: number): PlanCipherSpeed | null {
  return input.cipherSpeeds.find((speed) => speed.cipher === cipher && speed.keyBits === keyBits) ?? null;
}

/** A cipher speed used by a rule: bytes/s per direction on one core, and whether it was measured or derived. */
export interface EffectiveCipherSpeed {
  readonly cipher: CipherId;
  readonly keyBits: number;
  readonly encryptBytesPerSecond: number | null;
  readonly decryptBytesPerSecond: number | null;
  readonly allCoresEncryptBytesPerSecond: number | null;
  readonly measured: boolean;
  readonly basis: PlanCipherSpeed;
}

/**
 * The one-core speed of `cipher` at `keyBits`: measured when present; for aes-xts 512 derived from a 256-bit
 * measurement with {@link AES_XTS_512_OVER_256}; for Adiantum, XChaCha12 falls back to the XChaCha20
 * measurement (a lower bound: 12 rounds are faster than 20, §2.6). Null when nothing applies.
 */
export function effectiveCipherSpeed(
  input: PlanInput,
  cipher: CipherId,
  keyBits: number,
): EffectiveCipherSpeed | null {
  const direct = findCipherSpeed(input, cipher, keyBits);
  if (direct !== null) {
    return fromMeasurement(cipher, keyBits, direct, 1, true);
  }
  if (cipher === 'aes-xts' && keyBits === 512) {
    const aes256 = findCipherSpeed(input, 'aes-xts', 256);
    const factor = input.cpu.hasVaes === true ? AES_XTS_512_OVER_256_VAES : AES_XTS_512_OVER_256;
    return aes256 === null ? null : fromMeasurement(cipher, keyBits, aes256, factor, false);
  }
  if (cipher === 'xchacha12,aes-adiantum') {
    const xchacha20 = findCipherSpeed(input, 'xchacha20,aes-adiantum', keyBits);
    return xchacha20 === null ? null : fromMeasurement(cipher, keyBits, xchacha20, 1, false);
  }
  // Serpent and Twofish do not change speed with key size (§2.4).
  if (cipher === 'serpent-xts' || cipher === 'twofish-xts') {
    const other = findCipherSpeed(input, cipher, keyBits === 512 ? 256 : 512);
    return other === null ? null : fromMeasurement(cipher, keyBits, other, 1, false);
  }
  return null;
}

function fromMeasurement(
  cipher: CipherId,
  keyBits: number,
  basis: PlanCipherSpeed,
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

/** The fastest plain sequential rate of the device (read or write, any profile), for "is the cipher the limit". */
export function fastestPlainBytesPerSecond(input: PlanInput): number | null {
  const values = input.device.plainThroughput
    .flatMap((row) => [row.readBytesPerSecond, row.writeBytesPerSecond])
    .filter((v): v is number => v !== null && v > 0);
  return values.length === 0 ? null : Math.max(...values);
}
