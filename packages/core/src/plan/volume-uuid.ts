/** FNV-1a 32-bit over UTF-16 code units, from a given offset basis (Fowler/Noll/Vo, IETF draft-eastlake-fnv). */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * A UUID for the volume the plan creates, derived from the disk's identity and the planned layout so that the
 * plan stays a deterministic function of its facts and the crypttab line can be written in full before the
 * volume exists (`cryptsetup luksFormat --uuid`). RFC 9562 §5.8 version 8 ("custom"): the variant bits are
 * 10 and the version nibble 8; the other 122 bits come from four FNV-1a hashes with different offset bases.
 * It identifies a volume on one machine; it is not a secret and not random.
 */
export function volumeUuidFor(identity: string): string {
  const words = [0x811c9dc5, 0x050c5d1f, 0x2d358dcc, 0x6c62272e].map((basis) =>
    fnv1a(identity, basis).toString(16).padStart(8, '0'),
  );
  const hex = words.join('');
  const version = `8${hex.slice(13, 16)}`;
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16) + hex.slice(17, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}-${variant}-${hex.slice(20, 32)}`;
}
