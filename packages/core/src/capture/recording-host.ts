import { EncplanError, isEncplanError } from '../errors.js';
import type { CommandSpec, Host, HostEffects, ToolName } from '../ports.js';
import type { CapturedError, Capture, EffectOp, HostReadCapture } from './capture.js';

/** A host that forwards to another and records every answer, for bundles and reports. */
export interface RecordingHost extends Host {
  /** The captures so far, in the order they were made (repeated requests are recorded once). */
  captures(): readonly Capture[];
}

type PathReadKind = 'read-text' | 'list-dir' | 'real-path' | 'stat';
type PathReadResult<K extends PathReadKind> = Extract<HostReadCapture, { kind: K }>['result'];

function toCapturedError(error: unknown): CapturedError {
  if (isEncplanError(error)) {
    return { code: error.code, message: error.message };
  }
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Wraps `inner` so that everything it answers is recorded. Errors are recorded too, then rethrown, so a
 * replay meets the same failure. Identical reads after the first are answered from the record until the host
 * performs an effect (the world may have changed: a mount, a file); the replay host mirrors this.
 */
export function createRecordingHost(inner: Host): RecordingHost {
  const log: Capture[] = [];
  const memo = new Map<string, Promise<unknown>>();
  let changing = false;

  function remember<T>(
    key: string,
    produce: () => Promise<T>,
    record: (result: T | null, error: CapturedError | null) => Capture,
  ): Promise<T> {
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

  /** A read of one path, remembered and recorded under its kind and path. */
  function rememberPath<K extends PathReadKind>(
    kind: K,
    path: string,
    produce: () => Promise<PathReadResult<K>>,
  ): Promise<PathReadResult<K>> {
    return remember(
      `${kind}:${path}`,
      produce,
      // TypeScript cannot correlate `kind` with `result` inside the union; the signature above does.
      (result, error) => ({ kind, path, result, error }) as Capture,
    );
  }

  return {
    platform: inner.platform,
    cwd: inner.cwd,
    privileged: inner.privileged,
    async run(spec: CommandSpec, signal?: AbortSignal) {
      // Commands are not memoised: a benchmark may run the same job twice on purpose. Once the run changes
      // things (the first effect), a command may change them too (mount, losetup): reads are asked again.
      if (changing) {
        memo.clear();
      }
      const base = {
        kind: 'command' as const,
        tool: spec.tool,
        argv: [...spec.args],
        stdinBytes: spec.stdin?.length ?? 0,
      };
      try {
        const output = await inner.run(spec, signal);
        log.push({ ...base, output, error: null });
        return output;
      } catch (error) {
        log.push({ ...base, output: null, error: toCapturedError(error) });
        throw error;
      }
    },
    readText: (path) => rememberPath('read-text', path, () => inner.readText(path)),
    listDir: (path) => rememberPath('list-dir', path, () => inner.listDir(path)),
    realPath: (path) => rememberPath('real-path', path, () => inner.realPath(path)),
    stat: (path) => rememberPath('stat', path, () => inner.stat(path)),
    whichTool: (tool: ToolName) =>
      remember(
        `which:${tool}`,
        () => inner.whichTool(tool),
        (result, error) => ({ kind: 'which-tool', tool, result, error }),
      ),
    systemInfo: () =>
      remember(
        'system-info',
        () => inner.systemInfo(),
        (result, error) => ({ kind: 'system-info', result, error }),
      ),
    effects: recordEffects(inner.effects, log, () => {
      changing = true;
      memo.clear();
    }),
    captures: () => [...log],
  };
}

function recordEffects(inner: HostEffects, log: Capture[], changed: () => void): HostEffects {
  async function record<T>(
    op: EffectOp,
    target: string | null,
    args: Record<string, string | number | boolean>,
    perform: () => Promise<T>,
  ): Promise<T> {
    changed();
    try {
      const result = await perform();
      log.push({ kind: 'effect', op, target, args, result: result ?? null, error: null });
      return result;
    } catch (error) {
      log.push({ kind: 'effect', op, target, args, result: null, error: toCapturedError(error) });
      throw error;
    }
  }
  return {
    runIdentity: () => record('run-identity', null, {}, () => inner.runIdentity()),
    monotonicMs: () => record('monotonic-ms', null, {}, () => inner.monotonicMs()),
    makeDirectory: (path, options) =>
      record('make-directory', path, { mode: options.mode, recursive: options.recursive === true }, () =>
        inner.makeDirectory(path, options),
      ),
    // Only the kind and size of the content: random content (keys) stays on the host.
    createFile: (path, options) =>
      record(
        'create-file',
        path,
        { mode: options.mode, content: options.content.kind, sizeBytes: options.content.sizeBytes },
        () => inner.createFile(path, options),
      ),
    writeTextAtomic: (path, text, mode) =>
      record('write-text-atomic', path, { mode, bytes: text.length }, () =>
        inner.writeTextAtomic(path, text, mode),
      ),
    remove: (path, options) =>
      record('remove', path, { recursive: options.recursive }, () => inner.remove(path, options)),
    freeBytes: (path) => record('free-bytes', path, {}, () => inner.freeBytes(path)),
    directIoAllowed: (directory) =>
      record('direct-io-allowed', directory, {}, () => inner.directIoAllowed(directory)),
    processAlive: (pid) => record('process-alive', String(pid), {}, () => inner.processAlive(pid)),
  };
}

/** Rebuilds the error a capture recorded. */
export function rethrowCaptured(error: CapturedError): never {
  throw new EncplanError(error.code, error.message, { details: { replayed: true } });
}
