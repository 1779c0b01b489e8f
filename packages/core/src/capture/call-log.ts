import { isEncplanError } from '../errors.js';
import type { Host, ToolName } from '../ports.js';

/** One process a run started, for `--verbose`: what ran, how long it took, how it ended. */
export interface ExternalCall {
  readonly tool: ToolName;
  readonly argv: readonly string[];
  /** The runner's measured duration; null when no process ran to an exit (not found, timed out, cancelled). */
  readonly durationMs: number | null;
  readonly exitCode: number | null;
  /** The error code when the call ended without an exit status. */
  readonly error: string | null;
}

/**
 * Wraps a host so every process it runs is logged, in the order the calls finish. Nothing else changes:
 * reads, effects and answers pass through untouched.
 */
export function logExternalCalls(inner: Host): { host: Host; calls: () => readonly ExternalCall[] } {
  const log: ExternalCall[] = [];
  const host: Host = {
    ...inner,
    async run(spec, signal) {
      try {
        const output = await inner.run(spec, signal);
        log.push({
          tool: spec.tool,
          argv: [...spec.args],
          durationMs: output.durationMs,
          exitCode: output.exitCode,
          error: null,
        });
        return output;
      } catch (error) {
        log.push({
          tool: spec.tool,
          argv: [...spec.args],
          durationMs: null,
          exitCode: null,
          error: isEncplanError(error) ? error.code : 'INTERNAL_ERROR',
        });
        throw error;
      }
    },
  };
  return { host, calls: () => [...log] };
}

/** The `--verbose` lines: one per call (duration, exit, command line), then the count and the summed time. */
export function formatExternalCalls(calls: readonly ExternalCall[]): string[] {
  const total = calls.reduce((sum, call) => sum + (call.durationMs ?? 0), 0);
  return [
    ...calls.map(
      (call) =>
        `encplan: call ${call.durationMs === null ? '     -' : `${String(Math.round(call.durationMs)).padStart(4)} ms`}  ${call.error ?? `exit ${String(call.exitCode)}`}  ${[call.tool, ...call.argv].join(' ')}`,
    ),
    `encplan: ${String(calls.length)} external call${calls.length === 1 ? '' : 's'}, ${String(Math.round(total))} ms summed (they may overlap)`,
  ];
}
