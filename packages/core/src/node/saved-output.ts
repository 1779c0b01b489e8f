import { open } from 'node:fs/promises';
import { EncplanError } from '../errors.js';
import { MAX_PARSER_INPUT_BYTES } from '../parsers/json-reader.js';

/**
 * Reads a tool output the user saved (e.g. `smartctl -j … > sda.json`) as UTF-8 text. Fails with
 * INVALID_ARGUMENT for a missing path, a directory or a device, PERMISSION_DENIED when unreadable and
 * TOOL_OUTPUT_TOO_LARGE above the parsers' input limit, so a bad path never becomes a stack trace.
 */
export async function readSavedToolOutput(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new EncplanError('PERMISSION_DENIED', `Permission denied reading ${file}.`, { cause: error, details: { path: file } });
    }
    throw new EncplanError('INVALID_ARGUMENT', `${file} does not exist or cannot be opened.`, {
      hint: 'Give the path of a file saved with `smartctl --json=v -x /dev/X > FILE.json`.',
      cause: error,
      details: { path: file },
    });
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new EncplanError('INVALID_ARGUMENT', `${file} is not a regular file.`, {
        hint: 'Give the path of a saved smartctl JSON file, not a directory or a device.',
        details: { path: file },
      });
    }
    if (info.size > MAX_PARSER_INPUT_BYTES) {
      throw new EncplanError('TOOL_OUTPUT_TOO_LARGE', `${file} is larger than ${MAX_PARSER_INPUT_BYTES} bytes.`, { details: { path: file } });
    }
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}
