import { describe, expect, it } from 'vitest';
import { STANDARD_PROFILES, computeOverhead, summarizeRuns, type FioRun, type IoBenchmark, type TargetMeasurement } from '@encplan/core';
import { renderIoBenchmark } from '../../src/render/io-benchmark-table.js';

const MIB = 1024 * 1024;
const run = (bytesPerSecond: number, cpuPercent: number): FioRun => ({
  jobName: 'j', direction: 'read', bytesPerSecond, iops: 1, ioBytes: 1, runtimeMs: 1000, clatP50Ns: null, clatP99Ns: null, clatP999Ns: null,
  cpuUserPercent: 0, cpuSystemPercent: cpuPercent, cpuPercent,
});
const target = (backend: 'plain' | 'fscrypt', bytesPerSecond: number, cpu: number): TargetMeasurement => ({
  backend, variant: backend, ioEngine: 'libaio', directIo: true, fileSizeBytes: 64 * MIB, notes: [],
  profiles: [{ profile: STANDARD_PROFILES[0]!, fioArgv: [], runs: [run(bytesPerSecond, cpu)], summary: summarizeRuns([run(bytesPerSecond, cpu)]) }],
});

describe('renderIoBenchmark', () => {
  it('prints the seeds\' table in MiB/s with ratio, CPU and bound, and lists skipped backends', () => {
    const plain = target('plain', 4064 * MIB, 15);
    const fscrypt = target('fscrypt', 47.8 * MIB, 2);
    const result: IoBenchmark = {
      mode: 'quick', target: '/srv', destructive: false, plain, encrypted: [fscrypt], overhead: computeOverhead(plain, fscrypt, 55 * MIB),
      skipped: [{ backend: 'luks2', variant: 'luks2 sector 4096, no workqueues', code: 'KERNEL_FEATURE_MISSING', message: 'no device-mapper' }],
      cipherBytesPerSecondPerCore: 55 * MIB, wallTimeMs: 30_000,
    };
    const text = renderIoBenchmark(result);
    expect(text).toContain('profile          plain MiB/s  encrypted MiB/s  ratio  CPU % plain/enc   bound');
    expect(text).toContain('SEQ1M Q8T1 read         4064             47.8   0.01             15/2  cipher');
    expect(text).toContain('luks2 sector 4096, no workqueues: not measured (KERNEL_FEATURE_MISSING): no device-mapper');
    expect(text).not.toMatch(/\bMB\/s/);
  });
});
