import type { FioRun, RunSummary } from '../domain/io-benchmark.js';
import { median } from '../domain/statistics.js';

export { median };

function medianInt(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  const result = median(present);
  return result === null ? null : Math.round(result);
}

/**
 * Summarises repeated runs of one profile: median throughput, IOPS, CPU and latency, and the spread
 * (max − min) / median. CrystalDiskMark keeps the maximum (CrystalDiskMark DiskMark/DiskBench.cpp, DiskMarkDlg.cpp); encplan reports the median
 * so one lucky run cannot decide a recommendation, and shows the spread so the reader sees the noise.
 */
export function summarizeRuns(runs: readonly FioRun[]): RunSummary {
  const throughput = runs.map((run) => run.bytesPerSecond);
  const medianBytesPerSecond = Math.round(median(throughput) ?? 0);
  const minBytesPerSecond = throughput.length === 0 ? 0 : Math.min(...throughput);
  const maxBytesPerSecond = throughput.length === 0 ? 0 : Math.max(...throughput);
  return {
    runCount: runs.length,
    medianBytesPerSecond,
    minBytesPerSecond,
    maxBytesPerSecond,
    spreadPercent:
      medianBytesPerSecond === 0 ? 0 : ((maxBytesPerSecond - minBytesPerSecond) / medianBytesPerSecond) * 100,
    medianIops: median(runs.map((run) => run.iops)) ?? 0,
    medianCpuPercent: median(runs.map((run) => run.cpuPercent)) ?? 0,
    medianClatP50Ns: medianInt(runs.map((run) => run.clatP50Ns)),
    medianClatP99Ns: medianInt(runs.map((run) => run.clatP99Ns)),
    medianClatP999Ns: medianInt(runs.map((run) => run.clatP999Ns)),
  };
}
