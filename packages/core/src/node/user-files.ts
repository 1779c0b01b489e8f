import { constants as fsConstants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { EncplanError, throwIfCancelled } from '../errors.js';
import { MAX_PARSER_INPUT_BYTES } from '../parsers/json-reader.js';

/**
 * Linux limits (limits.h, path_resolution(7)): a name in a path is at most NAME_MAX = 255 bytes and a whole
 * path at most PATH_MAX = 4096 bytes including the terminating NUL. Longer ones fail with ENAMETOOLONG.
 */
const NAME_MAX_BYTES = 255;
const PATH_MAX_BYTES = 4095;

/** How big a bundle.json may be: a handful of captured tool outputs, each within the parsers' input limit. */
export const MAX_BUNDLE_BYTES = 8 * MAX_PARSER_INPUT_BYTES;

/** What a user-named path may be. */
export type UserPathKind = 'file' | 'file-or-directory';

/** How to read a file the user named (a saved tool output, a report, a bundle, an assessment). */
export interface ReadUserFileOptions {
  /** What the file is, for messages: "saved smartctl output", "report", "bundle". */
  readonly what: string;
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
  /** The hint for a path that is missing or of the wrong type. */
  readonly hint?: string;
}

const READ_CHUNK_BYTES = 1024 * 1024;

function describeType(info: Stats): string {
  if (info.isFIFO()) {
    return 'a FIFO (named pipe)';
  }
  if (info.isCharacterDevice()) {
    return 'a character device';
  }
  if (info.isBlockDevice()) {
    return 'a block device';
  }
  if (info.isSocket()) {
    return 'a socket';
  }
  return info.isDirectory() ? 'a directory' : 'not a regular file';
}

/** Refuses a path that Linux would refuse with ENAMETOOLONG, before any system call, with a clear message. */
function checkPathLength(file: string, what: string): void {
  if (Buffer.byteLength(file) > PATH_MAX_BYTES) {
    throw new EncplanError('INVALID_ARGUMENT', `The ${what} path is longer than ${PATH_MAX_BYTES} bytes.`, {
      hint: 'Give a shorter path (Linux allows at most 4096 bytes).',
    });
  }
  const long = file.split(path.sep).find((name) => Buffer.byteLength(name) > NAME_MAX_BYTES);
  if (long !== undefined) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `A name in the ${what} path is longer than ${NAME_MAX_BYTES} bytes: ${long.slice(0, 40)}…`,
      {
        hint: 'Linux allows at most 255 bytes per file or directory name.',
      },
    );
  }
}

/** Why a system call on a user-named path failed, in words, by errno (open(2), write(2), mkdir(2)). */
const ERRNO_REASONS: Readonly<Record<string, { readonly read: string; readonly write: string }>> = {
  ENOENT: { read: 'it does not exist', write: 'its folder does not exist' },
  ENOTDIR: {
    read: 'a part of its path is a file, not a folder',
    write: 'a part of its path is a file, not a folder',
  },
  ELOOP: {
    read: 'it is a symbolic link loop (too many levels of links)',
    write: 'it is a symbolic link loop (too many levels of links)',
  },
  ENAMETOOLONG: {
    read: 'the path is too long for Linux (names at most 255 bytes, paths 4096)',
    write: 'the path is too long for Linux (names at most 255 bytes, paths 4096)',
  },
  EISDIR: { read: 'it is a directory', write: 'it is a folder' },
  EEXIST: { read: 'it already exists', write: 'it already exists' },
  EACCES: { read: 'permission denied', write: 'permission denied' },
  EPERM: { read: 'permission denied', write: 'permission denied' },
  EROFS: { read: 'the filesystem is read-only', write: 'the filesystem is read-only' },
  ENOSPC: { read: 'the disk is full', write: 'the disk is full' },
  EDQUOT: { read: 'the disk quota is exhausted', write: 'the disk quota is exhausted' },
};

/**
 * Turns the error of a system call on a user-named path into a typed error with a clear message: "Cannot read
 * the bundle "x": it does not exist." Every way it can fail is the user's to fix (INVALID_ARGUMENT, exit 2),
 * except a file encplan may not read, which needs other privileges (PERMISSION_DENIED, exit 3); a path encplan
 * may not write to is fixed by giving another path. An error of another kind is returned unchanged.
 */
export function userPathError(
  error: unknown,
  file: string,
  what: string,
  options: { readonly verb?: 'read' | 'write'; readonly hint?: string | undefined } = {},
): EncplanError {
  if (error instanceof EncplanError) {
    return error;
  }
  const verb = options.verb ?? 'read';
  const code = (error as NodeJS.ErrnoException | null)?.code ?? '';
  const shown = JSON.stringify(file.length > 80 ? `${file.slice(0, 60)}…` : file);
  const reason = ERRNO_REASONS[code]?.[verb] ?? `it cannot be used (${code === '' ? 'unknown error' : code})`;
  const permission = code === 'EACCES' || code === 'EPERM';
  const hint =
    options.hint ??
    (verb === 'write'
      ? code === 'ENOENT'
        ? `Create ${path.dirname(file)} first, or give another path.`
        : 'Give another path.'
      : undefined);
  return new EncplanError(
    verb === 'read' && permission ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT',
    `Cannot ${verb} the ${what} ${shown}: ${reason}.`,
    { cause: error, details: { path: file, errno: code }, ...(hint === undefined ? {} : { hint }) },
  );
}

/**
 * The typed error for a raw file-system error that reached the CLI (e.g. writing `--html` to a path that is
 * too long), or null when `error` is not one. Such an error is the user's path, not a bug in encplan.
 */
export function fileSystemErrorOf(error: unknown): EncplanError | null {
  const candidate = error as Partial<NodeJS.ErrnoException> | null;
  if (
    error instanceof EncplanError ||
    typeof candidate?.code !== 'string' ||
    typeof candidate.path !== 'string' ||
    typeof candidate.syscall !== 'string'
  ) {
    return null;
  }
  return userPathError(error, candidate.path, 'file');
}

/**
 * Looks at a user-named path without opening it (stat never blocks, even on a FIFO): it must be a regular
 * file, or a directory when `kind` allows one. Returns which of the two it is.
 */
export async function inspectUserPath(
  file: string,
  what: string,
  kind: UserPathKind,
  hint?: string,
): Promise<'file' | 'directory'> {
  checkPathLength(file, what);
  let info: Stats;
  try {
    info = await stat(file);
  } catch (error) {
    throw userPathError(error, file, what, { hint });
  }
  if (info.isFile()) {
    return 'file';
  }
  if (kind === 'file-or-directory' && info.isDirectory()) {
    return 'directory';
  }
  throw new EncplanError(
    'INVALID_ARGUMENT',
    `The ${what} ${JSON.stringify(file)} is ${describeType(info)}, not a regular file${kind === 'file' ? '' : ' or a directory'}.`,
    {
      details: { path: file },
      ...(hint === undefined ? {} : { hint }),
    },
  );
}

/**
 * Reads a file the user named, as UTF-8: a regular file only (never a FIFO, a device or a socket, which could
 * block or never end), at most `maxBytes`, and stopping when `signal` fires. The file is opened non-blocking
 * and checked again after opening, so a path swapped for a FIFO in between cannot block either.
 */
export async function readUserFile(file: string, options: ReadUserFileOptions): Promise<string> {
  const { what, maxBytes, signal, hint } = options;
  throwIfCancelled(signal, `Reading the ${what}`);
  await inspectUserPath(file, what, 'file', hint);
  let handle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; O_NOCTTY: never adopt a terminal.
    handle = await open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOCTTY);
  } catch (error) {
    throw userPathError(error, file, what, { hint });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new EncplanError(
        'INVALID_ARGUMENT',
        `The ${what} ${JSON.stringify(file)} is ${describeType(info)}, not a regular file.`,
        { details: { path: file } },
      );
    }
    const tooLarge = (): EncplanError =>
      new EncplanError(
        'INVALID_ARGUMENT',
        `The ${what} ${JSON.stringify(file)} is larger than ${maxBytes} bytes.`,
        {
          hint: `encplan reads at most ${maxBytes} bytes from it.`,
          details: { path: file, maxBytes },
        },
      );
    if (info.size > maxBytes) {
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      throwIfCancelled(signal, `Reading the ${what}`);
      const buffer = Buffer.alloc(READ_CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) {
        break;
      }
      total += bytesRead;
      // The size was checked above, but a file can grow while it is read (a log, /proc-like files).
      if (total > maxBytes) {
        throw tooLarge();
      }
      chunks.push(buffer.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    throw userPathError(error, file, what, { hint });
  } finally {
    await handle.close();
  }
}

/**
 * Reads a tool output the user saved (e.g. `smartctl -j … > sda.json`) as UTF-8 text, within the parsers'
 * input limit. Fails with INVALID_ARGUMENT for a missing path, a directory, a device or a FIFO and with
 * PERMISSION_DENIED when unreadable, so a bad path never becomes a stack trace or a hang.
 */
export function readSavedToolOutput(file: string, signal?: AbortSignal): Promise<string> {
  return readUserFile(file, {
    what: 'saved tool output',
    maxBytes: MAX_PARSER_INPUT_BYTES,
    hint: 'Give the path of a file saved with `smartctl --json=v -x /dev/X > FILE.json`.',
    ...(signal === undefined ? {} : { signal }),
  });
}
