import { Args } from '@oclif/core';
import { healthDocument, healthFromSmartctlJson, type DriveSummary, renderHealth } from '@encplan/core';
import { readSavedToolOutput } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { exitIfVerdictFails, failOnFlags } from '../fail-on.js';
import { withCancellation } from '../cancellation.js';

/** `encplan health FILE.json`: judges a saved `smartctl --json` output (smartctl_exporter, Telegraf, by hand). */
export default class Health extends EncplanCommand {
  static override summary = 'Judge drive health and wear from a saved `smartctl --json` output.';
  static override description =
    'Reads FILE.json as printed by `smartctl --json=v -x /dev/X` (or -j -a) and prints the same health section as `encplan assess`: a verdict, then each finding with the attribute, value, threshold and its source, and what the output says about the drive: SSD or HDD, and whether it can TRIM.';
  static override args = {
    file: Args.string({ required: true, description: 'A saved smartctl JSON output, e.g. sda.json' }),
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
    this.jsonOutput = flags.json;
    const text = await withCancellation((signal) => readSavedToolOutput(args.file, signal));
    const { health, drive, warnings } = healthFromSmartctlJson(text);
    if (flags.json) {
      this.emitOkEnvelope({ ...health, drive }, warnings);
    } else {
      this.log(renderHealth(health));
      this.log(describeDrive(drive));
      for (const warning of warnings) {
        process.stderr.write(`warning: ${warning.code}: ${warning.message}\n`);
      }
    }
    exitIfVerdictFails(health.verdict, flags, 'health');
  }
}

const MEDIA: Readonly<Record<DriveSummary['media'], string>> = {
  ssd: 'SSD',
  hdd: 'HDD (spinning disk)',
  unknown: 'unknown media',
};

/** One line on what kind of drive this is and whether it can TRIM, said as people say it. */
function describeDrive(drive: DriveSummary): string {
  const trim = drive.trim;
  let trimText = 'TRIM unknown (this smartctl output does not say)';
  if (trim.supported === true) {
    const after = [
      trim.deterministicReadAfterTrim === true ? 'deterministic reads after TRIM' : null,
      trim.readsZeroesAfterTrim === true ? 'reads zeroes after TRIM' : null,
    ].filter((part) => part !== null);
    trimText = `TRIM supported${after.length > 0 ? ` (${after.join(', ')})` : ''}`;
  } else if (trim.supported === false) {
    trimText = 'no TRIM';
  }
  return `  Media: ${MEDIA[drive.media]} (${drive.mediaReason}); ${trimText}.`;
}
