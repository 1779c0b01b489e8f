import { doctor, doctorDocument, fitText, formatTextTable } from '@encplan/core';
import { createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { terminalTextOptions } from '../terminal-style.js';

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
    // Fitted to the terminal's width: the table wraps its long cells inside their column.
    const width = terminalTextOptions(false).width ?? null;
    const lines = ['Tools', formatTextTable(['', 'tool', 'version', 'gives encplan'], rows, '  ', [], width)];
    const missing = result.tools.filter((tool) => tool.path === null && (tool.install ?? null) !== null);
    if (missing.length > 0) {
      lines.push(
        '',
        'How to get what is missing',
        ...missing.map((tool) => `  ${tool.tool}: ${tool.install ?? ''}`),
      );
    }
    lines.push('', 'Kernel and platform');
    for (const capability of result.capabilities) {
      lines.push(`  ${capability.present ? 'ok     ' : 'missing'}  ${capability.id}: ${capability.evidence}`);
      if (!capability.present) {
        lines.push(`           cost: ${capability.costWhenMissing}`);
      }
    }
    this.log(fitText(lines.join('\n'), width));
  }
}
