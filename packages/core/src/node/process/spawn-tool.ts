import { spawn, type ChildProcess } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CommandSpec } from '../../ports.js';
import { canAccessSync } from '../can-access.js';
import { monotonicNowMs } from '../clock.js';

/**
 * The part of the one process runner (run-command.ts) that finds a tool and starts it, small enough to load
 * without the core: the CLI starts one disk's first read-only calls with it before the core is imported
 * (issue 28, {@link startEarly}), and the runner hands such a started call to the probe that asks the very
 * same command line instead of starting it again. Everything else (deadlines, output caps, cancelling, the
 * exit code) is the runner's, whichever started the process.
 */

/** Directories searched for tools after the user's PATH: smartctl, hdparm and friends live in sbin. */
const SYSTEM_DIRECTORIES = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** Where tools are looked for, and the PATH the children get. */
export interface ToolSearch {
  readonly directories: readonly string[];
  /** Each directory normalised once, ending in the separator: a candidate is that prefix plus the tool's name. */
  readonly prefixes: readonly string[];
  readonly childPath: string;
  readonly suffixes: readonly string[];
}

/**
 * A POSIX directory path path.normalize would return unchanged: absolute, no empty, "." or ".." part, no
 * trailing separator. Most PATH entries are; testing it here keeps Node's character-by-character normaliser
 * (which V8 optimises once it has seen enough characters) out of a short run.
 */
const ALREADY_NORMAL = /^(?:\/(?!\.\.?(?:\/|$))[^/]+)+$/;

/** The absolute entries of `searchPath`, then (unless turned off) the system directories, each once. */
export function toolSearch(
  searchPath: string,
  includeSystemDirectories: boolean,
  suffixes: readonly string[],
): ToolSearch {
  const directories = [
    ...new Set([
      ...searchPath.split(path.delimiter).filter((entry) => path.isAbsolute(entry)),
      ...(includeSystemDirectories ? SYSTEM_DIRECTORIES : []),
    ]),
  ];
  // One normalisation per directory, not one path.join per directory and tool: joining every candidate ran
  // Node's path code on enough characters to bring in V8's optimising compiler, whose code pages added ~5 MiB
  // to a one-disk assess's peak RSS with a long PATH (docs/performance.md, issue 28 CPU pass).
  const prefixes = directories.map((directory) => {
    const normalized = ALREADY_NORMAL.test(directory) ? directory : path.normalize(directory);
    return normalized.endsWith(path.sep) ? normalized : normalized + path.sep;
  });
  return { directories, prefixes, childPath: directories.join(path.delimiter), suffixes };
}

/**
 * The first executable `TOOL[suffix]` of the search, or null. Synchronous (issue 28): each candidate is a
 * stat(2) and, when it exists, an access(2) of a few microseconds, where awaiting fs.promises.access for each
 * left the main thread idle on the thread pool between one disk's early spawns (docs/performance.md). A
 * candidate that does not exist is skipped without an exception (`throwIfNoEntry`); one that does is
 * executable when access(2) says so, as before.
 */
export function findTool(search: ToolSearch, tool: string): string | null {
  for (const prefix of search.prefixes) {
    for (const suffix of search.suffixes) {
      const candidate = `${prefix}${tool}${suffix}`;
      if (canAccessSync(candidate, fsConstants.X_OK)) {
        return candidate;
      }
    }
  }
  return null;
}

/** A child's whole environment: the search's PATH and `LC_ALL=C`, so parsers see stable output. */
export function childEnvironment(search: ToolSearch, env: CommandSpec['env']): NodeJS.ProcessEnv {
  return { PATH: search.childPath, LC_ALL: 'C', LANG: 'C', ...env };
}

/**
 * Process groups of the tools running now. If encplan exits while one runs (process.exit after a signal,
 * an uncaught error), the tool and everything it started get SIGTERM: their own session does not receive
 * the terminal's Ctrl-C, so nothing else would stop them.
 */
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function endRunningGroupsOnExit(): void {
  if (exitHookInstalled) {
    return;
  }
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of runningGroups) {
      try {
        process.kill(-group, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}

type Ending = [code: number | null, signal: NodeJS.Signals | null];

/** A started tool. Its `exit`, `close` and `error` are kept, so whoever supervises it later still hears them. */
export interface StartedTool {
  /** stdin is a pipe only when the call has stdin to give; stdout and stderr are always pipes. */
  readonly child: ChildProcess & { readonly stdout: Readable; readonly stderr: Readable };
  /** How long it ran: until it exited, else until now (a call started early may have exited long before). */
  runtimeMs(): number;
  on(event: 'exit' | 'close', listener: (...ending: Ending) => void): void;
  /** What it printed on `stream` so far, then each further chunk, to `listener` (one listener per stream). */
  onData(stream: 'stdout' | 'stderr', listener: (chunk: Buffer) => void): void;
  onError(listener: (error: NodeJS.ErrnoException) => void): void;
  /** Its process group is no longer running (or no longer ours to end at exit). */
  forget(): void;
}

/**
 * Starts `executable args` as the leader of its own process group (setsid), so a deadline or a cancel can end
 * the tool *and* whatever it started; `shell: false`, an argument array. Given stdin is written to a pipe and
 * closed; without any, stdin is the null device (`'ignore'`): the tool reads end-of-file at once, as it did from
 * the empty pipe it had before, and no pipe is made, written or closed (issue 28: a third pipe per child cost
 * about 0.3 ms of CPU per spawn on this machine kind, docs/performance.md). Its output stays in the
 * pipes (and the streams' buffers) until the runner reads it.
 */
export function startTool(
  executable: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  stdin: string | undefined,
): StartedTool {
  const windows = process.platform === 'win32';
  const startedAt = monotonicNowMs();
  // stdout and stderr are pipes whichever stdin is (Node's typings cannot tell that from a computed stdio).
  const child = spawn(executable, [...args], {
    shell: false,
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env,
    windowsHide: true,
    detached: !windows,
  }) as StartedTool['child'];
  const pid = child.pid;
  if (pid !== undefined && !windows) {
    endRunningGroupsOnExit();
    runningGroups.add(pid);
  }
  // Output is read from the start: Node drains (and drops) a child's output no one listens to when it exits
  // (lib/internal/child_process.js `flushStdio`). Until the runner listens it is kept here, and past
  // EARLY_BUFFER_BYTES the stream is paused, so the tool waits on its pipe as it would for a slow reader.
  const outputs = { stdout: new OutputRelay(child.stdout), stderr: new OutputRelay(child.stderr) };
  const endings: Partial<Record<'exit' | 'close', Ending>> = {};
  let failed: NodeJS.ErrnoException | undefined;
  let exitedAt: number | undefined;
  child.once('exit', (...ending: Ending) => {
    exitedAt = monotonicNowMs();
    endings.exit = ending;
  });
  child.once('close', (...ending: Ending) => (endings.close = ending));
  child.on('error', (error: NodeJS.ErrnoException) => (failed ??= error));
  if (child.stdin !== null) {
    // A child that exits before reading stdin gives EPIPE; its exit status tells the story.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  }
  return {
    child,
    runtimeMs: () => (exitedAt ?? monotonicNowMs()) - startedAt,
    on(event, listener) {
      const ending = endings[event];
      if (ending === undefined) {
        child.once(event, listener);
      } else {
        queueMicrotask(() => listener(...ending));
      }
    },
    onData(stream, listener) {
      outputs[stream].relayTo(listener);
    },
    onError(listener) {
      if (failed === undefined) {
        child.once('error', listener);
      } else {
        const error = failed;
        queueMicrotask(() => listener(error));
      }
    },
    forget() {
      if (pid !== undefined) {
        runningGroups.delete(pid);
      }
    },
  };
}

/** Output of a started tool kept before the runner reads it; then the stream waits (backpressure). */
const EARLY_BUFFER_BYTES = 1024 * 1024;

/** One output stream of a started tool: kept until a listener comes, then relayed to it. */
class OutputRelay {
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private listener: ((chunk: Buffer) => void) | undefined;
  private readonly stream: NodeJS.ReadableStream;

  constructor(stream: NodeJS.ReadableStream) {
    this.stream = stream;
    stream.on('data', (chunk: Buffer) => {
      if (this.listener !== undefined) {
        this.listener(chunk);
        return;
      }
      this.kept.push(chunk);
      this.keptBytes += chunk.length;
      if (this.keptBytes > EARLY_BUFFER_BYTES) {
        stream.pause();
      }
    });
  }

  relayTo(listener: (chunk: Buffer) => void): void {
    this.listener = listener;
    const kept = this.kept;
    this.kept = [];
    for (const chunk of kept) {
      listener(chunk);
    }
    this.stream.resume();
  }
}

/**
 * The only tools, and their only command lines, that may start before anything asked them: read-only queries
 * (lsblk(8), sfdisk(8) `--json` dumps the table and writes nothing, smartctl(8) `-x` without `-s`/`-t`/`-o`,
 * systemctl(1) `is-enabled`/`show`, blkid(8) `-p -o export -- /dev/…`: the low-level probe reads the devices and
 * never writes its cache). Anything else given to {@link startEarly} is not started.
 */
const EARLY_ALLOWED: Readonly<Record<string, (args: readonly string[]) => boolean>> = {
  blkid: (args) =>
    args.length > 4 &&
    args.slice(0, 4).join(' ') === '-p -o export --' &&
    args.slice(4).every((device) => device.startsWith('/dev/')),
  lsblk: (args) => args[0] === '--json',
  sfdisk: (args) => args[0] === '--json' && args.length === 3,
  smartctl: (args) => args[0] === '--json=v' && args[1] === '-x' && args[2] === '--nocheck=standby',
  systemctl: (args) => args[0] === 'is-enabled' || args[0] === 'show',
};

/** The calls started early that no one took yet, by their exact executable, arguments and environment. */
const startedEarly = new Map<string, StartedTool>();

const keyOf = (executable: string, args: readonly string[], env: NodeJS.ProcessEnv) =>
  JSON.stringify([executable, args, env]);

/** Where the early start found each tool, by search and name: the runner of the same search reuses it. */
const foundEarly = new Map<string, string>();

const foundKeyOf = (search: ToolSearch, tool: string) =>
  JSON.stringify([search.childPath, search.suffixes, tool]);

/**
 * Starts `specs` (those on the allow-list, without stdin) now, as the runner of a process whose tool search is
 * `searchPath` plus the system directories would start them; the runner takes each when a probe asks its exact
 * command line ({@link takeStartedEarly}), and reuses the tools' locations ({@link toolFoundEarly}).
 * {@link discardStartedEarly} ends those no one asked. Synchronous: one spawn follows the other, and the CLI
 * imports the core right after.
 */
export function startEarly(specs: readonly CommandSpec[], searchPath: string): void {
  const search = toolSearch(searchPath, true, ['']);
  for (const spec of specs) {
    const allowed = Object.hasOwn(EARLY_ALLOWED, spec.tool) && EARLY_ALLOWED[spec.tool]?.(spec.args) === true;
    if (!allowed || spec.stdin !== undefined) {
      continue;
    }
    const foundKey = foundKeyOf(search, spec.tool);
    const executable = foundEarly.get(foundKey) ?? findTool(search, spec.tool);
    if (executable === null) {
      continue;
    }
    foundEarly.set(foundKey, executable);
    const env = childEnvironment(search, spec.env);
    const key = keyOf(executable, spec.args, env);
    if (!startedEarly.has(key)) {
      startedEarly.set(key, startTool(executable, spec.args, env, undefined));
    }
  }
}

/** Where the early start found `tool` with this very search (the same directories and suffixes), if it did. */
export function toolFoundEarly(search: ToolSearch, tool: string): string | undefined {
  return foundEarly.size === 0 ? undefined : foundEarly.get(foundKeyOf(search, tool));
}

/** The call started early with exactly this command line and environment, once; else undefined. */
export function takeStartedEarly(
  executable: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): StartedTool | undefined {
  if (startedEarly.size === 0) {
    return undefined;
  }
  const key = keyOf(executable, args, env);
  const started = startedEarly.get(key);
  startedEarly.delete(key);
  return started;
}

/**
 * Ends every call started early that the run did not ask (SIGKILL to its process group: it was never read, so
 * nothing of it shows) and waits until each has exited. Returns how many there were.
 */
export async function discardStartedEarly(): Promise<number> {
  const left = [...startedEarly.values()];
  startedEarly.clear();
  await Promise.all(
    left.map(
      (started) =>
        new Promise<void>((resolve) => {
          started.on('exit', () => resolve());
          started.onError(() => resolve());
          started.child.stdout.destroy();
          started.child.stderr.destroy();
          const pid = started.child.pid;
          try {
            if (pid !== undefined) {
              process.kill(-pid, 'SIGKILL');
            }
          } catch {
            // already gone
          }
        }),
    ),
  );
  for (const started of left) {
    started.forget();
  }
  return left.length;
}
