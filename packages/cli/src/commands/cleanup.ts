import { cleanupDocument } from '@encplan/core';
import { cleanupLeftovers, createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';

/** `encplan cleanup`: removes mounts, loop devices, mappings and files that killed benchmark runs left. */
export default class Cleanup extends EncplanCommand {
  static override summary =
    'Remove what an interrupted or killed benchmark left behind (mounts, loop devices, mappings, files).';
  static override description =
    'Acts only on the state files of runs proven dead (same PID namespace, and the pid gone or reused), and only on what they recorded. A run in another PID namespace (a container) is listed and left alone; a resource still in use is reported busy and kept for a later cleanup.';
  readonly document = cleanupDocument;

  async run(): Promise<void> {
    const { flags } = await this.parse(Cleanup);
    const { host } = createEnvironment();
    const report = await cleanupLeftovers(host);
    const failed = report.outcomes.filter(
      (outcome) => outcome.outcome === 'failed' || outcome.outcome === 'busy',
    );
    const warnings = failed.map((outcome) => ({
      code: 'TOOL_FAILED' as const,
      message: `${outcome.outcome === 'busy' ? 'in use, left in place' : 'could not be removed'}: ${outcome.message ?? ''}`,
      source: JSON.stringify(outcome.resource),
    }));
    if (flags.json) {
      this.emitOkEnvelope(report, warnings);
      return;
    }
    const removed = report.outcomes.filter((outcome) => outcome.outcome === 'removed');
    const kept = report.outcomes.filter((outcome) => outcome.outcome === 'kept');
    const leftAlone = report.runs.filter((run) => run.status !== 'dead' && run.status !== 'alive');
    if (removed.length === 0 && failed.length === 0 && kept.length === 0 && leftAlone.length === 0) {
      this.log('Nothing to clean up.');
    }
    for (const run of leftAlone) {
      this.log(`left alone: ${run.stateFile} (pid ${run.pid}): ${run.reason}`);
    }
    for (const outcome of [...removed, ...kept, ...failed]) {
      this.log(
        `${outcome.outcome}: ${outcome.resource.kind} ${Object.values(outcome.resource).slice(1).join(' ')}${outcome.message === null ? '' : ` (${outcome.message})`}`,
      );
    }
  }
}
