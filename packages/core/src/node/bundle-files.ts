import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBundle, type Bundle } from '../capture/bundle.js';
import { EncplanError } from '../errors.js';

/** The file inside a bundle directory. */
export const BUNDLE_FILE = 'bundle.json';

/** Writes a bundle directory (created if needed; an existing bundle.json is not overwritten). */
export async function writeBundleDirectory(directory: string, bundle: Bundle): Promise<string> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const file = path.join(directory, BUNDLE_FILE);
  try {
    await writeFile(file, `${JSON.stringify(bundle, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new EncplanError('INVALID_ARGUMENT', `${file} already exists.`, { hint: 'Choose an empty or new --out directory.' });
    }
    throw error;
  }
  return file;
}

/** Reads and validates a bundle directory (or a bundle.json file). Throws BUNDLE_INVALID or DEVICE_NOT_FOUND. */
export async function readBundleDirectory(location: string): Promise<Bundle> {
  const info = await stat(location).catch(() => null);
  if (info === null) {
    throw new EncplanError('INVALID_ARGUMENT', `${location} does not exist.`, { hint: 'Give a directory made by encplan collect.' });
  }
  const file = info.isDirectory() ? path.join(location, BUNDLE_FILE) : location;
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) {
    throw new EncplanError('BUNDLE_INVALID', `${file} cannot be read.`, { hint: 'Give a directory made by encplan collect.' });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new EncplanError('BUNDLE_INVALID', `${file} is not valid JSON.`);
  }
  return parseBundle(document);
}
