/** The prefix that marks a hashed identifier; hashing one again leaves it as it is. */
const HASH_PREFIX = 'sha256:';

/**
 * Hashes a serial number or WWN for reports and bundles (the first 16 hex digits of SHA-256), unless the
 * user asked to keep serials. Idempotent, so a bundle made with hashed serials replays to the same report.
 */
export async function protectIdentifier(value: string | null, keep: boolean): Promise<string | null> {
  if (value === null || keep || value.startsWith(HASH_PREFIX)) {
    return value;
  }
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${HASH_PREFIX}${hex.slice(0, 16)}`;
}
