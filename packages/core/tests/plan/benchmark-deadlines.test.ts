import { describe, expect, it } from 'vitest';
import {
  SLOWEST_WRITE_BYTES_PER_SECOND,
  veracryptCreateTimeoutMs,
} from '../../src/plan/benchmark-footprint.js';

const MIB = 1024 * 1024;

describe('the deadline of veracrypt --create follows the container size (issue 25)', () => {
  it('is a minute plus every byte at the slowest planned write rate (2 MB/s, SD Speed Class 2)', () => {
    expect(SLOWEST_WRITE_BYTES_PER_SECOND).toBe(2_000_000);
    // 200 MiB: 60 s + 104.9 s, not a flat 600 s.
    expect(veracryptCreateTimeoutMs(200 * MIB)).toBe(60_000 + 104_858);
    expect(veracryptCreateTimeoutMs(200 * MIB)).toBeLessThan(600_000);
  });

  it('grows in proportion to the size: twice the container, twice the writing time', () => {
    const fixed = veracryptCreateTimeoutMs(0);
    expect(fixed).toBe(60_000);
    expect(veracryptCreateTimeoutMs(2048 * MIB) - fixed).toBe(
      2 * (veracryptCreateTimeoutMs(1024 * MIB) - fixed),
    );
  });
});
