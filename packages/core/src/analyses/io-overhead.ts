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

/** Slack on the faster-than-plain test beyond the runs' own spread (io-overhead FASTER_THAN_PLAIN_RATIO). */
const CACHE_MARGIN = 1.1;

/**
 * An encrypted direct-I/O result faster than the plain one beyond both runs' spread: the page cache, not the
 * cipher, served it (fscrypt without inline encryption serves O_DIRECT through the page cache: Linux
 * Documentation/filesystems/fscrypt.rst "Direct I/O support"). Its slowest run must beat the plain run's
 * fastest by more than {@link CACHE_MARGIN}.
 */
export function cacheAbsorbed(
  plain:
    | {
        readonly minBytesPerSecond?: number;
        readonly maxBytesPerSecond?: number;
        readonly medianBytesPerSecond?: number;
      }
    | undefined,
  encrypted:
    | {
        readonly minBytesPerSecond?: number;
        readonly maxBytesPerSecond?: number;
        readonly medianBytesPerSecond?: number;
      }
    | undefined,
): boolean {
  const plainHigh = plain?.maxBytesPerSecond ?? plain?.medianBytesPerSecond ?? null;
  const encryptedLow = encrypted?.minBytesPerSecond ?? encrypted?.medianBytesPerSecond ?? null;
  return (
    plainHigh !== null && plainHigh > 0 && encryptedLow !== null && encryptedLow > CACHE_MARGIN * plainHigh
  );
}

/** The reason every view gives for a result left out as page-cache speed (see {@link computeOverhead}). */
export const PAGE_CACHE_REASON =
  'Left out: the encrypted run beat plain beyond both runs\' spread, so the page cache served it, not the cipher (fscrypt without inline encryption serves O_DIRECT through the page cache, kernel fscrypt.rst "Direct I/O support"). It is no encryption speed and is kept out of ratios, charts and the answer.';

/**
 * The published case of a light load hiding the cost: about 1 % from fio at ~75k IOPS, about half the read
 * throughput under a heavier diskspd load, on the same LUKS2 volume (harvester/harvester#11442, comment of
 * 2026-09-10, "Encryption overhead: guest-side measurement").
 */
const LIGHT_LOAD_EXAMPLE =
  'on one LUKS2 volume fio at about 75k IOPS showed about 1 %, a heavier diskspd load about half the read throughput (harvester/harvester#11442)';

function classify(
  plain: ProfileMeasurement,
  encrypted: ProfileMeasurement,
  cipherBytesPerSecondPerCore: number | null,
): { bound: IoBound; boundReason: string } {
  const device = plain.summary.medianBytesPerSecond;
  const encryptedBytesPerSecond = encrypted.summary.medianBytesPerSecond;
  if (cacheAbsorbed(plain.summary, encrypted.summary)) {
    return { bound: 'undetermined', boundReason: PAGE_CACHE_REASON };
  }
  if (device > 0 && encryptedBytesPerSecond > FASTER_THAN_PLAIN_RATIO * device) {
    return {
      bound: 'device',
      boundReason:
        "Encrypted is faster than plain, but within the runs' spread: the device sets the pace and the difference is noise.",
    };
  }
  if (device > 0 && encryptedBytesPerSecond >= DEVICE_BOUND_RATIO * device) {
    const ceiling =
      cipherBytesPerSecondPerCore === null ? null : cipherBytesPerSecondPerCore * plain.profile.threads;
    return {
      bound: 'device',
      boundReason:
        ceiling !== null && device >= ceiling
          ? "Encrypted throughput is within 10% of plain while the plain load reached the cipher's ceiling: no measurable cost."
          : `Encrypted throughput is within 10% of plain: the device sets the pace at this load. The load was too light to tell the cost: it stayed below the cipher's ceiling${ceiling === null ? ' (unknown here)' : ''}, and a heavier load can lose much more (${LIGHT_LOAD_EXAMPLE}).`,
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
    // A page-cache figure is no encryption cost: no ratio is computed from it.
    const absorbed = cacheAbsorbed(base.summary, measurement.summary);
    const perByte =
      !absorbed && plainBytesPerSecond > 0 && encryptedBytesPerSecond > 0 && plainCpuPercent > 0;
    return [
      {
        profileId: measurement.profile.id,
        profileLabel: measurement.profile.label,
        direction: measurement.profile.direction,
        backend: encrypted.backend,
        variant: encrypted.variant,
        plainBytesPerSecond,
        encryptedBytesPerSecond,
        throughputRatio:
          !absorbed && plainBytesPerSecond > 0 ? encryptedBytesPerSecond / plainBytesPerSecond : null,
        plainCpuPercent,
        encryptedCpuPercent,
        cpuPerByteRatio: perByte
          ? encryptedCpuPercent / encryptedBytesPerSecond / (plainCpuPercent / plainBytesPerSecond)
          : null,
        ...classify(base, measurement, cipherBytesPerSecondPerCore),
      },
    ];
  });
}
