import { z } from 'zod';
import { EncplanError } from '../../errors.js';
import type { FioOutput, FioRun, IoDirection } from '../../domain/io-benchmark.js';

/** Larger than any fio JSON of a few jobs; the runner's own output cap is 64 MiB too. */
const MAX_INPUT_CHARS = 64 * 1024 * 1024;

const percentileSchema = z.record(z.string(), z.number());
const latencySchema = z.looseObject({ percentile: percentileSchema.optional() });
const directionSchema = z.looseObject({
  io_bytes: z.number().nonnegative(),
  // bw is KiB/s (fio HOWTO.rst, stat.c); bw_bytes (B/s) exists from fio 3.2 on, not in the fio 3.1 fixtures.
  bw: z.number().nonnegative(),
  bw_bytes: z.number().nonnegative().optional(),
  iops: z.number().nonnegative(),
  runtime: z.number().nonnegative(),
  clat_ns: latencySchema.optional(),
});
const jobSchema = z.looseObject({
  jobname: z.string(),
  error: z.number().int(),
  usr_cpu: z.number().nonnegative(),
  sys_cpu: z.number().nonnegative(),
  'job options': z.record(z.string(), z.unknown()).optional(),
  read: directionSchema,
  write: directionSchema,
});
const documentSchema = z.looseObject({
  'fio version': z.string(),
  jobs: z.array(jobSchema).min(1),
});
type FioJob = z.infer<typeof jobSchema>;

function unrecognized(message: string, details: Record<string, unknown> = {}): EncplanError {
  return new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', `fio JSON output not recognised: ${message}`, {
    hint: 'Run fio with --output-format=json --output=<file>; encplan reads fio 3.1 and later.',
    details: { tool: 'fio', ...details },
  });
}

/** Splits text fio wrote before the JSON (macOS fio 3.33/3.34 fixtures) from the JSON document itself. */
function splitPreamble(text: string): { preambleLines: string[]; json: string } {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => line.startsWith('{'));
  if (start < 0) {
    throw unrecognized('no JSON document found.', {
      preambleLines: lines.filter((l) => l.trim() !== '').slice(0, 20),
    });
  }
  return {
    preambleLines: lines.slice(0, start).filter((line) => line.trim() !== ''),
    json: lines.slice(start).join('\n'),
  };
}

function percentile(latency: z.infer<typeof latencySchema> | undefined, key: string): number | null {
  // fio prints percentile keys with six decimals ("99.900000"), see the fio 3.1 and 3.3x fixtures.
  const value = latency?.percentile?.[key];
  return value === undefined ? null : Math.round(value);
}

function directionsOf(job: FioJob): IoDirection[] {
  const moved = (['read', 'write'] as const).filter((direction) => job[direction].io_bytes > 0);
  if (moved.length > 0) {
    return moved;
  }
  // A job that moved nothing (interrupted at once) still reports the direction it was asked for.
  const rw = job['job options']?.rw;
  if (typeof rw === 'string') {
    if (/^(rand)?read$/.test(rw)) {
      return ['read'];
    }
    if (/^(rand)?write$/.test(rw)) {
      return ['write'];
    }
  }
  return ['read', 'write'];
}

/**
 * Bytes per second from what fio counted: `io_bytes` over `runtime` (ms). fio's own `bw` is KiB/s rounded down to
 * a whole number (fio 3.1, stat.c: `bw = io_kb * 1000 / runtime` in integer arithmetic), which is 6 % off at
 * 16 KiB/s; `bw_bytes` (fio >= 3.2) is the same quotient in bytes. Falls back to them when nothing was counted.
 */
function exactBytesPerSecond(stats: FioJob['read']): number {
  if (stats.io_bytes > 0 && stats.runtime > 0) {
    return Math.round((stats.io_bytes * 1000) / stats.runtime);
  }
  return Math.round(stats.bw_bytes ?? stats.bw * 1024);
}

function toRun(job: FioJob, direction: IoDirection): FioRun {
  const stats = job[direction];
  const cpuUserPercent = job.usr_cpu;
  const cpuSystemPercent = job.sys_cpu;
  return {
    jobName: job.jobname,
    direction,
    bytesPerSecond: exactBytesPerSecond(stats),
    iops: stats.iops,
    ioBytes: Math.round(stats.io_bytes),
    runtimeMs: Math.round(stats.runtime),
    clatP50Ns: percentile(stats.clat_ns, '50.000000'),
    clatP99Ns: percentile(stats.clat_ns, '99.000000'),
    clatP999Ns: percentile(stats.clat_ns, '99.900000'),
    cpuUserPercent,
    cpuSystemPercent,
    cpuPercent: cpuUserPercent + cpuSystemPercent,
  };
}

/**
 * Parses the file fio wrote with `--output-format=json --output=<file>`. Text before the JSON is kept as
 * `preambleLines`. Throws TOOL_OUTPUT_UNRECOGNIZED on anything that is not fio ≥ 3.1 JSON, and TOOL_FAILED
 * when a job reports a non-zero `error` (an errno, e.g. 22 = EINVAL), with fio's own error lines as details.
 */
export function parseFioJson(text: string): FioOutput {
  if (text.length > MAX_INPUT_CHARS) {
    throw unrecognized(`the output is larger than ${MAX_INPUT_CHARS} characters.`);
  }
  const { preambleLines, json } = splitPreamble(text);
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw unrecognized('the JSON document is malformed or truncated.', {
      preambleLines,
      cause: String(error),
    });
  }
  const parsed = documentSchema.safeParse(raw);
  if (!parsed.success) {
    throw unrecognized('required fields are missing or have the wrong type.', {
      preambleLines,
      issues: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    });
  }
  const failed = parsed.data.jobs.find((job) => job.error !== 0);
  if (failed !== undefined) {
    throw new EncplanError('TOOL_FAILED', `fio job "${failed.jobname}" failed with error ${failed.error}.`, {
      hint:
        preambleLines.length > 0
          ? `fio said: ${preambleLines.join(' | ')}`
          : 'Run the fio command shown in details by hand.',
      details: { tool: 'fio', jobName: failed.jobname, errno: failed.error, errorLines: preambleLines },
    });
  }
  return {
    fioVersion: parsed.data['fio version'],
    runs: parsed.data.jobs.flatMap((job) => directionsOf(job).map((direction) => toRun(job, direction))),
    preambleLines,
  };
}
