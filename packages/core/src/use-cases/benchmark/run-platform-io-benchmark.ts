import { EncplanError } from '../../errors.js';
import { BENCHMARKS, benchmarkOf } from '../../targets/registry.js';
import type { Host } from '../../ports.js';
import { runDarwinIoBenchmark } from './run-darwin-io-benchmark.js';
import { runIoBenchmark, type IoBenchmarkOptions, type IoBenchmarkOutcome } from './run-io-benchmark.js';

/**
 * `encplan benchmark io TARGET` on the platform it runs on. Linux: scratch filesystems on loop devices, or a
 * whole device with --destructive (run-io-benchmark.ts). macOS has no loop devices: a plain and an AES-256
 * encrypted APFS disk image in TARGET, the same runner `assess diskN --benchmark` uses there
 * (run-darwin-io-benchmark.ts); a raw device and the Linux backends are refused with the reason.
 */
export async function runPlatformIoBenchmark(
  host: Host,
  options: IoBenchmarkOptions,
): Promise<IoBenchmarkOutcome> {
  if (host.platform !== 'darwin') {
    return runIoBenchmark(host, options);
  }
  const info = await host.stat(options.target);
  if (info?.kind !== 'directory') {
    throw new EncplanError(
      info === null ? 'DEVICE_NOT_FOUND' : 'INVALID_ARGUMENT',
      info === null
        ? `${options.target} does not exist.`
        : `On macOS, encplan benchmark io measures disk images in a directory; ${options.target} is not one.`,
      { hint: 'Give a directory on the volume to measure, e.g. /Volumes/External.' },
    );
  }
  const onMac = BENCHMARKS.filter(
    (benchmark) => benchmark.selectable && benchmark.platforms.some((on) => on === 'darwin'),
  ).map((benchmark) => benchmark.backendId);
  const linuxOnly =
    options.backends === 'auto'
      ? []
      : options.backends.filter((id) => benchmarkOf(id) !== null && !onMac.includes(id));
  if (linuxOnly.length > 0) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `On macOS only the ${onMac.join(', ')} backend (an encrypted disk image) is measured, not ${linuxOnly.join(', ')}.`,
      { hint: `Leave --backend out, or give ${onMac.map((id) => `--backend ${id}`).join(' or ')}.` },
    );
  }
  return runDarwinIoBenchmark(host, {
    volume: { volume: options.target, mountPoint: options.target, workParent: options.target },
    mode: options.mode,
    ...(options.quickRevision === undefined ? {} : { quickRevision: options.quickRevision }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}
