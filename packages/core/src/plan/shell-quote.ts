import { InvariantError } from '../errors.js';

/** Characters that never need quoting in a POSIX shell word (no globbing, expansion, or word splitting). */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one argument for a POSIX shell so that the shell passes exactly `word` to the program: left bare
 * when it has only safe characters, else single-quoted with each `'` written as `'\''`. Throws on NUL,
 * which no argv element can contain.
 */
export function quoteShellWord(word: string): string {
  if (word.includes('\0')) {
    throw new InvariantError('An argument cannot contain a NUL byte.');
  }
  if (SAFE_WORD.test(word)) {
    return word;
  }
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** An argv array as one copy-pasteable POSIX shell command line. */
export function renderShellCommand(argv: readonly string[]): string {
  return argv.map(quoteShellWord).join(' ');
}
