import type { CipherSpeedMeasurement } from '../../domain/cipher.js';
import type { OpensslSpeed } from './parse-openssl-speed.js';
import { median } from '../../domain/statistics.js';

/** OpenSSL EVP names encplan measures, with cryptsetup's name and whole-key size for the same cipher. */
const OPENSSL_CIPHERS = {
  // XTS takes two keys of the AES size (IEEE 1619), so AES-128-XTS is cryptsetup's aes-xts -s 256.
  'aes-128-xts': { cipher: 'aes-xts', keyBits: 256 },
  'aes-256-xts': { cipher: 'aes-xts', keyBits: 512 },
  // OpenSSL has no Adiantum; ChaCha20 is its bulk stream cipher (Adiantum uses XChaCha12/20; Crowley & Biggers, "Adiantum", IACR ToSC 2018 (eprint 2018/720); source.android.com "Enabling Adiantum"; raspberrypi/linux#3648).
  chacha20: { cipher: 'chacha20', keyBits: 256 },
} as const;

/** An OpenSSL EVP cipher encplan measures. */
export type OpensslCipherName = keyof typeof OPENSSL_CIPHERS;

/** One parsed `openssl speed` run and what it measured. */
export interface OpensslSpeedRun {
  readonly evp: OpensslCipherName;
  readonly decrypt: boolean;
  /** 1, or N of -multi N. */
  readonly processes: number;
  readonly messageBytes: number;
  readonly argv: readonly string[];
  readonly speed: OpensslSpeed;
}

function rateOf(run: OpensslSpeedRun | undefined): number | null {
  if (run === undefined) {
    return null;
  }
  const result = run.speed.results.find((r) => r.messageBytes === run.messageBytes) ?? run.speed.results[0];
  return result === undefined ? null : result.bytesPerSecond;
}

/**
 * Combines the one-process and -multi runs, encrypt and decrypt, of each cipher into one measurement. Repeated
 * one-core encryption runs (aes-128/256-xts, interleaved in pairs) give the median as the figure and every
 * sample in run order, so the rules can state AES-128's gain with its spread.
 */
export function cipherMeasurementsFromOpenssl(runs: readonly OpensslSpeedRun[]): CipherSpeedMeasurement[] {
  const ciphers = [...new Set(runs.map((run) => run.evp))];
  return ciphers.map((evp) => {
    const of = runs.filter((run) => run.evp === evp);
    const pick = (decrypt: boolean, multi: boolean) =>
      of.find((run) => run.decrypt === decrypt && run.processes > 1 === multi);
    const multiRun = pick(false, true) ?? pick(true, true);
    const samples = of
      .filter((run) => !run.decrypt && run.processes === 1)
      .map((run) => rateOf(run))
      .filter((rate): rate is number => rate !== null);
    return {
      ...OPENSSL_CIPHERS[evp],
      source: 'openssl' as const,
      encryptBytesPerSecond:
        samples.length > 1 ? Math.round(median(samples) ?? 0) : rateOf(pick(false, false)),
      decryptBytesPerSecond: rateOf(pick(true, false)),
      allCoresEncryptBytesPerSecond: rateOf(pick(false, true)),
      allCoresDecryptBytesPerSecond: rateOf(pick(true, true)),
      allCoresThreads: multiRun?.processes ?? null,
      messageBytes: of[0]?.messageBytes ?? null,
      argv: [...(pick(false, false) ?? of[0])!.argv],
      ...(samples.length > 1
        ? { encryptSamplesBytesPerSecond: samples.map((rate) => Math.round(rate)) }
        : {}),
    };
  });
}
