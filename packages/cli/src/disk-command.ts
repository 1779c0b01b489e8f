import { Args, Flags } from '@oclif/core';
import {
  assessmentDocument,
  FLAG_DEFINITIONS,
  machineAssessmentDocument,
  type JsonDocument,
} from '@encplan/core';
import { checkScratchDirectory, createEnvironment } from '@encplan/core/node';
import { EncplanCommand } from './base-command.js';
import { withCancellation } from './cancellation.js';
import { stderrProgress, stderrStep } from './render/progress-bar.js';
import { verboseEnvironment } from './verbose-calls.js';

/** The argument of `encplan assess` and `encplan collect`: one disk, by default the current directory's. */
export const deviceArgs = {
  device: Args.string({
    required: false,
    description:
      'Whole-disk block device, e.g. /dev/nvme0n1 or /dev/sda; default: the disk holding the current directory.',
  }),
};

/**
 * The base of `encplan assess` and `encplan collect` (each names `deviceArgs` itself: oclif's parse reads a
 * command's own static properties, not inherited ones).
 */
export abstract class DiskCommand extends EncplanCommand {
  /** `--all` prints the machine document (errors included), one disk the assessment. */
  get document(): JsonDocument {
    return this.argv.includes('--all') ? machineAssessmentDocument : assessmentDocument;
  }

  /**
   * Runs `work` on this machine's environment, Ctrl-C cancelling it; with `verbose`, the external programs it
   * ran are then listed on stderr.
   */
  protected async readDisks<T>(
    verbose: boolean,
    work: (environment: ReturnType<typeof createEnvironment>, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const { environment, report } = verboseEnvironment(createEnvironment(), verbose);
    const result = await withCancellation((signal) => work(environment, signal));
    report();
    return result;
  }
}

/**
 * The flags of `assess` and `collect` that choose what is read: serials in clear, benchmarks and their length.
 * Each command says in its own words what they do there.
 */
export function diskFlags(summaries: { includeSerials: string; benchmark: string }) {
  return {
    'include-serials': Flags.boolean({ summary: summaries.includeSerials, default: false }),
    benchmark: Flags.boolean({ summary: summaries.benchmark, default: false }),
    quick: Flags.boolean({
      summary: 'With --benchmark: shorter runs (less precise).',
      default: false,
      dependsOn: ['benchmark'],
    }),
    // One definition (core rules/flag-definitions.ts) for every command that benchmarks, the wizard and the fleet role.
    scratch: Flags.string({
      summary: `With --benchmark: write the scratch containers in this folder (default: the disk's largest mounted filesystem, at its own mount point). Accepted: ${FLAG_DEFINITIONS.scratch.accepted}.`,
      dependsOn: ['benchmark'],
    }),
  };
}

/** The benchmark `--benchmark [--quick] [--scratch DIR]` asks for, the folder checked (exit 2) before anything runs. */
export async function benchmarkRequestOf(flags: {
  benchmark: boolean;
  quick: boolean;
  scratch?: string | undefined;
}): Promise<{ quick: boolean; scratchDirectory?: string } | null> {
  if (!flags.benchmark) {
    return null;
  }
  return {
    quick: flags.quick,
    ...(flags.scratch === undefined ? {} : { scratchDirectory: await checkScratchDirectory(flags.scratch) }),
  };
}

/** With --benchmark, its steps and runs on stderr; without, none: a sub-second assessment needs no progress. */
export function benchmarkProgress(benchmark: boolean) {
  return benchmark ? { onProgress: stderrStep, onBenchmarkProgress: stderrProgress() } : {};
}
