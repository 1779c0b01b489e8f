import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteShellWord, renderShellCommand } from '../../src/plan/shell-quote.js';

/** Runs `printf '%s\0' <line>` through the real /bin/sh and returns the words it received. */
function wordsSeenByShell(line: string): string[] {
  const result = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
  });
  expect(result.status).toBe(0);
  return result.stdout.split('\0').slice(0, -1);
}

// Any string an argv element can hold: every code point but NUL, with the shell's special characters favoured.
const special = fc.constantFrom(...`'"\\$\`!*?[]{}()<>|&;~#= \t\n-%@:,./`.split(''));
const argWord = fc
  .oneof(fc.string({ unit: special }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }))
  .filter((word) => !word.includes('\0'));

describe('quoteShellWord', () => {
  it.each([
    ['plain', 'plain'],
    ['/dev/disk/by-partlabel/encplan', '/dev/disk/by-partlabel/encplan'],
    ['--pbkdf-memory', '--pbkdf-memory'],
    ['', "''"],
    ["it's", `'it'\\''s'`],
    ['a b', "'a b'"],
    ['$(reboot)', "'$(reboot)'"],
    ['~', "'~'"],
    ['*', "'*'"],
  ])('quotes %j as %s', (word, quoted) => {
    expect(quoteShellWord(word)).toBe(quoted);
  });

  it('refuses NUL, which no argument can carry', () => {
    expect(() => quoteShellWord('a\0b')).toThrow(/NUL/);
  });

  it('round-trips any argument list through a real POSIX shell', () => {
    fc.assert(
      fc.property(fc.array(argWord, { minLength: 1, maxLength: 5 }), (words) => {
        expect(wordsSeenByShell(renderShellCommand(words))).toEqual(words);
      }),
      { numRuns: 300 },
    );
  });
});
