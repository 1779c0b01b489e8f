import type { Hook } from '@oclif/core';
import { EncplanError } from '@encplan/core';
import { suggestCommands } from '../did-you-mean.js';

/**
 * oclif's `command_not_found` hook: an unknown command is a usage error (exit 2) that names the closest
 * commands ("encplan asess" → "Did you mean assess?") and points at `encplan help`.
 */
const commandNotFound: Hook.CommandNotFound = function (options) {
  const separator = options.config.topicSeparator;
  const typed = options.id.split(':').join(separator);
  const ids = options.config.commandIDs.map((id) => id.split(':').join(separator));
  const suggestions = suggestCommands(typed, ids);
  const hint =
    suggestions.length > 0
      ? `Did you mean ${suggestions
          .slice(0, 3)
          .map((id) => `"encplan ${id}"`)
          .join(' or ')}?`
      : 'Run `encplan help` for the list of commands.';
  const error = new EncplanError('INVALID_ARGUMENT', `"${typed}" is not an encplan command.`, {
    hint,
    details: { suggestions },
  });
  process.stderr.write(`encplan: ${error.message}\nhint: ${hint}\n`);
  return Promise.resolve(this.exit(2));
};

export default commandNotFound;
