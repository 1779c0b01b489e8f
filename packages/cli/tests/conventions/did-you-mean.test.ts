import { describe, expect, it } from 'vitest';
import { suggestCommands } from '../../src/did-you-mean.js';

const COMMANDS = [
  'assess',
  'benchmark ciphers',
  'benchmark io',
  'cleanup',
  'collect',
  'completion',
  'doctor',
  'health',
  'help',
  'plan',
  'schema',
  'ui',
  'version',
];

describe('suggestCommands', () => {
  it.each([
    ['asess', ['assess']],
    ['assses', ['assess']],
    ['halth', ['health']],
    ['benchmark ioo', ['benchmark io']],
    ['benchmark', ['benchmark ciphers', 'benchmark io']],
    ['docter', ['doctor']],
    ['colect', ['collect']],
    ['pln', ['plan']],
    ['Assess', ['assess']],
  ])('suggests %j for %s', (typed, expected) => {
    expect(suggestCommands(typed, COMMANDS)).toEqual(expected);
  });

  it('suggests nothing for a word far from every command, or for nothing at all', () => {
    expect(suggestCommands('encrypt', COMMANDS)).toEqual([]);
    expect(suggestCommands('', COMMANDS)).toEqual([]);
    expect(suggestCommands('zz', COMMANDS)).toEqual([]);
  });

  it('treats a swap of two neighbouring letters as one edit', () => {
    expect(suggestCommands('paln', COMMANDS)).toEqual(['plan']);
  });
});
