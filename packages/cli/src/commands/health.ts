import { Args } from '@oclif/core';
import { healthDocument, healthFromSmartctlJson, toHealthDocumentView } from '@encplan/core';
import { readSavedToolOutput } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { failOnFlags } from '../fail-on.js';
import { exitIfVerdictFails } from '../verdict-exit.js';
import { withCancellation } from '../cancellation.js';

/** `encplan health FILE.json`: judges a saved `smartctl --json` output (smartctl_exporter, Telegraf, by hand). */
export default class Health extends EncplanCommand {
  static override summary = 'Judge drive health and wear from a saved `smartctl --json` output.';
  static override description =
    'Reads FILE.json as printed by `smartctl --json=v -x /dev/X` (or -j -a) and prints the same health section as `encplan assess`: a verdict, then each finding with the attribute, value, threshold and its source, and what the output says about the drive: SSD or HDD, and whether it can TRIM.';
  static override args = {
    file: Args.string({
      ignoreStdin: true,
      required: true,
      description: 'A saved smartctl JSON output, e.g. sda.json',
    }),
  };
  static override flags = { ...failOnFlags };
  static override examples = [
    'smartctl --json=v -x /dev/sda > sda.json; encplan health sda.json',
    'encplan health sda.json --json',
    'encplan health sda.json --fail-on warning --fail-on-unknown',
  ];
  readonly document = healthDocument;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Health);
    const text = await withCancellation((signal) => readSavedToolOutput(args.file, signal));
    const { health, drive, warnings } = healthFromSmartctlJson(text);
    if (flags.json) {
      this.emitOkEnvelope({ ...health, drive }, warnings);
    } else {
      // The assessment's health section, with the drive's media and TRIM; warnings under it, as in `assess`.
      this.logDocumentText(toHealthDocumentView(health, drive, warnings));
    }
    exitIfVerdictFails(health.verdict, flags, 'health');
  }
}
