/**
 * POSIX path helpers for the benchmark (Linux and macOS only), so the use case needs no node:path and names
 * the same files when replayed from a bundle on any machine.
 */
export const PATH_SEPARATOR = '/';

/** Joins path parts with single slashes, like path.posix.join for absolute or relative parts without "..". */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((part) => part !== '').join(PATH_SEPARATOR);
  return joined.replace(/\/{2,}/g, PATH_SEPARATOR).replace(/(.)\/$/, '$1');
}

/** The last component of a path. */
export function baseName(file: string): string {
  const trimmed = file.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf(PATH_SEPARATOR) + 1);
}

/** Random text for throwaway passwords (Web Crypto, available in Node and browsers): URL-safe base64. */
export function randomToken(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return btoa(String.fromCharCode(...buffer))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
