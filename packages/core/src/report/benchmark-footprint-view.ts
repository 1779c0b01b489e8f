import { assessmentDocument } from '../contract/assessment.js';
import { SELECTABLE_BENCHMARK_IDS } from '../targets/registry.js';
import type { BackendId, IoBenchmarkMode } from '../domain/io-benchmark.js';
import {
  benchmarkScratchBytes,
  FREE_SPACE_MARGIN_BYTES,
  scratchDirectoryOf,
} from '../plan/benchmark-footprint.js';

/** Where an I/O benchmark of the assessed disk would write, and how much, before the user starts it. */
export interface BenchmarkFootprintView {
  /** The mounted filesystem of the disk the scratch files go in; null: none is mounted, no I/O is measured. */
  readonly directory: string | null;
  /** The most the scratch files (sparse) take while they exist. */
  readonly scratchBytes: number;
  /** The free space the run asks for: the scratch files plus encplan's margin. */
  readonly freeNeededBytes: number;
}

/** The I/O backends a footprint is computed for: the plain baseline and the selectable benchmark targets. */
const BACKEND_IDS: readonly string[] = ['plain', ...SELECTABLE_BENCHMARK_IDS];

/**
 * The footprint of benchmarking the disk of an assessment envelope (JSON of unknown origin, e.g. the wizard's
 * facts-only run) with `choices` (wizard backend ids; those that are not I/O backends are ignored). Null when
 * the JSON is not an assessment with a stack or no I/O backend is chosen.
 */
export function benchmarkFootprintFromJson(
  json: unknown,
  mode: IoBenchmarkMode,
  choices: readonly string[],
): BenchmarkFootprintView | null {
  const backends = choices.filter((choice): choice is BackendId => BACKEND_IDS.includes(choice));
  const parsed = assessmentDocument.envelope.safeParse(json);
  const stack = parsed.success ? parsed.data.result?.stack : undefined;
  if (stack === undefined || stack === null || backends.length === 0) {
    return null;
  }
  const scratchBytes = benchmarkScratchBytes(backends, mode);
  return {
    directory: scratchDirectoryOf(stack),
    scratchBytes,
    freeNeededBytes: scratchBytes + FREE_SPACE_MARGIN_BYTES,
  };
}
