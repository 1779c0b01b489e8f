import {
  assessmentDocument,
  machineAssessmentDocument,
  type JsonDocument,
  type ProgressEvent,
} from '@encplan/core';
import { checkScratchDirectory, createEnvironment } from '@encplan/core/node';
import { withCancellation } from './cancellation.js';
import { verboseEnvironment } from './verbose-calls.js';

// What `assess` and `collect` share to read this machine's disks, apart from their oclif definitions
// (disk-command.ts): the direct path of `assess` (direct-run.ts) runs without oclif.

/** The document of `assess`/`collect` with these arguments: `--all` prints the machine document, one disk the assessment. */
export function diskDocument(argv: readonly string[]): JsonDocument {
  return argv.includes('--all') ? machineAssessmentDocument : assessmentDocument;
}

/**
 * Runs `work` on this machine's environment, Ctrl-C cancelling it; with `verbose`, the external programs it
 * ran are then listed on stderr.
 */
export async function readDisks<T>(
  verbose: boolean,
  work: (environment: ReturnType<typeof createEnvironment>, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { environment, report } = verboseEnvironment(createEnvironment(), verbose);
  const result = await withCancellation((signal) => work(environment, signal));
  report();
  return result;
}

/** The benchmark `--benchmark [--quick] [--scratch DIR]` asks for, the folder checked (exit 2) before anything runs. */
export async function benchmarkRequestOf(flags: {
  benchmark?: boolean | undefined;
  quick?: boolean | undefined;
  scratch?: string | undefined;
}): Promise<{ quick: boolean; scratchDirectory?: string } | null> {
  if (flags.benchmark !== true) {
    return null;
  }
  return {
    quick: flags.quick === true,
    ...(flags.scratch === undefined ? {} : { scratchDirectory: await checkScratchDirectory(flags.scratch) }),
  };
}

/**
 * With --benchmark, its steps and runs on stderr; without, none: a sub-second assessment needs no progress. The
 * progress bar (and the text-width libraries it measures lines with) is loaded only then (issue 28).
 */
export async function benchmarkProgress(
  benchmark: boolean,
): Promise<{ onProgress?: (step: string) => void; onBenchmarkProgress?: (event: ProgressEvent) => void }> {
  if (!benchmark) {
    return {};
  }
  const { stderrProgress, stderrStep } = await import('./render/progress-bar.js');
  return { onProgress: stderrStep, onBenchmarkProgress: stderrProgress() };
}
