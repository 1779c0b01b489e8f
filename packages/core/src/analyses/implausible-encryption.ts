import type { TargetMeasurement } from '../domain/io-benchmark.js';
import { benchmarksThroughPageCache } from '../targets/registry.js';

/**
 * How much faster than plain storage an encrypted target may measure before the figure is refused: a factor of
 * two above the plain run's best. Encryption only adds work on the I/O path; in Cloudflare's dm-crypt
 * measurements ("Speeding up Linux disk encryption", 2020-03-25) the encrypted device never beat the plain one,
 * and a quick run has one sample per profile, so no spread can be computed to judge smaller differences by.
 */
const IMPLAUSIBLE_SPEEDUP = 2;

/**
 * Why a measurement of an encrypted target cannot be a measurement of encryption, or null when it can: a
 * profile whose slowest encrypted run is more than IMPLAUSIBLE_SPEEDUP times the fastest plain run (beyond the
 * plain run's whole spread). Only for targets whose I/O bypasses the page cache (O_DIRECT on a block device:
 * dm-crypt); fscrypt serves O_DIRECT through the page cache by design (kernel fscrypt.rst, "Direct I/O
 * support"), which the plan's ratios treat separately.
 */
export function implausibleEncryption(plain: TargetMeasurement, encrypted: TargetMeasurement): string | null {
  if (!encrypted.directIo || benchmarksThroughPageCache(encrypted.backend)) {
    return null;
  }
  for (const profile of encrypted.profiles) {
    const base = plain.profiles.find((candidate) => candidate.profile.id === profile.profile.id);
    if (base === undefined || base.summary.maxBytesPerSecond <= 0) {
      continue;
    }
    const ratio = profile.summary.minBytesPerSecond / base.summary.maxBytesPerSecond;
    if (ratio > IMPLAUSIBLE_SPEEDUP) {
      return `${profile.profile.label} ${profile.profile.direction} measured ${ratio.toFixed(1)}× faster encrypted than plain (slowest encrypted run ${profile.summary.minBytesPerSecond} B/s against the fastest plain run ${base.summary.maxBytesPerSecond} B/s): encryption cannot make storage faster, so this was not a measurement of encrypted storage (a page cache, or a tool that did not encrypt).`;
    }
  }
  return null;
}
