import { Args } from '@oclif/core';
import { completionDocument } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { completionScript, type CompletionShell } from '../completion-script.js';

/** `encplan completion bash|zsh|fish`: a shell completion script generated from the command definitions. */
export default class Completion extends EncplanCommand {
  static override summary = 'Print a shell completion script (bash, zsh or fish).';
  static override description =
    'Completes commands, their flags and the values of flags with fixed choices. Install it once, e.g. for bash: encplan completion bash > /etc/bash_completion.d/encplan (or source <(encplan completion bash) in ~/.bashrc); zsh: encplan completion zsh > "${fpath[1]}/_encplan"; fish: encplan completion fish > ~/.config/fish/completions/encplan.fish.';
  static override args = {
    shell: Args.string({
      ignoreStdin: true,
      required: true,
      options: ['bash', 'zsh', 'fish'],
      description: 'The shell to complete in.',
    }),
  };
  static override examples = [
    'source <(encplan completion bash)',
    'encplan completion zsh > "${fpath[1]}/_encplan"',
  ];
  readonly document = completionDocument;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Completion);
    const shell = args.shell as CompletionShell;
    const commands = this.config.commands
      .filter((command) => command.hidden !== true)
      .map((command) => ({
        words: command.id.split(':'),
        summary: command.summary ?? '',
        flags: Object.entries(command.flags).map(([name, flag]) => ({
          name,
          char: flag.char ?? null,
          summary: flag.summary ?? flag.description ?? '',
          takesValue: flag.type === 'option',
          options: flag.type === 'option' ? (flag.options ?? []) : [],
        })),
      }));
    const script = completionScript(shell, commands);
    if (flags.json) {
      this.emitOkEnvelope({ shell, script });
    } else {
      this.log(script.trimEnd());
    }
  }
}
