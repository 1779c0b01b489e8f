import { Args, loadHelpClass } from '@oclif/core';
import { helpDocument } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';

/** `encplan help [COMMAND]`: the same help as `--help` and `-h`, as a command people type first. */
export default class Help extends EncplanCommand {
  static override summary = 'Show help for encplan or for one command.';
  static override strict = false;
  static override args = {
    command: Args.string({
      ignoreStdin: true,
      required: false,
      description: 'A command, e.g. assess or "benchmark io".',
    }),
  };
  static override examples = [
    'encplan help',
    'encplan help assess',
    'encplan help benchmark io',
    'encplan help --json',
  ];
  readonly document = helpDocument;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Help);
    if (flags.json) {
      const separator = this.config.topicSeparator;
      const commands = this.config.commands
        .filter((command) => command.hidden !== true)
        .map((command) => {
          const id = command.id.split(':').join(separator);
          const args = Object.entries(command.args).map(([name, arg]) =>
            arg.required === true ? name.toUpperCase() : `[${name.toUpperCase()}]`,
          );
          return { command: id, usage: ['encplan', id, ...args].join(' '), summary: command.summary ?? '' };
        })
        .sort((left, right) => left.command.localeCompare(right.command));
      this.emitOkEnvelope({ commands });
      return;
    }
    const words = argv.filter((word): word is string => typeof word === 'string');
    const HelpClass = await loadHelpClass(this.config);
    const help = new HelpClass(this.config, this.config.pjson.oclif.helpOptions ?? {});
    await help.showHelp(words);
  }
}
