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
