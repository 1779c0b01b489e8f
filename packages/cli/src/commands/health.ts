import { Args } from '@oclif/core';
import { healthFromSmartctlJson, okEnvelope, TOOL_VERSION } from '@encplan/core';
import { readSavedToolOutput } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { renderHealth } from '../render/health.js';
import { withCancellation } from '../cancellation.js';

/** `encplan health FILE.json`: judges a saved `smartctl --json` output (smartctl_exporter, Telegraf, by hand). */
export default class Health extends EncplanCommand {
  static override summary = 'Judge drive health and wear from a saved `smartctl --json` output.';
  static override description =
    'Reads FILE.json as printed by `smartctl --json=v -x /dev/X` (or -j -a) and prints the same health section as `encplan assess`: a verdict, then each finding with the attribute, value, threshold and its source.';
  static override args = { file: Args.string({ required: true, description: 'A saved smartctl JSON output, e.g. sda.json' }) };
  static override examples = ['smartctl --json=v -x /dev/sda > sda.json; encplan health sda.json', 'encplan health sda.json --json'];
  protected readonly schemaName = 'encplan.health';

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Health);
    this.jsonOutput = flags.json;
    const text = await withCancellation((signal) => readSavedToolOutput(args.file, signal));
    const { health, warnings } = healthFromSmartctlJson(text);
    if (flags.json) {
      this.emitJson(okEnvelope({ schema: this.schemaName, schemaVersion: [1, 0], toolVersion: TOOL_VERSION, generatedAt: new Date() }, health, warnings));
      return;
    }
    this.log(renderHealth(health));
    for (const warning of warnings) {
      process.stderr.write(`warning: ${warning.code}: ${warning.message}\n`);
    }
  }
}
