import { constants as fsConstants } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { FLAG_DEFINITIONS } from '../rules/flag-definitions.js';
import { canAccess } from './can-access.js';

/**
 * The scratch folder a user named (`--scratch`, the wizard's or the fleet role's scratch option), checked before
 * anything runs: its one definition (rules/flag-definitions.ts), then that it exists, is a folder and this
 * process may write and enter it (access(2) W_OK|X_OK). Returns its absolute path; throws INVALID_ARGUMENT (exit 2)
 * with the accepted form otherwise.
 */
export async function checkScratchDirectory(text: string, cwd: string = process.cwd()): Promise<string> {
  const definition = FLAG_DEFINITIONS.scratch;
  const absolute = path.resolve(cwd, definition.parse(text));
  const found = await stat(absolute).catch(() => null);
  if (found === null) {
    return definition.refuse(text, 'it does not exist');
  }
  if (!found.isDirectory()) {
    return definition.refuse(text, 'it is not a folder');
  }
  if (!(await canAccess(absolute, fsConstants.W_OK | fsConstants.X_OK))) {
    return definition.refuse(text, 'this user cannot write there');
  }
  return absolute;
}
