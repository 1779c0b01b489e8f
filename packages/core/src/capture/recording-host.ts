import { EncplanError, isEncplanError } from '../errors.js';
import type { CommandSpec, Host, ToolName } from '../ports.js';
import type { CapturedError, Capture } from './capture.js';

/** A host that forwards to another and records every answer, for bundles and reports. */
export interface RecordingHost extends Host {
  /** The captures so far, in the order they were made (repeated requests are recorded once). */
  captures(): readonly Capture[];
}

function toCapturedError(error: unknown): CapturedError {
  if (isEncplanError(error)) {
    return { code: error.code, message: error.message };
  }
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Wraps `inner` so that everything it answers is recorded. Errors are recorded too, then rethrown, so a
 * replay meets the same failure. Identical requests after the first are answered from the record.
 */
export function createRecordingHost(inner: Host): RecordingHost {
  const log: Capture[] = [];
  const memo = new Map<string, Promise<unknown>>();

  function remember<T>(key: string, produce: () => Promise<T>, record: (result: T | null, error: CapturedError | null) => Capture): Promise<T> {
    const existing = memo.get(key);
    if (existing !== undefined) {
      return existing as Promise<T>;
    }
    const pending = produce().then(
      (result) => {
        log.push(record(result, null));
        return result;
      },
      (error: unknown) => {
        log.push(record(null, toCapturedError(error)));
        throw error;
      },
    );
    memo.set(key, pending);
    return pending;
  }

  return {
    platform: inner.platform,
    cwd: inner.cwd,
    privileged: inner.privileged,
    async run(spec: CommandSpec, signal?: AbortSignal) {
      // Commands are not memoised: a benchmark may run the same job twice on purpose.
      const base = { kind: 'command' as const, tool: spec.tool, argv: [...spec.args], stdinBytes: spec.stdin?.length ?? 0 };
      try {
        const output = await inner.run(spec, signal);
        log.push({ ...base, output, error: null });
        return output;
      } catch (error) {
        log.push({ ...base, output: null, error: toCapturedError(error) });
        throw error;
      }
    },
    readText: (path) => remember(`read-text:${path}`, () => inner.readText(path), (result, error) => ({ kind: 'read-text', path, result, error })),
    listDir: (path) => remember(`list-dir:${path}`, () => inner.listDir(path), (result, error) => ({ kind: 'list-dir', path, result, error })),
    realPath: (path) => remember(`real-path:${path}`, () => inner.realPath(path), (result, error) => ({ kind: 'real-path', path, result, error })),
    stat: (path) => remember(`stat:${path}`, () => inner.stat(path), (result, error) => ({ kind: 'stat', path, result, error })),
    whichTool: (tool: ToolName) => remember(`which:${tool}`, () => inner.whichTool(tool), (result, error) => ({ kind: 'which-tool', tool, result, error })),
    systemInfo: () => remember('system-info', () => inner.systemInfo(), (result, error) => ({ kind: 'system-info', result, error })),
    captures: () => [...log],
  };
}

/** Rebuilds the error a capture recorded. */
export function rethrowCaptured(error: CapturedError): never {
  throw new EncplanError(error.code, error.message, { details: { replayed: true } });
}
