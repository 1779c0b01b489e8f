import { Args, loadHelpClass } from '@oclif/core';
import { EncplanCommand } from '../base-command.js';

/** `encplan help [COMMAND]`: the same help as `--help` and `-h`, as a command people type first. */
export default class Help extends EncplanCommand {
  static override summary = 'Show help for encplan or for one command.';
  static override strict = false;
  static override args = {
    command: Args.string({ required: false, description: 'A command, e.g. assess or "benchmark io".' }),
  };
  static override examples = ['encplan help', 'encplan help assess', 'encplan help benchmark io'];
  protected readonly schemaName = 'encplan.help';

  async run(): Promise<void> {
    const { argv } = await this.parse(Help);
    const words = argv.filter((word): word is string => typeof word === 'string' && word !== '--json');
    const HelpClass = await loadHelpClass(this.config);
    const help = new HelpClass(this.config, this.config.pjson.oclif.helpOptions ?? {});
    await help.showHelp(words);
  }
}
