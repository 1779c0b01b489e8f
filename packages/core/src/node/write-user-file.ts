import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { userPathError } from './user-files.js';

/**
 * Writes a file the user named (`--html FILE`, `--out DIR`…). Every way that can fail is the user's to fix, so it
 * becomes INVALID_ARGUMENT naming the path and the reason (exit 2), never an internal error. With
 * `exclusive`, an existing file is refused rather than overwritten.
 */
export async function writeUserFile(
  file: string,
  content: string,
  options: {
    readonly what: string;
    readonly mode?: number;
    readonly exclusive?: boolean;
    readonly createFolder?: boolean;
  },
): Promise<void> {
  try {
    if (options.createFolder === true) {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    }
    await writeFile(file, content, {
      flag: options.exclusive === true ? 'wx' : 'w',
      mode: options.mode ?? 0o644,
    });
  } catch (error) {
    const typed = userPathError(error, file, options.what, { verb: 'write' });
    throw typed.details?.errno === '' ? error : typed;
  }
}
