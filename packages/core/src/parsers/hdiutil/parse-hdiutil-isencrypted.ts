import { EncplanError } from '../../errors.js';

/**
 * Reads `hdiutil isencrypted IMAGE` (text form). hdiutil(1) "isencrypted: print whether IMAGE is encrypted,
 * and if so, its encryption details"; an unencrypted image prints the single line `encrypted: NO`, an
 * encrypted one `encrypted: YES` followed by its details (blocksize, uuid, key counts). encplan reads only that
 * line: no public capture of the whole encrypted answer was found, so the details are not parsed.
 */
export function parseHdiutilIsEncrypted(text: string): { readonly encrypted: boolean } {
  const match = /^encrypted:\s*(YES|NO)\s*$/m.exec(text);
  if (match === null) {
    throw new EncplanError('TOOL_OUTPUT_UNRECOGNIZED', 'hdiutil isencrypted printed no "encrypted:" line.', {
      details: { tool: 'hdiutil' },
    });
  }
  return { encrypted: match[1] === 'YES' };
}
