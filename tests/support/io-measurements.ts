import { STANDARD_PROFILES, summarizeRuns, type FioRun, type TargetMeasurement } from '@encplan/core';

/** 2^20 bytes. */
export const MIB = 1024 * 1024;

/** A hand-built read run for analysis and rendering tests (domain types, not tool output). */
export function fioRun(bytesPerSecond: number, cpuPercent: number): FioRun {
  return {
    jobName: 'x',
    direction: 'read',
    bytesPerSecond,
    iops: bytesPerSecond / MIB,
    ioBytes: bytesPerSecond,
    runtimeMs: 1000,
    clatP50Ns: 1000,
    clatP99Ns: 2000,
    clatP999Ns: null,
    cpuUserPercent: 0,
    cpuSystemPercent: cpuPercent,
    cpuPercent,
  };
}

/** A target measured on one standard profile (by index into STANDARD_PROFILES). */
export function targetMeasurement(
  backend: 'plain' | 'fscrypt',
  profileIndex: number,
  runs: FioRun[],
): TargetMeasurement {
  return {
    backend,
    variant: backend,
    ioEngine: 'libaio',
    directIo: true,
    fileSizeBytes: 64 * MIB,
    notes: [],
    profiles: [
      { profile: STANDARD_PROFILES[profileIndex]!, fioArgv: [], runs, summary: summarizeRuns(runs) },
    ],
  };
}
