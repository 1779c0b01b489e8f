import type { IoBound, Overhead, ProfileMeasurement, TargetMeasurement } from '../domain/io-benchmark.js';

/**
 * Encrypted runs within 10% of plain count as device-bound. encplan's threshold: smaller gaps are of the
 * order of the run-to-run spread reported next to each median, and the smallest published encryption cost
 * the seeds care about is −11% (APFS external SSD writes, published plain-against-encrypted measurements, docs/validation.md case F).
 */
const DEVICE_BOUND_RATIO = 0.9;

/** Beyond run-to-run noise (encplan's threshold, mirroring DEVICE_BOUND_RATIO): encrypted cannot beat plain honestly. */
const FASTER_THAN_PLAIN_RATIO = 1.1;

/**
 * A run reaching 80% of the min()/serial model counts as explained by the cipher: the closest published
 * case reached 80–94% of min(device, cipher) (published plain-against-encrypted measurements, docs/validation.md case A); far below it, dm-crypt's
 * queueing is what is left (published plain-against-encrypted measurements, docs/validation.md case B, Cloudflare, "Speeding up Linux disk encryption", 2020-03-25; dm-crypt no_read_workqueue/no_write_workqueue (Linux 5.9); cryptsetup(8) --perf-*).
 */
const MODEL_EXPLAINED_RATIO = 0.8;

function classify(
  plain: ProfileMeasurement,
  encryptedBytesPerSecond: number,
  cipherBytesPerSecondPerCore: number | null,
): { bound: IoBound; boundReason: string } {
  const device = plain.summary.medianBytesPerSecond;
  if (device > 0 && encryptedBytesPerSecond > FASTER_THAN_PLAIN_RATIO * device) {
    return {
      bound: 'device',
      boundReason:
        'Encrypted is clearly faster than plain, so it did not reach the device the same way: writes were absorbed by the page cache (fscrypt without inline encryption falls back to buffered I/O for O_DIRECT).',
    };
  }
  if (device > 0 && encryptedBytesPerSecond >= DEVICE_BOUND_RATIO * device) {
    return {
      bound: 'device',
      boundReason: 'Encrypted throughput is within 10% of plain: the device sets the pace.',
    };
  }
  if (cipherBytesPerSecondPerCore === null) {
    return {
      bound: 'undetermined',
      boundReason:
        'Encryption costs more than 10%, but no cipher speed was given to tell cipher from queueing limits.',
    };
  }
  const { queueDepth, threads } = plain.profile;
  const cipher = cipherBytesPerSecondPerCore * threads;
  // One request in flight: cipher and device work back to back, so throughput is the serial (harmonic)
  // combination; with a queue the slower stage sets the pace, min() (published plain-against-encrypted measurements, docs/validation.md cases A and C).
  const serial = queueDepth * threads === 1;
  const predicted = serial ? 1 / (1 / device + 1 / cipher) : Math.min(device, cipher);
  const model = serial ? 'the serial model 1/(1/device + 1/cipher)' : 'min(device, cipher)';
  if (encryptedBytesPerSecond >= MODEL_EXPLAINED_RATIO * predicted) {
    return {
      bound: 'cipher',
      boundReason: `Encrypted throughput reaches at least 80% of ${model}: the cipher sets the pace.`,
    };
  }
  return {
    bound: 'queueing',
    boundReason: `Encrypted throughput is below 80% of ${model}; the rest is queueing and per-request work in the encryption layer (or a kernel cipher driver slower than the cipher speed given).`,
  };
}

/**
 * Encrypted ÷ plain per profile (throughput and CPU per byte) and the bound each encrypted run hits.
 * `cipherBytesPerSecondPerCore` is the speed of the cipher on one core (e.g. from the cipher benchmark);
 * without it, runs slower than the device are `undetermined`. Profiles missing on either side are skipped.
 */
export function computeOverhead(
  plain: TargetMeasurement,
  encrypted: TargetMeasurement,
  cipherBytesPerSecondPerCore: number | null = null,
): Overhead[] {
  return encrypted.profiles.flatMap((measurement) => {
    const base = plain.profiles.find((candidate) => candidate.profile.id === measurement.profile.id);
    if (base === undefined) {
      return [];
    }
    const plainBytesPerSecond = base.summary.medianBytesPerSecond;
    const encryptedBytesPerSecond = measurement.summary.medianBytesPerSecond;
    const plainCpuPercent = base.summary.medianCpuPercent;
    const encryptedCpuPercent = measurement.summary.medianCpuPercent;
    const perByte = plainBytesPerSecond > 0 && encryptedBytesPerSecond > 0 && plainCpuPercent > 0;
    return [
      {
        profileId: measurement.profile.id,
        profileLabel: measurement.profile.label,
        direction: measurement.profile.direction,
        backend: encrypted.backend,
        variant: encrypted.variant,
        plainBytesPerSecond,
        encryptedBytesPerSecond,
        throughputRatio: plainBytesPerSecond > 0 ? encryptedBytesPerSecond / plainBytesPerSecond : null,
        plainCpuPercent,
        encryptedCpuPercent,
        cpuPerByteRatio: perByte
          ? encryptedCpuPercent / encryptedBytesPerSecond / (plainCpuPercent / plainBytesPerSecond)
          : null,
        ...classify(base, encryptedBytesPerSecond, cipherBytesPerSecondPerCore),
      },
    ];
  });
}
