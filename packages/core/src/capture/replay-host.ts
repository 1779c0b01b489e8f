import { EncplanError } from '../errors.js';
import type { CommandOutput, Host, PathStat, SystemInfoSnapshot, ToolName } from '../ports.js';
import { captureKey, commandKey, type Capture, type CommandCapture } from './capture.js';
import { rethrowCaptured } from './recording-host.js';

/** Where a replay host gets its answers: the captures of a bundle and the context they were made in. */
export interface ReplaySource {
  readonly platform: Host['platform'];
  readonly cwd: string;
  readonly privileged: boolean;
  readonly captures: readonly Capture[];
}

/**
 * A host that answers from captures only and never touches the system. A request that was not captured
 * answers as "absent" for reads (the file did not exist) and TOOL_NOT_FOUND for commands, so an analysis
 * of a bundle can only ever use what was collected.
 */
export function createReplayHost(source: ReplaySource): Host {
  const reads = new Map<string, Capture>();
  const commands = new Map<string, CommandCapture[]>();
  for (const capture of source.captures) {
    if (capture.kind === 'command') {
      const key = commandKey(capture.tool, capture.argv);
      commands.set(key, [...(commands.get(key) ?? []), capture]);
    } else {
      reads.set(captureKey(capture), capture);
    }
  }
  const served = new Map<string, number>();

  function lookup<T>(key: string): T | null {
    const capture = reads.get(key) as (Capture & { result: T | null; error: { code: never; message: string } | null }) | undefined;
    if (capture === undefined) {
      return null;
    }
    if (capture.error !== null) {
      rethrowCaptured(capture.error);
    }
    return capture.result;
  }

  return {
    platform: source.platform,
    cwd: source.cwd,
    privileged: source.privileged,
    run(spec) {
      const key = commandKey(spec.tool, spec.args);
      const list = commands.get(key) ?? [];
      const index = served.get(key) ?? 0;
      // Replays in order; when a command ran more often live than now, the last answer repeats.
      const capture = list[Math.min(index, list.length - 1)];
      served.set(key, index + 1);
      if (capture === undefined) {
        return Promise.reject(
          new EncplanError('TOOL_NOT_FOUND', `The bundle holds no output of: ${spec.tool} ${spec.args.join(' ')}`, {
            details: { tool: spec.tool, replayed: true },
          }),
        );
      }
      if (capture.error !== null) {
        return Promise.reject(new EncplanError(capture.error.code, capture.error.message, { details: { replayed: true } }));
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
