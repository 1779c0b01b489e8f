import { afterEach, describe, expect, it, vi } from 'vitest';
import { benchmarkProgress } from '../src/disk-reading.js';

afterEach(() => vi.restoreAllMocks());

describe('benchmarkProgress: the steps and runs of --benchmark on stderr', () => {
  it('gives no sink without --benchmark', async () => {
    expect(await benchmarkProgress(false)).toEqual({});
  });

  it('gives the step line and the progress sink with --benchmark (the progress bar loaded then)', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const progress = await benchmarkProgress(true);
    progress.onProgress?.('reading the drive');
    progress.onBenchmarkProgress?.({
      phase: 'measure',
      fraction: 0.5,
      runIndex: 1,
      runCount: 2,
      etaMs: null,
      message: 'luks2: SEQ1M Q8T1 read (run 1 of 2)',
    });
    expect(written.join('')).toContain('encplan: reading the drive');
    expect(written.join('')).toContain('luks2: SEQ1M Q8T1 read (run 1 of 2)');
  });
});
