import { EncplanError } from '../errors.js';
import type { CommandSpec } from '../ports.js';

/** A scratch volume name encplan creates: letters, digits and dashes only, so it is never an option. */
function assertScratchName(name: string): void {
  if (!/^encplan-[A-Za-z0-9-]{1,40}$/.test(name)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `${JSON.stringify(name)} is not an encplan scratch volume name (encplan-…).`,
    );
  }
}

function assertPassphrase(passphrase: string): void {
  // hdiutil reads up to the first NUL (hdiutil(1) -stdinpass), diskutil to the end of the line.
  if (passphrase === '' || /[\0\n\r]/.test(passphrase)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      'A scratch passphrase must be non-empty and hold no NUL or line break.',
    );
  }
}

/**
 * `hdiutil create -encryption AES-256 -stdinpass …`: an encrypted APFS disk image for plain-versus-encrypted
 * measurements on a Mac. hdiutil(1): "-stdinpass: read a null-terminated passphrase from standard input",
 * so the passphrase goes on stdin with a NUL, never in argv; `-encryption` takes AES-128 or AES-256.
 */
export function hdiutilCreateEncryptedImage(request: {
  readonly imagePath: string;
  readonly volumeName: string;
  readonly sizeMebibytes: number;
  readonly keyBits: 128 | 256;
  readonly passphrase: string;
}): CommandSpec {
  assertScratchName(request.volumeName);
  assertPassphrase(request.passphrase);
  if (!request.imagePath.startsWith('/') || !request.imagePath.endsWith('.dmg')) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The image path must be absolute and end in .dmg: ${request.imagePath}`,
    );
  }
  if (!Number.isInteger(request.sizeMebibytes) || request.sizeMebibytes < 64) {
    throw new EncplanError('INVALID_ARGUMENT', 'An encrypted test image needs at least 64 MiB.');
  }
  return {
    tool: 'hdiutil',
    args: [
      'create',
      '-size',
      `${String(request.sizeMebibytes)}m`,
      '-fs',
      'APFS',
      '-volname',
      request.volumeName,
      '-encryption',
      `AES-${String(request.keyBits)}`,
      '-stdinpass',
      request.imagePath,
    ],
    stdin: `${request.passphrase}\0`,
    timeoutMs: 120_000,
  };
}

/**
 * `diskutil apfs addVolume <container> APFS <name> -stdinpassphrase`: an encrypted scratch volume in an
 * existing APFS container (it shares the container's free space, so nothing is repartitioned). diskutil(8)
 * apfs addVolume: "-stdinpassphrase" reads the passphrase from stdin; `-passphrase` would put it in argv
 * and is never used. The plain twin is the same call without encryption.
 */
export function diskutilAddScratchVolume(request: {
  readonly container: string;
  readonly volumeName: string;
  readonly passphrase: string | null;
}): CommandSpec {
  assertScratchName(request.volumeName);
  if (!/^disk\d+$/.test(request.container)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `${JSON.stringify(request.container)} is not an APFS container reference (diskN).`,
    );
  }
  const args = ['apfs', 'addVolume', request.container, 'APFS', request.volumeName];
  if (request.passphrase === null) {
    return { tool: 'diskutil', args, timeoutMs: 60_000 };
  }
  assertPassphrase(request.passphrase);
  return {
    tool: 'diskutil',
    args: [...args, '-stdinpassphrase'],
    stdin: `${request.passphrase}\n`,
    timeoutMs: 60_000,
  };
}
