import path from 'node:path';
import { parseBundle, type Bundle } from '../capture/bundle.js';
import { EncplanError, isEncplanError } from '../errors.js';
import { inspectUserPath, MAX_BUNDLE_BYTES, readUserFile } from './user-files.js';
import { writeUserFile } from './write-user-file.js';

/** The file inside a bundle directory. */
export const BUNDLE_FILE = 'bundle.json';

/** Writes a bundle directory (created if needed; an existing bundle.json is not overwritten). */
export async function writeBundleDirectory(directory: string, bundle: Bundle): Promise<string> {
  const file = path.join(directory, BUNDLE_FILE);
  await writeUserFile(file, `${JSON.stringify(bundle, null, 2)}\n`, {
    what: 'bundle',
    mode: 0o600,
    exclusive: true,
    createFolder: true,
  });
  return file;
}

/**
 * Reads and validates a bundle directory (or a bundle.json file), cancellable and within MAX_BUNDLE_BYTES; a
 * FIFO, a device or a socket is refused before it is opened. Throws INVALID_ARGUMENT or BUNDLE_INVALID.
 */
export async function readBundleDirectory(location: string, signal?: AbortSignal): Promise<Bundle> {
  const hint = 'Give a directory made by encplan collect.';
  const kind = await inspectUserPath(location, 'bundle', 'file-or-directory', hint);
  const file = kind === 'directory' ? path.join(location, BUNDLE_FILE) : location;
  const text = await readUserFile(file, {
    what: 'bundle',
    maxBytes: MAX_BUNDLE_BYTES,
    hint,
    ...(signal === undefined ? {} : { signal }),
  }).catch((error: unknown) => {
    if (kind === 'directory' && isEncplanError(error, 'INVALID_ARGUMENT')) {
      throw new EncplanError(
        'BUNDLE_INVALID',
        `${location} holds no readable ${BUNDLE_FILE}: ${error.message}`,
        { hint, cause: error },
      );
    }
    throw error;
  });
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new EncplanError('BUNDLE_INVALID', `${file} is not valid JSON.`);
  }
  return parseBundle(document);
}
