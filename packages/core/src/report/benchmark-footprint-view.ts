import { SELECTABLE_BENCHMARK_IDS } from '../targets/registry.js';
import type { BackendId, IoBenchmarkMode } from '../domain/io-benchmark.js';
import { benchmarkScratchBytes, FREE_SPACE_MARGIN_BYTES } from '../plan/benchmark-footprint.js';

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
 * The footprint of a benchmark writing in `directory` (as the run chooses it: use-cases/assess.ts
 * chooseScratchDirectory) with `choices`; null when no I/O backend is chosen.
 */
export function benchmarkFootprintIn(
  directory: string | null,
  mode: IoBenchmarkMode,
  choices: readonly string[],
): BenchmarkFootprintView | null {
  const backends = choices.filter((choice): choice is BackendId => BACKEND_IDS.includes(choice));
  if (backends.length === 0) {
    return null;
  }
  const scratchBytes = benchmarkScratchBytes(backends, mode);
  return { directory, scratchBytes, freeNeededBytes: scratchBytes + FREE_SPACE_MARGIN_BYTES };
}
