import { EncplanError } from '../errors.js';
import type {
  CommandOutput,
  Host,
  HostEffects,
  PathStat,
  RunIdentity,
  SystemInfoSnapshot,
  ToolName,
} from '../ports.js';
import {
  captureKey,
  commandKey,
  effectKey,
  type Capture,
  type CommandCapture,
  type EffectCapture,
  type EffectOp,
} from './capture.js';
import { rethrowCaptured } from './recording-host.js';

/** Where a replay host gets its answers: the captures of a bundle and the context they were made in. */
export type ReplaySource = Pick<Host, 'platform' | 'cwd' | 'privileged'> & {
  readonly captures: readonly Capture[];
};

/**
 * A host that answers from captures only and never touches the system. A request that was not captured
 * answers as "absent" for reads (the file did not exist) and TOOL_NOT_FOUND for commands, so an analysis
 * of a bundle can only ever use what was collected.
 */
export function createReplayHost(source: ReplaySource): Host {
  const reads = new Map<string, Capture[]>();
  const commands = new Map<string, CommandCapture[]>();
  const effects = new Map<string, EffectCapture[]>();
  for (const capture of source.captures) {
    if (capture.kind === 'command') {
      const key = commandKey(capture.tool, capture.argv);
      commands.set(key, [...(commands.get(key) ?? []), capture]);
    } else if (capture.kind === 'effect') {
      const key = captureKey(capture);
      effects.set(key, [...(effects.get(key) ?? []), capture]);
    } else {
      const key = captureKey(capture);
      reads.set(key, [...(reads.get(key) ?? []), capture]);
    }
  }
  const served = new Map<string, number>();
  // The recording host answers a repeated read from memory until an effect happens; so does this replay:
  // a read advances to the key's next capture only when an effect came between (see recording-host.ts).
  let epoch = 0;
  let changing = false;
  const readEpoch = new Map<string, number>();

  function lookup<T>(key: string): T | null {
    const list = reads.get(key) ?? [];
    const last = readEpoch.get(key);
    const previous = served.get(key);
    const index = previous === undefined ? 0 : last === epoch ? previous : previous + 1;
    served.set(key, index);
    readEpoch.set(key, epoch);
    const capture = list[Math.min(index, list.length - 1)] as
      (Capture & { result: T | null; error: { code: never; message: string } | null }) | undefined;
    if (capture === undefined) {
      return null;
    }
    if (capture.error !== null) {
      rethrowCaptured(capture.error);
    }
    return capture.result;
  }

  function replayEffect<T>(op: EffectOp, target: string | null): Promise<T> {
    changing = true;
    epoch += 1;
    const key = effectKey(op, target);
    const list = effects.get(key) ?? [];
    const index = served.get(key) ?? 0;
    served.set(key, index + 1);
    const capture = list[Math.min(index, list.length - 1)];
    if (capture === undefined) {
      return Promise.reject(
        new EncplanError(
          'BUNDLE_INVALID',
          `The bundle holds no record of ${op}${target === null ? '' : ` ${target}`}; it was collected without this step.`,
          {
            details: { op, target, replayed: true },
          },
        ),
      );
    }
    if (capture.error !== null) {
      return Promise.reject(
        new EncplanError(capture.error.code, capture.error.message, { details: { replayed: true } }),
      );
    }
    return Promise.resolve(capture.result as T);
  }

  const replayedEffects: HostEffects = {
    runIdentity: () => replayEffect<RunIdentity>('run-identity', null),
    monotonicMs: () => replayEffect<number>('monotonic-ms', null),
    makeDirectory: (path) => replayEffect<void>('make-directory', path).then(() => undefined),
    createFile: (path) => replayEffect<void>('create-file', path).then(() => undefined),
    writeTextAtomic: (path) => replayEffect<void>('write-text-atomic', path).then(() => undefined),
    remove: (path) => replayEffect<void>('remove', path).then(() => undefined),
    freeBytes: (path) => replayEffect<number>('free-bytes', path),
    directIoAllowed: (directory) => replayEffect<boolean>('direct-io-allowed', directory),
    processAlive: (pid) => replayEffect<boolean>('process-alive', String(pid)),
  };

  return {
    platform: source.platform,
    cwd: source.cwd,
    privileged: source.privileged,
    effects: replayedEffects,
    run(spec) {
      if (changing) {
        epoch += 1;
      }
      const key = commandKey(spec.tool, spec.args);
      const list = commands.get(key) ?? [];
      const index = served.get(key) ?? 0;
      // Replays in order; when a command ran more often live than now, the last answer repeats.
      const capture = list[Math.min(index, list.length - 1)];
      served.set(key, index + 1);
      if (capture === undefined) {
        return Promise.reject(
          new EncplanError(
            'TOOL_NOT_FOUND',
            `The bundle holds no output of: ${spec.tool} ${spec.args.join(' ')}`,
            {
              // `uncaptured`: the bundle never asked this (an older encplan asked another way); see isUncaptured.
              details: { tool: spec.tool, replayed: true, uncaptured: true },
            },
          ),
        );
      }
      if (capture.error !== null) {
        return Promise.reject(
          new EncplanError(capture.error.code, capture.error.message, { details: { replayed: true } }),
        );
      }
      return Promise.resolve(capture.output as CommandOutput);
    },
    readText: (path) => Promise.resolve().then(() => lookup<string>(`read-text\u0000${path}`)),
    listDir: (path) => Promise.resolve().then(() => lookup<readonly string[]>(`list-dir\u0000${path}`)),
    realPath: (path) => Promise.resolve().then(() => lookup<string>(`real-path\u0000${path}`)),
    stat: (path) => Promise.resolve().then(() => lookup<PathStat>(`stat\u0000${path}`)),
    whichTool: (tool: ToolName) => Promise.resolve().then(() => lookup<string>(`which-tool\u0000${tool}`)),
    systemInfo: () =>
      Promise.resolve().then(() => {
        const info = lookup<SystemInfoSnapshot>('system-info');
        if (info === null) {
          throw new EncplanError('BUNDLE_INVALID', 'The bundle holds no system information capture.');
        }
        return info;
      }),
  };
}
