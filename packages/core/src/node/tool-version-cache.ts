import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { VERSION_ARGUMENTS } from '../domain/tooling.js';
import type { CommandOutput, CommandSpec, RunCommand, ToolName } from '../ports.js';

/**
 * Tool versions asked once per binary, not once per run (issue 28): the answer to a tool's version question
 * (`VERSION_ARGUMENTS`) is kept in the user's cache folder, keyed by the binary's path, size, inode and
 * modification and change times, so an upgraded or replaced tool is asked again. Only answers with exit status
 * 0 are kept. The cache is an optimisation and nothing more: a missing, unreadable, corrupt or unwritable cache
 * file means the tool is asked, never an error. The recording host sits above this, so `collect` records the
 * answer in the bundle whether it came from the tool or from the cache.
 */
interface CacheFile {
  readonly version: 1;
  readonly entries: Record<string, { exitCode: number; stdout: string; stderr: string }>;
}

/** At most this many binaries are remembered (the oldest are dropped): encplan asks about 18 tools. */
const MAX_ENTRIES = 64;

/** `$XDG_CACHE_HOME/encplan/tool-versions.json`, else `~/.cache/encplan/…` (XDG Base Directory Specification). */
export function toolVersionCacheFile(environment: NodeJS.ProcessEnv = process.env): string {
  const base =
    environment.XDG_CACHE_HOME !== undefined && path.isAbsolute(environment.XDG_CACHE_HOME)
      ? environment.XDG_CACHE_HOME
      : path.join(homedir(), '.cache');
  return path.join(base, 'encplan', 'tool-versions.json');
}

function isVersionQuestion(spec: CommandSpec): boolean {
  const question = VERSION_ARGUMENTS[spec.tool];
  return (
    question !== undefined &&
    spec.stdin === undefined &&
    spec.env === undefined &&
    question.length === spec.args.length &&
    question.every((word, index) => spec.args[index] === word)
  );
}

async function loadCache(file: string): Promise<CacheFile> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
    if (parsed.version === 1 && typeof parsed.entries === 'object' && parsed.entries !== null) {
      return { version: 1, entries: { ...parsed.entries } };
    }
  } catch {
    // Missing or unreadable: start empty.
  }
  return { version: 1, entries: {} };
}

async function saveCache(file: string, cache: CacheFile): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${String(process.pid)}.tmp`;
    await writeFile(temporary, `${JSON.stringify(cache)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch {
    // Unwritable (read-only home, no home): the next run asks the tool again.
  }
}

/**
 * Wraps `run` so that a tool's version question is answered from the cache when the same binary answered it
 * before; every other command runs as it is.
 */
export function withToolVersionCache(
  run: RunCommand,
  resolveTool: (tool: ToolName) => Promise<string | null>,
  file: string = toolVersionCacheFile(),
): RunCommand {
  let cache: Promise<CacheFile> | undefined;
  let writes: Promise<void> = Promise.resolve();
  return async (spec, signal): Promise<CommandOutput> => {
    if (!isVersionQuestion(spec)) {
      return run(spec, signal);
    }
    const binary = await resolveTool(spec.tool);
    const info = binary === null ? null : await stat(binary, { bigint: true }).catch(() => null);
    if (binary === null || info === null) {
      return run(spec, signal);
    }
    const key = [binary, info.size, info.ino, info.mtimeNs, info.ctimeNs, spec.args.join(' ')].join('\u0000');
    cache ??= loadCache(file);
    const known = (await cache).entries[key];
    if (known !== undefined) {
      return { ...known, durationMs: 0 };
    }
    const output = await run(spec, signal);
    if (output.exitCode === 0) {
      // Version questions run side by side (recordTools asks them all at once): each update extends the
      // latest state, and the writes follow one another, so no answer overwrites another.
      const previous = cache;
      cache = previous.then((current) => ({
        version: 1,
        entries: {
          ...Object.fromEntries(Object.entries(current.entries).slice(-(MAX_ENTRIES - 1))),
          [key]: { exitCode: output.exitCode, stdout: output.stdout, stderr: output.stderr },
        },
      }));
      const next = cache;
      writes = writes.then(async () => saveCache(file, await next));
      await writes;
    }
    return output;
  };
}
