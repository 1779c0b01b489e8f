import { Args, Flags } from '@oclif/core';
import { buildFleetReport, fleetReportDocument, renderFleetCsv, renderFleetHtml } from '@encplan/core';
import { createEnvironment, readFleetDocuments, writeUserFile } from '@encplan/core/node';
import { EncplanCommand } from '../../base-command.js';
import { renderFleetReport } from '../../render/fleet.js';
import { terminalTextOptions } from '../../terminal-style.js';

/** `encplan fleet report PATH…`: one view over many assessments (one per machine and disk). */
export default class FleetReport extends EncplanCommand {
  static override summary =
    'Report over many assessments: which machines are ready to encrypt, which must fix something first.';
  static override description =
    'Reads assessment documents (`encplan assess --json` outputs, Ansible local facts written by the encplan collection), folders of them and bundle directories, validates each, and groups the machines by readiness and by issue: failing or worn drive, AES not accelerated in the kernel, discards blocked, no spare area, already encrypted with weaker settings. Documents of another schema version or an unknown encplan version are listed, never merged silently; a damaged document is listed with its error.';
  static override strict = false;
  static override args = {
    paths: Args.string({
      required: true,
      description: 'Assessment files, folders (read recursively) or bundle directories.',
    }),
  };
  static override examples = [
    '<%= config.bin %> fleet report fetched/',
    '<%= config.bin %> fleet report fetched/ --csv > fleet.csv',
    '<%= config.bin %> fleet report fetched/ --html fleet.html',
  ];
  static override flags = {
    csv: Flags.boolean({
      summary: 'Print the rows as CSV (one per machine and disk) instead of text.',
      default: false,
      exclusive: ['json'],
    }),
    html: Flags.string({ summary: 'Also write a self-contained HTML report with charts to this file.' }),
  };
  readonly document = fleetReportDocument;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(FleetReport);
    const generatedAt = new Date();
    const documents = await readFleetDocuments(argv as string[], createEnvironment().clock);
    const report = buildFleetReport(documents);
    if (flags.html !== undefined) {
      await writeUserFile(flags.html, renderFleetHtml(report, generatedAt.toISOString()), {
        what: 'HTML fleet report',
      });
    }
    if (flags.json) {
      this.emitJson(fleetReportDocument.ok(report, [], generatedAt));
    } else if (flags.csv) {
      process.stdout.write(renderFleetCsv(report));
    } else {
      this.log(renderFleetReport(report, terminalTextOptions(false).width ?? null));
    }
  }
}
