import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from '@encplan/core';
import { parseByteSize } from '../../src/domain/units.js';

describe('parseByteSize', () => {
  it.each([
    ['2147483648', 2_147_483_648],
    ['2GiB', 2_147_483_648],
    ['2G', 2_147_483_648],
    ['512 MiB', 536_870_912],
    ['1.5GiB', 1_610_612_736],
    ['lots', null],
    ['0', null],
    ['-1GiB', null],
    ['2 GB', null],
  ])('reads %j as %s', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });
});

describe('formatting', () => {
  it.each([
    [0.4, '0.40 s'],
    [90, '1.5 min'],
    [7200, '2.0 h'],
    [86_400 * 81, '81 days'],
    [2.19e8, '6.9 years'],
    [2.87e11, '9094 years'],
    [7e15, '2.2e+8 years'],
  ])('says %d seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([
    [512, '512 B'],
    [1_048_576, '1.0 MiB'],
    [27_090_149_376, '25.2 GiB'],
  ])('says %d bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
