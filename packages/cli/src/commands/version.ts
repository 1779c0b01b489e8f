import { TOOL_VERSION, versionDocument } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';
import { versionLine } from '../version-line.js';

/** `encplan version`: the same line as `encplan --version`, for scripts that prefer a command to a flag. */
export default class Version extends EncplanCommand {
  static override summary = 'Print the encplan version.';
  static override examples = ['encplan version', 'encplan version --json'];
  readonly document = versionDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    if (flags.json) {
      this.emitOkEnvelope({
        version: TOOL_VERSION,
        platform: process.platform,
        arch: process.arch,
        node: process.version,
      });
    } else {
      this.log(versionLine(TOOL_VERSION));
    }
  }
}
