import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EncplanError } from '../errors.js';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the filesystem is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'it already exists',
};

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
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = REASONS[code];
    if (reason === undefined) {
      throw error;
    }
    throw new EncplanError('INVALID_ARGUMENT', `Cannot write the ${options.what} to ${file}: ${reason}.`, {
      hint:
        code === 'ENOENT'
          ? `Create ${path.dirname(file)} first, or give another path.`
          : 'Give another path.',
      details: { path: file, errno: code },
      cause: error,
    });
  }
}
