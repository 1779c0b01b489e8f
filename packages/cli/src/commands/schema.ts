import { writeFile } from 'node:fs/promises';
import { Flags } from '@oclif/core';
import { assessmentJsonSchema } from '@encplan/core';
import { EncplanCommand } from '../base-command.js';

/** `encplan schema`: prints (or writes) the JSON Schema of `assess --json`, generated from the code. */
export default class Schema extends EncplanCommand {
  static override summary = 'Print the JSON Schema of the assessment envelope.';
  static override flags = {
    write: Flags.boolean({ summary: 'Write schemas/assessment.v1.json in the current directory instead of printing.', default: false }),
  };
  protected readonly schemaName = 'encplan.schema';

  async run(): Promise<void> {
    const { flags } = await this.parse(Schema);
    const text = `${JSON.stringify(assessmentJsonSchema(), null, 2)}\n`;
    if (flags.write) {
      await writeFile('schemas/assessment.v1.json', text);
      this.log('Wrote schemas/assessment.v1.json');
    } else {
      process.stdout.write(text);
    }
  }
}
