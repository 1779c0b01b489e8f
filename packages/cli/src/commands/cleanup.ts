import { cleanupDocument } from '@encplan/core';
import { cleanupLeftovers, createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';

/** `encplan cleanup`: removes mounts, loop devices, mappings and files that killed benchmark runs left. */
export default class Cleanup extends EncplanCommand {
  static override summary =
    'Remove what an interrupted or killed benchmark left behind (mounts, loop devices, mappings, files).';
  readonly document = cleanupDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Cleanup);
    const { host } = createEnvironment();
    const report = await cleanupLeftovers(host);
    const failed = report.outcomes.filter((outcome) => outcome.outcome === 'failed');
    const warnings = failed.map((outcome) => ({
      code: 'TOOL_FAILED' as const,
      message: outcome.message ?? 'could not be removed',
      source: JSON.stringify(outcome.resource),
    }));
    if (flags.json) {
      this.emitOkEnvelope(report, warnings);
      return;
    }
    const removed = report.outcomes.filter((outcome) => outcome.outcome === 'removed');
    const kept = report.outcomes.filter((outcome) => outcome.outcome === 'kept');
    if (removed.length === 0 && failed.length === 0 && kept.length === 0) {
      this.log('Nothing to clean up.');
    }
    for (const outcome of [...removed, ...kept, ...failed]) {
      this.log(
        `${outcome.outcome}: ${outcome.resource.kind} ${Object.values(outcome.resource).slice(1).join(' ')}${outcome.message === null ? '' : ` (${outcome.message})`}`,
      );
    }
  }
}
