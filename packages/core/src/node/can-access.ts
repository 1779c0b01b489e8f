import { accessSync, statSync } from 'node:fs';
import { access } from 'node:fs/promises';

/** True when this process may reach `file` as `mode` asks (fs.constants F_OK, R_OK, X_OK): access(2). */
export async function canAccess(file: string, mode: number): Promise<boolean> {
  try {
    await access(file, mode);
    return true;
  } catch {
    return false;
  }
}

/**
 * {@link canAccess}, synchronously: for paths that never wait on a disk (/dev, /proc, /sys: host.ts) and for the
 * tool search, where awaiting the thread pool for each candidate left the main thread idle (issue 28). A file
 * that does not exist is answered by a stat(2) that throws nothing (`throwIfNoEntry`); one that does, by access(2).
 */
export function canAccessSync(file: string, mode: number): boolean {
  try {
    if (statSync(file, { throwIfNoEntry: false }) === undefined) {
      return false;
    }
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}
