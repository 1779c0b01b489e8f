import { Args, Flags } from '@oclif/core';
import { fitText, FLEET_METHODS, fleetReportDocument, type FleetMethod } from '@encplan/core';
import { createEnvironment, readFleetDocuments, writeFleetReport } from '@encplan/core/node';
import { Writable } from 'node:stream';
import { EncplanCommand } from '../../base-command.js';
import { terminalTextOptions } from '../../terminal-style.js';

/**
 * stdout for the fleet text report, each line fitted to the terminal's width (words whole, continuation lines
 * indented as the line): the report writes whole lines per chunk. In a pipe (no width) the text passes as is.
 */
function fittedToTerminal(stdout: NodeJS.WriteStream): Writable {
  const width = terminalTextOptions(false, stdout).width ?? null;
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      stdout.write(fitText(chunk.toString(), width), () => {
        done();
      });
    },
  });
}

/** `encplan fleet report PATH…`: one view over many assessments (one row per machine and disk). */
export default class FleetReport extends EncplanCommand {
  static override summary =
    'Report over many assessments: which machines are ready to encrypt, which must fix something first.';
  static override description =
    'Reads assessment documents (`encplan assess --json` and `assess --all --json` outputs from Linux, macOS and Windows, Ansible local facts written by the encplan collection), folders of them and bundle directories (`collect`, `collect --all`), validates each, and groups the disks by readiness and by issue: failing or worn drive, AES not accelerated, discards blocked, no spare area, already encrypted with weaker settings, protection off, a method the policy does not allow, encryption state unknown. A disk listed twice for one machine is counted once. Documents of another schema version or an unknown encplan version are listed, never merged silently; a damaged document is listed with its error. The input is streamed: any number of documents in constant memory per disk.';
  static override strict = false;
  static override args = {
    paths: Args.string({
      ignoreStdin: true,
      required: true,
      description: 'Assessment files, folders (read recursively) or bundle directories.',
    }),
  };
  static override examples = [
    '<%= config.bin %> fleet report fetched/',
    '<%= config.bin %> fleet report fetched/ --csv > fleet.csv',
    '<%= config.bin %> fleet report fetched/ --html fleet.html',
    '<%= config.bin %> fleet report fetched/ --require-method xts-aes-256 --json > fleet-report.json',
  ];
  static override flags = {
    csv: Flags.boolean({
      summary: 'Print the rows as CSV (one per machine and disk) instead of text.',
      default: false,
      exclusive: ['json'],
    }),
    html: Flags.string({ summary: 'Also write a self-contained HTML report with charts to this file.' }),
    'require-method': Flags.string({
      summary:
        'The encryption method the policy requires (repeat to allow several); an encrypted disk with another is flagged method-mismatch.',
      options: [...FLEET_METHODS],
      multiple: true,
    }),
  };
  readonly document = fleetReportDocument;

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(FleetReport);
    const documents = await readFleetDocuments(argv as string[], createEnvironment().clock);
    await writeFleetReport(
      documents,
      {
        ...(flags.json
          ? { json: process.stdout }
          : flags.csv
            ? { csv: process.stdout }
            : { text: fittedToTerminal(process.stdout) }),
        ...(flags.html === undefined ? {} : { htmlFile: flags.html }),
      },
      {
        generatedAt: new Date(),
        policy: { methods: (flags['require-method'] ?? []) as FleetMethod[] },
      },
    );
  }
}
