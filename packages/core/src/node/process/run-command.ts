import { constants as fsConstants } from 'node:fs';
import { EncplanError, cancelled, throwIfCancelled, toolNotFound } from '../../errors.js';
import { type CommandOutput, type CommandSpec, type RunCommand, type ToolName } from '../../ports.js';
import { canAccess } from '../can-access.js';
import {
  childEnvironment,
  findTool,
  startTool,
  takeStartedEarly,
  toolFoundEarly,
  toolSearch,
} from './spawn-tool.js';
import { currentPlatform } from '../platform.js';

/** TOOL_NOT_FOUND with the way to install the tool on this platform (Homebrew on a Mac, not apt-get). */
function missing(tool: ToolName): EncplanError {
  return toolNotFound(tool, currentPlatform());
}

/**
 * How long the runner keeps reading after the tool itself exited, for the last of its output to arrive through
 * the pipes. Then whatever still holds them open is a process the tool left behind (a daemon, a helper): its
 * process group gets SIGTERM and the tool's exit status is the result, so a leftover never costs the deadline.
 */
export const EXIT_DRAIN_MS = 1000;

/** Every deadline that fired in this process: a command with one is never reported as a plain success. */
const firedDeadlines: { readonly tool: ToolName; readonly timeoutMs: number }[] = [];

/**
 * The tools whose deadline fired in this process so far (each a TOOL_TIMED_OUT, which a probe may have turned
 * into a warning and a partial result). The CLI exits non-zero when there is any (issue 25).
 */
export function deadlinesFired(): readonly { readonly tool: ToolName; readonly timeoutMs: number }[] {
  return firedDeadlines;
}

/** How the runner is set up. */
export interface RunnerOptions {
  /** The PATH to search, before the system directories. */
  readonly searchPath: string;
  /** Whether to search the usual sbin/bin directories after `searchPath` (default true; tests turn it off). */
  readonly includeSystemDirectories?: boolean;
  /** Explicit tool locations that win over the search. */
  readonly toolPaths?: Partial<Record<ToolName, string>>;
  /** Output cap when a spec sets none. */
  readonly defaultMaxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL when a child must be stopped. */
  readonly killGraceMs?: number;
  /**
   * Every tool's deadline is multiplied by this (default 1): `ENCPLAN_DEADLINE_SCALE` (createEnvironment), for a
   * machine slower than the deadlines allow for, and for tests that prove a deadline without waiting for it.
   */
  readonly deadlineScale?: number;
  /**
   * File name endings tried for each tool, in order. Default: `.exe` then `.com` on Windows (where
   * `powershell`, `manage-bde`, `fsutil` and `diskspd` are `NAME.exe` files; `.bat`/`.cmd` are left out because
   * they run only through cmd.exe, which this runner never starts), the bare name elsewhere.
   */
  readonly executableSuffixes?: readonly string[];
}

/** A runner plus the tool lookup it uses, so `doctor` reports exactly what the runner would run. */
export interface Runner {
  readonly run: RunCommand;
  resolveTool(tool: ToolName): Promise<string | null>;
}

const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_BYTES = 8 * 1024;

/**
 * Creates the one process runner. Tools are looked up once over a fixed search path; children run with
 * `shell: false`, an argument array and an explicit `LC_ALL=C` environment so parsers see stable output.
 */
export function createRunner(options: RunnerOptions): Runner {
  const search = toolSearch(
    options.searchPath,
    options.includeSystemDirectories !== false,
    options.executableSuffixes ?? (currentPlatform() === 'win32' ? ['.exe', '.com'] : ['']),
  );
  const cache = new Map<ToolName, Promise<string | null>>();

  function resolveTool(tool: ToolName): Promise<string | null> {
    let pending = cache.get(tool);
    if (pending === undefined) {
      pending = (async () => {
        const explicit = options.toolPaths?.[tool];
        if (explicit !== undefined) {
          // An explicit path is used as given: if it is not executable, spawning it says EACCES.
          return (await canAccess(explicit, fsConstants.F_OK)) ? explicit : null;
        }
        // The CLI's early start looked the tool up with this same search a moment ago (spawn-tool.ts).
        return toolFoundEarly(search, tool) ?? findTool(search, tool);
      })();
      cache.set(tool, pending);
    }
    return pending;
  }

  const run: RunCommand = async (spec: CommandSpec, signal?: AbortSignal): Promise<CommandOutput> => {
    if (!Number.isFinite(spec.timeoutMs) || spec.timeoutMs <= 0) {
      throw new EncplanError('INTERNAL_ERROR', `A timeout is required to run ${spec.tool}.`);
    }
    throwIfCancelled(signal, `Running ${spec.tool}`);
    const timeoutMs = Math.max(1, Math.round(spec.timeoutMs * (options.deadlineScale ?? 1)));
    const executable = await resolveTool(spec.tool);
    if (executable === null) {
      throw missing(spec.tool);
    }
    // The signal may have fired during the lookup.
    throwIfCancelled(signal, `Running ${spec.tool}`);
    const maxOutputBytes = spec.maxOutputBytes ?? options.defaultMaxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const killGraceMs = options.killGraceMs ?? 2000;
    return new Promise<CommandOutput>((resolve, reject) => {
      // A call the CLI started before the core was loaded (spawn-tool.ts `startEarly`) with exactly this
      // command line and environment is this call: it is supervised from here on as if started now.
      const env = childEnvironment(search, spec.env);
      const tool =
        (spec.stdin === undefined ? takeStartedEarly(executable, spec.args, env) : undefined) ??
        startTool(executable, spec.args, env, spec.stdin);
      const child = tool.child;
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let outputBytes = 0;
      let failure: EncplanError | null = null;
      let settled = false;
      let leaderExited = false;
      const timers: NodeJS.Timeout[] = [];

      function signalGroup(signal: NodeJS.Signals): void {
        if (child.pid === undefined) {
          return;
        }
        try {
          if (process.platform === 'win32') {
            child.kill(signal);
          } else {
            process.kill(-child.pid, signal);
          }
        } catch {
          // ESRCH: the whole group is already gone.
        }
      }

      function later(ms: number, action: () => void): void {
        const timer = setTimeout(action, ms);
        timer.unref();
        timers.push(timer);
      }

      function finish(): void {
        settled = true;
        tool.forget();
        clearTimeout(deadline);
        for (const timer of timers) {
          clearTimeout(timer);
        }
        signal?.removeEventListener('abort', onAbort);
      }

      /** Stops reading: whatever still holds the pipes (a child that escaped the group) is not waited for. */
      function abandon(): void {
        if (settled || failure === null) {
          return;
        }
        finish();
        child.stdout.destroy();
        child.stderr.destroy();
        child.unref();
        reject(failure);
      }

      function stop(reason: EncplanError): void {
        if (failure !== null || settled) {
          return;
        }
        failure = reason;
        signalGroup('SIGTERM');
        later(killGraceMs, () => {
          signalGroup('SIGKILL');
          // After SIGKILL only a process that left the group can hold the pipes; stop waiting for it.
          later(killGraceMs, abandon);
        });
        if (leaderExited) {
          // The tool itself is gone; only its leftovers held the pipes, and they were just signalled.
          later(Math.min(killGraceMs, 200), abandon);
        }
      }

      const deadline = setTimeout(() => {
        firedDeadlines.push({ tool: spec.tool, timeoutMs });
        stop(
          new EncplanError(
            'TOOL_TIMED_OUT',
            leaderExited
              ? `${spec.tool} exited, but a process it started kept its output open past the ${timeoutMs} ms limit.`
              : `${spec.tool} did not finish within ${timeoutMs} ms.`,
            { details: { tool: spec.tool, timeoutMs } },
          ),
        );
      }, timeoutMs);
      const onAbort = (): void => {
        stop(cancelled(`Running ${spec.tool}`));
      };
      // The signal may have fired while the tool was being looked up: the listener would never hear it.
      if (signal?.aborted === true) {
        onAbort();
      } else {
        signal?.addEventListener('abort', onAbort, { once: true });
      }

      function collect(into: Buffer[]) {
        return (chunk: Buffer) => {
          if (failure !== null) {
            return;
          }
          outputBytes += chunk.length;
          if (outputBytes > maxOutputBytes) {
            stop(
              new EncplanError(
                'TOOL_OUTPUT_TOO_LARGE',
                `${spec.tool} printed more than ${maxOutputBytes} bytes.`,
                {
                  details: { tool: spec.tool, maxOutputBytes },
                },
              ),
            );
            return;
          }
          into.push(chunk);
        };
      }
      tool.onData('stdout', collect(stdout));
      tool.onData('stderr', collect(stderr));

      tool.on('exit', (code, killedBy) => {
        leaderExited = true;
        if (failure !== null) {
          // Stopped by us: the leader is gone, give its group a moment to close the pipes, then stop reading.
          later(Math.min(killGraceMs, 200), abandon);
          return;
        }
        // The tool finished. Its output is complete once the pipes close; a process it left behind in its group
        // that keeps them open is not the tool: after EXIT_DRAIN_MS it gets SIGTERM (then SIGKILL), and the pipes
        // close with everything the tool wrote. One that left the group too is not waited for at all.
        later(EXIT_DRAIN_MS, () => {
          if (settled || failure !== null) {
            return;
          }
          signalGroup('SIGTERM');
          later(killGraceMs, () => {
            signalGroup('SIGKILL');
            later(killGraceMs, () => {
              if (settled || failure !== null) {
                return;
              }
              finish();
              child.stdout.destroy();
              child.stderr.destroy();
              child.unref();
              resolve(outputOf(code, killedBy));
            });
          });
        });
      });
      tool.onError((error) => {
        if (settled) {
          return;
        }
        finish();
        if (error.code === 'ENOENT') {
          reject(missing(spec.tool));
        } else if (error.code === 'EACCES' || error.code === 'EPERM') {
          reject(
            new EncplanError('PERMISSION_DENIED', `${executable} could not be started: permission denied.`, {
              details: { tool: spec.tool },
              cause: error,
            }),
          );
        } else {
          reject(
            new EncplanError('TOOL_FAILED', `${spec.tool} could not be started: ${error.message}`, {
              cause: error,
            }),
          );
        }
      });
      tool.on('close', (code, killedBy) => {
        if (settled) {
          return;
        }
        finish();
        if (failure !== null) {
          reject(failure);
          return;
        }
        resolve(outputOf(code, killedBy));
      });

      function outputOf(code: number | null, killedBy: NodeJS.Signals | null): CommandOutput {
        const stderrText = Buffer.concat(stderr).toString('utf8');
        return {
          // A child killed by a signal it did not get from us reports 128 + signal, as a shell would.
          exitCode: code ?? 128 + signalNumber(killedBy),
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr:
            stderrText.length > STDERR_TAIL_BYTES * 8 ? stderrText.slice(-STDERR_TAIL_BYTES * 8) : stderrText,
          durationMs: Math.round(tool.runtimeMs()),
        };
      }
    });
  };

  return { run, resolveTool };
}

function signalNumber(signal: NodeJS.Signals | null): number {
  switch (signal) {
    case 'SIGKILL':
      return 9;
    case 'SIGTERM':
      return 15;
    case 'SIGINT':
      return 2;
    case 'SIGSEGV':
      return 11;
    case 'SIGABRT':
      return 6;
    default:
      return 0;
  }
}
