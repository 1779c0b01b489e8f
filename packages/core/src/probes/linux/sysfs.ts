import type { DiscardLimits } from '../../domain/device.js';
import type { Host } from '../../ports.js';

/** Reads one sysfs attribute as trimmed text, or null when absent. */
export async function readAttribute(host: Host, path: string): Promise<string | null> {
  const text = await host.readText(path);
  return text === null ? null : text.trim();
}

/** Reads one numeric sysfs attribute, or null when absent or not a number. */
export async function readNumber(host: Host, path: string): Promise<number | null> {
  const text = await readAttribute(host, path);
  if (text === null || !/^-?\d+$/.test(text)) {
    return null;
  }
  return Number(text);
}

/** The sysfs directory of a block device by kernel name (/sys/class/block/<name>). */
export function sysBlockPath(kernelName: string): string {
  return `/sys/class/block/${kernelName}`;
}

/** The discard limits of one layer, from queue/discard_* (kernel Documentation/ABI/stable/sysfs-block). */
export async function readDiscardLimits(host: Host, kernelName: string): Promise<DiscardLimits | null> {
  const base = sysBlockPath(kernelName);
  const [granularity, max, maxHardware, alignment] = await Promise.all([
    readNumber(host, `${base}/queue/discard_granularity`),
    readNumber(host, `${base}/queue/discard_max_bytes`),
    readNumber(host, `${base}/queue/discard_max_hw_bytes`),
    readNumber(host, `${base}/discard_alignment`),
  ]);
  if (granularity === null || max === null) {
    return null;
  }
  return {
    granularityBytes: granularity,
    maxBytes: max,
    maxHardwareBytes: maxHardware ?? max,
    alignmentOffsetBytes: alignment ?? 0,
  };
}
