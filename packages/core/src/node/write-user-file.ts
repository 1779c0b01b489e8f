import { close, fsync, openSync, unlinkSync, writeFile } from 'node:fs';
import { link, mkdir, rename, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { userPathError } from './user-files.js';

/**
 * The file-system calls the atomic writer makes, injectable so tests can fail any one of them (a full disk at
 * the write, at the fsync, at the rename) and check that nothing is left behind.
 */
export interface AtomicWriteFs {
  open(file: string, flags: 'wx', mode: number): Promise<AtomicWriteHandle>;
  link(existing: string, created: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** mkdir -p: the first folder it created, or undefined when all existed (fs.mkdir with `recursive`). */
  mkdir(folder: string, mode: number): Promise<string | undefined>;
  rmdir(folder: string): Promise<void>;
  exists(file: string): Promise<boolean>;
}

/** The part of a FileHandle the writer uses. */
export interface AtomicWriteHandle {
  writeFile(content: string): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A node:fs callback call as a promise. Not util.promisify: `import … from 'node:util'` makes Node build the
 * module's ES namespace, which reads every lazy export of util (parseArgs, diff, …) and so loads 12 more built-in
 * modules, worker_threads among them, ~2 ms of every `assess` (issue 28, docs/performance.md).
 */
function settled(call: (done: (error: NodeJS.ErrnoException | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    call((error) => (error === null ? resolve() : reject(error)));
  });
}

/** The real calls (node:fs/promises). */
const NODE_ATOMIC_WRITE_FS: AtomicWriteFs = {
  // Made synchronously: an open(2) still in libuv's thread pool when Ctrl-C ends the process (process.exit)
  // could create the file after the writer's exit listener looked for it, and leave it behind.
  // eslint-disable-next-line @typescript-eslint/require-await -- async only to return a promise; openSync runs at the call
  open: async (file, flags, mode) => {
    const fd = openSync(file, flags, mode);
    return {
      writeFile: (content: string) => settled((done) => writeFile(fd, content, done)),
      sync: () => settled((done) => fsync(fd, done)),
      close: () => settled((done) => close(fd, done)),
    };
  },
  link,
  rename,
  unlink,
  mkdir: (folder, mode) => mkdir(folder, { recursive: true, mode }),
  rmdir,
  exists: (file) =>
    stat(file).then(
      () => true,
      () => false,
    ),
};

/** A name beside `file` that no other writer uses: `.NAME.<random>.tmp`, hidden, in the same folder. */
function temporaryName(file: string): string {
  const random = process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
  return path.join(path.dirname(file), `.${path.basename(file)}.${random}.tmp`);
}

/** errno codes of a filesystem that cannot make hard links (FAT, some FUSE and network filesystems). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK']);

/**
 * Writes `content` to `file` so that `file` is either absent (or its old content) or complete, never a part:
 * the content goes to a temporary name in the same folder, is fsynced (fsync(2): on disk before it has a name),
 * and only then gets its name. With `exclusive` the name is taken with link(2), which fails with EEXIST when
 * the file exists, so an existing file is never replaced; otherwise rename(2) replaces it atomically. Folders
 * made for it (`createFolder`) are removed again when the write fails. Any failure removes the temporary file
 * and rethrows the error of the call that failed.
 */
export async function writeFileAtomic(
  file: string,
  content: string,
  options: {
    readonly mode: number;
    readonly exclusive?: boolean;
    readonly createFolder?: boolean;
    /** The mode of folders `createFolder` makes (default 0700: bundles hold device facts). */
    readonly folderMode?: number;
    readonly fs?: AtomicWriteFs;
  },
): Promise<void> {
  const fs = options.fs ?? NODE_ATOMIC_WRITE_FS;
  const folder = path.dirname(file);
  const madeFolder =
    options.createFolder === true ? await fs.mkdir(folder, options.folderMode ?? 0o700) : undefined;
  const temporary = temporaryName(file);
  let created = false;
  // Ctrl-C or SIGTERM while the content is being written ends the process with process.exit (bin/run.js):
  // the temporary file goes with it, synchronously, as Node runs 'exit' listeners before it leaves. Also while
  // open(2) is in flight (the file may exist before `created` is set): the name is random and taken with O_EXCL,
  // so a file of that name is this writer's.
  const removeOnExit = () => {
    try {
      unlinkSync(temporary);
    } catch {
      // Not made yet, or already renamed or removed.
    }
  };
  process.on('exit', removeOnExit);
  try {
    const handle = await fs.open(temporary, 'wx', options.mode);
    created = true;
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.exclusive === true) {
      try {
        await fs.link(temporary, file);
      } catch (error) {
        if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '') || (await fs.exists(file))) {
          throw error;
        }
        await fs.rename(temporary, file);
        created = false;
      }
      if (created) {
        await fs.unlink(temporary);
        created = false;
      }
    } else {
      await fs.rename(temporary, file);
      created = false;
    }
  } catch (error) {
    if (created) {
      await fs.unlink(temporary).catch(() => undefined);
    }
    await removeMadeFolders(fs, folder, madeFolder);
    throw error;
  } finally {
    process.off('exit', removeOnExit);
  }
}

/** Removes the folders `mkdir -p` made (from `folder` up to `first`), each only when empty. */
async function removeMadeFolders(
  fs: AtomicWriteFs,
  folder: string,
  first: string | undefined,
): Promise<void> {
  if (first === undefined) {
    return;
  }
  for (let current = folder; ; current = path.dirname(current)) {
    const removed = await fs.rmdir(current).then(
      () => true,
      () => false,
    );
    if (!removed || current === first || path.dirname(current) === current) {
      return;
    }
  }
}

/**
 * Writes a file the user named (`--html FILE`, `--out DIR`…), atomically (`writeFileAtomic`): a full disk or
 * any other failure leaves no file behind, so a retry is not refused. Every way it can fail is the user's to
 * fix, so it becomes INVALID_ARGUMENT naming the path and the reason (exit 2), never an internal error. With
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
    readonly folderMode?: number;
    readonly fs?: AtomicWriteFs;
  },
): Promise<void> {
  try {
    await writeFileAtomic(file, content, { ...options, mode: options.mode ?? 0o644 });
  } catch (error) {
    const typed = userPathError(error, file, options.what, { verb: 'write' });
    throw typed.details?.errno === '' ? error : typed;
  }
}
