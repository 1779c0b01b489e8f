import { doctor, doctorDocument } from '@encplan/core';
import { createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { formatTextTable } from '@encplan/core';

/** `encplan doctor`: which tools and kernel features are present, and what each missing one costs. */
export default class Doctor extends EncplanCommand {
  static override summary = 'List the tools and kernel features encplan uses, and what a missing one costs.';
  readonly document = doctorDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Doctor);
    const envelope = await doctor(createEnvironment());
    if (flags.json) {
      this.emitJson(envelope);
      return;
    }
    const result = envelope.result ?? { tools: [], capabilities: [] };
    const rows = result.tools.map((tool) => [
      tool.path === null ? 'missing' : 'ok',
      tool.tool,
      tool.version ?? '',
      tool.path === null ? `no ${tool.purpose}` : tool.purpose,
    ]);
    this.log('Tools');
    this.log(formatTextTable(['', 'tool', 'version', 'gives encplan'], rows));
    const missing = result.tools.filter((tool) => tool.path === null && (tool.install ?? null) !== null);
    if (missing.length > 0) {
      this.log('');
      this.log('How to get what is missing');
      missing.forEach((tool) => this.log(`  ${tool.tool}: ${tool.install ?? ''}`));
    }
    this.log('');
    this.log('Kernel and platform');
    for (const capability of result.capabilities) {
      this.log(`  ${capability.present ? 'ok     ' : 'missing'} ${capability.id}: ${capability.evidence}`);
      if (!capability.present) {
        this.log(`          cost: ${capability.costWhenMissing}`);
      }
    }
  }
}
