import type { AppliedOption } from './target.js';

/**
 * The value after `option` in a command's argv: `--option value`, `--option=value`, or VeraCrypt Format.exe's
 * `/option value`; null when the option is not given. Each target's `read` (TargetCommands.read) reads its own
 * commands' settings with it.
 */
export function appliedOption(argv: readonly string[], option: string): AppliedOption {
  const index = argv.indexOf(option);
  if (index >= 0) {
    return { option, value: argv[index + 1] ?? null };
  }
  const joined = argv.find((word) => word.startsWith(`${option}=`));
  return { option, value: joined === undefined ? null : joined.slice(option.length + 1) };
}
