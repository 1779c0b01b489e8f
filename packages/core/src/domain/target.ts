import { EncplanError } from '../errors.js';

/** Characters a shell would interpret. A device path never needs them, so they mean a mistake or an attack. */
// eslint-disable-next-line no-control-regex -- control characters are among what must be refused
const SHELL_METACHARACTERS = /[\s;&|`$<>()\\'"*?[\]{}!#~\u0000-\u001f]/;

/**
 * Checks a device argument before anything touches it: not empty, no leading dash (it would read as an
 * option to the tools), no shell metacharacters, an absolute path. Throws INVALID_ARGUMENT. Pure.
 */
export function validateDeviceArgument(argument: string): string {
  if (argument.length === 0) {
    throw new EncplanError('INVALID_ARGUMENT', 'The device argument is empty.', {
      hint: 'Give a block device such as /dev/nvme0n1.',
    });
  }
  if (argument.startsWith('-')) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `"${argument}" starts with a dash and would be read as an option.`,
      {
        hint: 'Give a block device path such as /dev/sda.',
      },
    );
  }
  if (SHELL_METACHARACTERS.test(argument)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `"${printable(argument)}" contains characters that never appear in a device path.`,
      {
        hint: 'Give a plain block device path such as /dev/sda or /dev/disk/by-id/….',
      },
    );
  }
  if (!argument.startsWith('/')) {
    throw new EncplanError('INVALID_ARGUMENT', `"${argument}" is not an absolute path.`, {
      hint: `Did you mean /dev/${argument}?`,
    });
  }
  return argument;
}

function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach a terminal
  return text.replace(/[\u0000-\u001f]/g, '?');
}
