import { Args, Flags } from '@oclif/core';
import { DOCUMENTS, EncplanError, findDocument, schemaListDocument, type JsonDocument } from '@encplan/core';
import { writeUserFile } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { formatTextTable } from '@encplan/core';

function schemaText(document: JsonDocument): string {
  return `${JSON.stringify(document.jsonSchema(), null, 2)}\n`;
}

/** `encplan schema [NAME]`: lists the JSON documents, prints one's JSON Schema, or writes them all. */
export default class Schema extends EncplanCommand {
  static override summary = 'List the JSON documents encplan prints, or print the JSON Schema of one.';
  static override description =
    'Without NAME, lists every document (schema name, version, committed file). With NAME (e.g. `plan` or `encplan.plan`), prints its JSON Schema, generated from the code.';
  static override args = {
    name: Args.string({
      ignoreStdin: true,
      required: false,
      description: 'A document name, e.g. assessment, plan, doctor.',
    }),
  };
  static override flags = {
    write: Flags.boolean({
      summary: 'Write every schema to schemas/<name>.v<major>.json under the current directory.',
      default: false,
    }),
  };
  static override examples = ['<%= config.bin %> schema', '<%= config.bin %> schema plan'];
  readonly document = schemaListDocument;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Schema);
    if (flags.write) {
      for (const document of DOCUMENTS) {
        await writeUserFile(document.schemaFile, schemaText(document), {
          what: 'JSON Schema',
          createFolder: true,
          folderMode: 0o755,
        });
        this.log(`Wrote ${document.schemaFile}`);
      }
      return;
    }
    const chosen = args.name === undefined ? null : findDocument(args.name);
    if (args.name !== undefined && chosen === null) {
      throw new EncplanError('INVALID_ARGUMENT', `There is no JSON document called "${args.name}".`, {
        hint: `Known documents: ${DOCUMENTS.map((document) => document.name).join(', ')}.`,
      });
    }
    if (flags.json) {
      const listed = chosen === null ? DOCUMENTS : [chosen];
      this.emitOkEnvelope({
        documents: listed.map((document) => ({
          schema: document.name,
          schemaVersion: [document.version[0], document.version[1]],
          file: document.schemaFile,
          jsonSchema: chosen === null ? null : document.jsonSchema(),
        })),
      });
    } else if (chosen !== null) {
      process.stdout.write(schemaText(chosen));
    } else {
      this.log(
        formatTextTable(
          ['schema', 'version', 'file'],
          DOCUMENTS.map((document) => [document.name, document.version.join('.'), document.schemaFile]),
        ),
      );
    }
  }
}
