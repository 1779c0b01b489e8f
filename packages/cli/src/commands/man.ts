import { manDocument, TOOL_VERSION } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { manPage, type ManCommand } from '../man-page.js';

/** `encplan man`: prints encplan(1) in roff, generated from the command definitions (the release ships it). */
export default class Man extends EncplanCommand {
  static override summary = 'Print the encplan(1) manual page in roff (used to build the release).';
  static override hidden = true;
  readonly document = manDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Man);
    const separator = this.config.topicSeparator;
    const commands: ManCommand[] = this.config.commands
      .filter((command) => command.hidden !== true)
      .map((command) => {
        const id = command.id.split(':').join(separator);
        const args = Object.entries(command.args).map(([name, arg]) =>
          arg.required === true ? name.toUpperCase() : `[${name.toUpperCase()}]`,
        );
        return {
          id,
          usage: ['encplan', id, ...args].join(' '),
          summary: command.summary ?? '',
          description: command.description ?? '',
          flags: Object.entries(command.flags)
            .filter(([, flag]) => flag.hidden !== true)
            .map(([name, flag]) => ({
              name,
              char: flag.char ?? null,
              value:
                flag.type === 'option'
                  ? flag.options === undefined
                    ? 'VALUE'
                    : flag.options.join('|')
                  : null,
              summary: flag.summary ?? flag.description ?? '',
            })),
          examples: (command.examples ?? []).map((example) =>
            typeof example === 'string' ? example : example.command,
          ),
        };
      });
    const roff = manPage(TOOL_VERSION, commands);
    if (flags.json) {
      this.emitOkEnvelope({ roff });
    } else {
      this.log(roff.trimEnd());
    }
  }
}
