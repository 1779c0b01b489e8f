import { TOOL_VERSION, versionDocument } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';

/** `encplan version`: the version, for scripts that prefer a command to a flag. */
export default class Version extends EncplanCommand {
  static override summary = 'Print the encplan version.';
  readonly document = versionDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    if (flags.json) {
      this.emitOkEnvelope({ version: TOOL_VERSION });
    } else {
      this.log(TOOL_VERSION);
    }
  }
}
