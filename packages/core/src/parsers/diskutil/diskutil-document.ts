import { EncplanError } from '../../errors.js';
import { unrecognized } from '../json-reader.js';
import {
  isPlistDict,
  parsePlist,
  plistBoolean,
  plistNumber,
  plistString,
  type PlistDict,
} from '../plist/parse-plist.js';

/**
 * Reads a `diskutil … -plist` document. diskutil reports failure as a plist too — `Error` true,
 * `ErrorMessage`, `ExitCode` (fixture diskutil/info-plist-error-could-not-find-disk) — which becomes a
 * TOOL_FAILED error carrying diskutil's own message, never a dict of all-null facts.
 */
export function parseDiskutilDocument(command: string, text: string): PlistDict {
  const root = parsePlist(command, text);
  if (!isPlistDict(root)) {
    throw unrecognized(command, 'the property list root is not a dict');
  }
  if (plistBoolean(root, 'Error') === true) {
    const message = plistString(root, 'ErrorMessage') ?? 'no message';
    const exitCode = plistNumber(root, 'ExitCode');
    throw new EncplanError('TOOL_FAILED', `${command} failed: ${message}`, {
      hint: 'Check the disk identifier or path with `diskutil list`.',
      details: { tool: 'diskutil', message, ...(exitCode === null ? {} : { exitCode }) },
    });
  }
  return root;
}

/** The string at `key`, which the document must have: its absence means this is not the expected output. */
export function requiredPlistString(command: string, dict: PlistDict, key: string, what: string): string {
  const value = plistString(dict, key);
  if (value === null) {
    throw unrecognized(command, `${what} without ${key}`);
  }
  return value;
}
