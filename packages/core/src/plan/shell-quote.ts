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

/** Characters that never need quoting in a PowerShell argument (no variables, sub-expressions, arrays or splats). */
const SAFE_POWERSHELL_WORD = /^[A-Za-z0-9_:./\\=+-]+$/;

/**
 * Quotes one argument for PowerShell: bare when it has only safe characters, else single-quoted (a verbatim
 * string) with each `'` doubled (about_Quoting_Rules). Throws on NUL.
 */
function quotePowerShellWord(word: string): string {
  if (word.includes('\0')) {
    throw new InvariantError('An argument cannot contain a NUL byte.');
  }
  return SAFE_POWERSHELL_WORD.test(word) ? word : `'${word.replaceAll("'", "''")}'`;
}

/**
 * An argv array as one PowerShell command line. A quoted program path is run with the call operator `&`
 * (about_Operators), as PowerShell would otherwise read it as a string.
 */
export function renderPowerShellCommand(argv: readonly string[]): string {
  const [program = '', ...args] = argv;
  const head = quotePowerShellWord(program);
  return [head === program ? head : `& ${head}`, ...args.map(quotePowerShellWord)].join(' ');
}
