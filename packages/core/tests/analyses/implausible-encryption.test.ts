import { describe, expect, it } from 'vitest';
import type { TargetMeasurement } from '../../src/domain/io-benchmark.js';
import { STANDARD_PROFILES } from '../../src/plan/fio-jobs.js';
import { implausibleEncryption } from '../../src/analyses/implausible-encryption.js';

const profile = STANDARD_PROFILES.find((candidate) => candidate.id === 'rnd4k-q1t1-write')!;

function measured(
  backend: TargetMeasurement['backend'],
  runs: readonly number[],
  directIo = true,
): TargetMeasurement {
  return {
    backend,
    variant: backend,
    ioEngine: 'libaio',
    directIo,
    fileSizeBytes: 64 * 1024 * 1024,
    notes: [],
    profiles: [
      {
        profile,
        fioArgv: [],
        runs: [],
        summary: {
          runCount: runs.length,
          medianBytesPerSecond: runs[Math.floor(runs.length / 2)]!,
          minBytesPerSecond: Math.min(...runs),
          maxBytesPerSecond: Math.max(...runs),
          spreadPercent: 0,
          medianIops: 0,
          medianCpuPercent: 0,
          medianClatP50Ns: null,
          medianClatP99Ns: null,
          medianClatP999Ns: null,
        },
      },
    ],
  };
}

describe('implausibleEncryption: a result no encryption can give is refused with why (issue 25)', () => {
  it('refuses a "veracrypt kernel crypto" RND4K write 31 times faster than plain', () => {
    const why = implausibleEncryption(measured('plain', [10e6]), measured('veracrypt', [310e6]));
    expect(why).toContain('31.0× faster encrypted than plain');
    expect(why).toContain('RND4K');
  });

  it('accepts encryption slower than plain, and faster within twice the plain run', () => {
    expect(implausibleEncryption(measured('plain', [10e6, 12e6]), measured('luks2', [9e6]))).toBeNull();
    expect(
      implausibleEncryption(measured('plain', [10e6, 12e6]), measured('luks2', [20e6, 23e6])),
    ).toBeNull();
  });

  it('judges by the spread: the slowest encrypted run against the fastest plain one', () => {
    expect(implausibleEncryption(measured('plain', [5e6, 13e6]), measured('luks2', [25e6, 40e6]))).toBeNull();
    expect(
      implausibleEncryption(measured('plain', [5e6, 12e6]), measured('luks2', [25e6, 40e6])),
    ).not.toBeNull();
  });

  it('leaves fscrypt and buffered runs to the page-cache rules (their O_DIRECT goes through the cache)', () => {
    expect(implausibleEncryption(measured('plain', [10e6]), measured('fscrypt', [310e6]))).toBeNull();
    expect(implausibleEncryption(measured('plain', [10e6]), measured('luks2', [310e6], false))).toBeNull();
  });
});
