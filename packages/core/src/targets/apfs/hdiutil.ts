import { EncplanError } from '../../errors.js';
import type { CommandSpec } from '../../ports.js';

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

/** An absolute `.dmg` path (hdiutil(1) names the image by its path; a path starting with "-" would be an option). */
function assertImagePath(imagePath: string): void {
  if (!imagePath.startsWith('/') || !imagePath.endsWith('.dmg')) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `The image path must be absolute and end in .dmg: ${imagePath}`,
    );
  }
}

/**
 * `hdiutil create -size …m -fs APFS -volname … [-encryption AES-256 -stdinpass] IMAGE.dmg`: a scratch APFS disk
 * image for plain-versus-encrypted measurements on a Mac, plain (`passphrase` null) or encrypted. hdiutil(1):
 * "-stdinpass: read a null-terminated passphrase from standard input", so the passphrase goes on stdin with a
 * NUL, never in argv; `-encryption` takes AES-128 or AES-256.
 */
export function hdiutilCreateImage(request: {
  readonly imagePath: string;
  readonly volumeName: string;
  readonly sizeMebibytes: number;
  readonly encryption: { readonly keyBits: 128 | 256; readonly passphrase: string } | null;
}): CommandSpec {
  assertScratchName(request.volumeName);
  assertImagePath(request.imagePath);
  if (!Number.isInteger(request.sizeMebibytes) || request.sizeMebibytes < 64) {
    throw new EncplanError('INVALID_ARGUMENT', 'A test image needs at least 64 MiB.');
  }
  const args = ['create', '-size', `${String(request.sizeMebibytes)}m`, '-fs', 'APFS'];
  args.push('-volname', request.volumeName);
  if (request.encryption === null) {
    return { tool: 'hdiutil', args: [...args, request.imagePath], timeoutMs: 120_000 };
  }
  assertPassphrase(request.encryption.passphrase);
  return {
    tool: 'hdiutil',
    args: [
      ...args,
      '-encryption',
      `AES-${String(request.encryption.keyBits)}`,
      '-stdinpass',
      request.imagePath,
    ],
    stdin: `${request.encryption.passphrase}\0`,
    timeoutMs: 120_000,
  };
}

/** {@link hdiutilCreateImage} of an encrypted image. */
export function hdiutilCreateEncryptedImage(request: {
  readonly imagePath: string;
  readonly volumeName: string;
  readonly sizeMebibytes: number;
  readonly keyBits: 128 | 256;
  readonly passphrase: string;
}): CommandSpec {
  return hdiutilCreateImage({
    imagePath: request.imagePath,
    volumeName: request.volumeName,
    sizeMebibytes: request.sizeMebibytes,
    encryption: { keyBits: request.keyBits, passphrase: request.passphrase },
  });
}

/**
 * `hdiutil attach -nobrowse -owners on -mountpoint DIR [-stdinpass] IMAGE.dmg`. hdiutil(1): `-nobrowse` keeps
 * the volume out of the Finder, `-owners on` honours file ownership on it (so fio's files belong to the user
 * who runs encplan), `-mountpoint` mounts at the given directory instead of under /Volumes; `-stdinpass`
 * reads the passphrase of an encrypted image from stdin (NUL-terminated), never argv.
 */
export function hdiutilAttach(request: {
  readonly imagePath: string;
  readonly mountPoint: string;
  readonly passphrase: string | null;
}): CommandSpec {
  assertImagePath(request.imagePath);
  if (!request.mountPoint.startsWith('/')) {
    throw new EncplanError('INVALID_ARGUMENT', `The mount point must be absolute: ${request.mountPoint}`);
  }
  const args = ['attach', '-nobrowse', '-owners', 'on', '-mountpoint', request.mountPoint];
  if (request.passphrase === null) {
    return { tool: 'hdiutil', args: [...args, request.imagePath], timeoutMs: 120_000 };
  }
  assertPassphrase(request.passphrase);
  return {
    tool: 'hdiutil',
    args: [...args, '-stdinpass', request.imagePath],
    stdin: `${request.passphrase}\0`,
    timeoutMs: 120_000,
  };
}

/** `hdiutil isencrypted IMAGE.dmg`: whether the image is encrypted (hdiutil(1) "isencrypted"). */
export function hdiutilIsEncrypted(imagePath: string): CommandSpec {
  assertImagePath(imagePath);
  return { tool: 'hdiutil', args: ['isencrypted', imagePath], timeoutMs: 60_000 };
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
