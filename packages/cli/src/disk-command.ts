import { Args, Flags } from '@oclif/core';
import { assessmentDocument, machineAssessmentDocument, type JsonDocument } from '@encplan/core';
import { EncplanCommand } from './base-command.js';
import { stderrProgress, stderrStep } from './render/progress-bar.js';

/** The base of `encplan assess` and `encplan collect`: one disk (a device, or the current directory's) or all. */
export abstract class DiskCommand extends EncplanCommand {
  static override args = {
    device: Args.string({
      required: false,
      description:
        'Whole-disk block device, e.g. /dev/nvme0n1 or /dev/sda; default: the disk holding the current directory.',
    }),
  };

  /** `--all` prints the machine document (errors included), one disk the assessment. */
  get document(): JsonDocument {
    return this.argv.includes('--all') ? machineAssessmentDocument : assessmentDocument;
  }
}

/** `--benchmark` (`summary`: what the command then measures) and `--quick`, which shortens those runs. */
export function benchmarkFlags(summary: string) {
  return {
    benchmark: Flags.boolean({ summary, default: false }),
    quick: Flags.boolean({
      summary: 'With --benchmark: shorter runs (less precise).',
      default: false,
      dependsOn: ['benchmark'],
    }),
  };
}

/** With --benchmark, its steps and runs on stderr; without, none: a sub-second assessment needs no progress. */
export function benchmarkProgress(benchmark: boolean) {
  return benchmark ? { onProgress: stderrStep, onBenchmarkProgress: stderrProgress() } : {};
}
