import { describe, expect, it } from 'vitest';
import { computeOverhead } from '../../src/analyses/io-overhead.js';
import type { IoBenchmark } from '../../src/domain/io-benchmark.js';
import { MIB, fioRun, targetMeasurement } from '../../../../tests/support/io-measurements.js';
import { renderIoBenchmark } from '../../src/report/io-benchmark-text.js';

const target = (backend: 'plain' | 'fscrypt', bytesPerSecond: number, cpu: number) =>
  targetMeasurement(backend, 0, [fioRun(bytesPerSecond, cpu)]);

describe('renderIoBenchmark', () => {
  it("prints the seeds' table in MiB/s with ratio, CPU and bound, and lists skipped backends", () => {
    const plain = target('plain', 4064 * MIB, 15);
    const fscrypt = target('fscrypt', 47.8 * MIB, 2);
    const result: IoBenchmark = {
      mode: 'quick',
      target: '/srv',
      destructive: false,
      plain,
      encrypted: [fscrypt],
      overhead: computeOverhead(plain, fscrypt, 55 * MIB),
      skipped: [
        {
          backend: 'luks2',
          variant: 'luks2 sector 4096, no workqueues',
          code: 'KERNEL_FEATURE_MISSING',
          message: 'no device-mapper',
        },
      ],
      cipherBytesPerSecondPerCore: 55 * MIB,
      wallTimeMs: 30_000,
    };
    const text = renderIoBenchmark(result);
    expect(text).toContain('profile          plain MiB/s  encrypted MiB/s  ratio  CPU % plain/enc   bound');
    expect(text).toContain('SEQ1M Q8T1 read         4064             47.8   0.01             15/2  cipher');
    expect(text).toContain(
      'luks2 sector 4096, no workqueues: not measured (KERNEL_FEATURE_MISSING): no device-mapper',
    );
    expect(text).not.toMatch(/\bMB\/s/);
  });
});
