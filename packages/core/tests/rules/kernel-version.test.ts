import { describe, expect, it } from 'vitest';
import { isKernelAtLeast, parseKernelVersion } from '../../src/rules/kernel-version.js';

describe('kernel version', () => {
  it.each([
    { release: '6.1.0-27-amd64', parsed: [6, 1] },
    { release: '5.10.0', parsed: [5, 10] },
    { release: 'Darwin', parsed: null },
    { release: null, parsed: null },
  ])('parses $release', ({ release, parsed }) => {
    expect(parseKernelVersion(release)).toEqual(parsed);
  });

  it.each([
    { release: '5.9.0', expected: true },
    { release: '5.10.1', expected: true },
    { release: '5.8.99', expected: false },
    { release: '4.19.0', expected: false },
    { release: '6.0.0', expected: true },
    { release: 'unknown', expected: null },
  ])('compares $release with 5.9', ({ release, expected }) => {
    expect(isKernelAtLeast(release, 5, 9)).toBe(expected);
  });
});
