import { fstatSync, readFileSync, statSync } from 'node:fs';
import { isatty } from 'node:tty';
import { discardStartedEarly, startEarlyDiskCalls } from '@encplan/core/node';
import { oclifWouldDiffer } from './help-fast.js';

/**
 * `encplan assess DISK …` without evaluating oclif (issue 28): scripts call it once per disk, and oclif's
 * modules and Config cost ~20 ms of CPU and ~11 MiB of each run (docs/performance.md). bin/run.js asks
 * {@link runDirect} first; it parses the arguments with the command's flag definitions as oclif's parser sees
 * them, captured at build time (the `direct` key of oclif.manifest.json, scripts/oclif-manifest.mjs), and runs
 * the command's one body (assess-run.ts) through direct-run.ts. Whenever it cannot be sure oclif would do
 * exactly the same — an unknown or misspelt flag, `--help`, `--`, a missing or rejected value, a value that
 * starts with `-`, one argument too many, user plugins (which may add hooks) or debugging output, a manifest of
 * another version, an argument oclif would read from stdin (none now: each has `ignoreStdin`, so a pipe on stdin
 * no longer sends a run to oclif) — it returns false before anything ran or printed, and oclif answers as
 * before: its messages, its exit codes. `ENCPLAN_DIRECT=0` always leaves the run to oclif.
 */

/** One flag as the direct parser reads it (scripts/oclif-manifest.mjs `directSpec`). */
export interface DirectFlag {
  readonly type: 'boolean' | 'option';
  readonly char?: string;
  readonly multiple?: boolean;
  readonly options?: readonly string[];
  readonly default?: unknown;
  readonly dependsOn?: readonly string[];
}

/** One command's arguments (in order) and flags (in oclif's order: base flags first). */
export interface DirectCommand {
  readonly args: readonly {
    readonly name: string;
    readonly required: boolean;
    /** oclif never reads this argument from stdin (every encplan argument: disk-command.ts `deviceArgs`). */
    readonly ignoreStdin?: boolean;
  }[];
  readonly flags: Readonly<Record<string, DirectFlag>>;
}

/** What oclif's parse would give: the arguments given, and every flag with a value (given or default). */
export interface DirectParse {
  readonly args: Readonly<Record<string, string>>;
  readonly flags: Readonly<Record<string, unknown>>;
  /** Whether oclif would read stdin for an argument not given (@oclif/core 5 parser/parse.js `tryStdin`). */
  readonly readsStdin: boolean;
}

/** The flag a `-x`/`--name`/`--name=value` token names, with its inline value; undefined if oclif might differ. */
function flagOf(
  token: string,
  command: DirectCommand,
): { name: string; flag: DirectFlag; inline?: string } | undefined {
  const own = (name: string) => (Object.hasOwn(command.flags, name) ? command.flags[name] : undefined);
  if (token.startsWith('--')) {
    const whole = own(token.slice(2));
    if (whole !== undefined) {
      return { name: token.slice(2), flag: whole };
    }
    // `--name=value`: oclif splits at the first `=` (parse.js `parseFlag`); for a boolean it would take the
    // value as the next argument, so only option flags are read here.
    const equals = token.indexOf('=');
    const name = token.slice(2, equals);
    const flag = equals === -1 ? undefined : own(name);
    return flag?.type === 'option' ? { name, flag, inline: token.slice(equals + 1) } : undefined;
  }
  // `-v` alone: oclif reads `-vx` as `-v -x`, and `-xVALUE` as a value, which is left to it.
  if (token.length !== 2) {
    return undefined;
  }
  const entry = Object.entries(command.flags).find(([, flag]) => flag.char === token[1]);
  return entry === undefined ? undefined : { name: entry[0], flag: entry[1] };
}

/**
 * The arguments and flags oclif's parser (@oclif/core 5 parser/parse.js and validate.js) would give for
 * `argv` (the words after the command), or undefined when it would fail, ask for help, or when this
 * reading is not certain to be its reading.
 */
export function parseDirect(argv: readonly string[], command: DirectCommand): DirectParse | undefined {
  const given = new Map<string, string[]>();
  const positional: string[] = [];
  // oclif hands the words after a multiple option flag (`--entropy-bits 40 50`) to that flag, until the next
  // option flag: parse.js `currentFlag`.
  let current: { name: string; flag: DirectFlag } | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (token.startsWith('-') && token !== '-') {
      const found = flagOf(token, command);
      if (found === undefined) {
        return undefined;
      }
      const values = given.get(found.name) ?? [];
      if (found.flag.type === 'boolean') {
        given.set(found.name, [...values, token]);
        continue;
      }
      if (values.length > 0 && found.flag.multiple !== true) {
        return undefined;
      }
      const value = found.inline ?? argv[(index += 1)];
      // A missing value, or one that is (or may be) a flag, is oclif's to judge.
      if (value === undefined || value.startsWith('-') || !allowed(found.flag, value)) {
        return undefined;
      }
      given.set(found.name, [...values, value]);
      current = found;
      continue;
    }
    if (current?.flag.multiple === true) {
      if (!allowed(current.flag, token)) {
        return undefined;
      }
      given.set(current.name, [...(given.get(current.name) ?? []), token]);
      continue;
    }
    positional.push(token);
  }
  if (positional.length > command.args.length) {
    return undefined;
  }
  const args: Record<string, string> = {};
  let readsStdin = false;
  for (const [index, arg] of command.args.entries()) {
    const value = positional[index];
    if (value !== undefined) {
      args[arg.name] = value;
    } else if (arg.required) {
      return undefined;
    } else if (arg.ignoreStdin !== true) {
      readsStdin = true;
    }
  }
  const flags: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(command.flags)) {
    const values = given.get(name);
    const value =
      values === undefined
        ? flag.default
        : flag.type === 'boolean'
          ? true
          : flag.multiple === true
            ? values
            : values[0];
    if (value !== undefined) {
      flags[name] = value;
    }
  }
  // validate.js `validateDependsOn`: a flag with a value (a default counts) needs every flag it depends on to
  // have one.
  for (const [name, flag] of Object.entries(command.flags)) {
    if (name in flags && (flag.dependsOn ?? []).some((other) => !(other in flags))) {
      return undefined;
    }
  }
  return { args, flags, readsStdin };
}

function allowed(flag: DirectFlag, value: string): boolean {
  return flag.options === undefined || flag.options.includes(value);
}

/**
 * Whether oclif's read of stdin for a missing argument certainly finds nothing: stdin is a terminal (oclif does
 * not read one) or /dev/null. A pipe or a file may hold a device name, which oclif would take as the argument.
 */
function stdinIsSilent(): boolean {
  if (isatty(0)) {
    return true;
  }
  try {
    const stdin = fstatSync(0);
    return stdin.isCharacterDevice() && stdin.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

interface Manifest {
  readonly version?: unknown;
  readonly direct?: Readonly<Record<string, DirectCommand>>;
}

function readJson(file: URL): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Runs `argv` without oclif when oclif would do exactly the same, and says whether it did. `root` is the CLI's
 * folder (package.json and oclif.manifest.json). False means nothing ran: the caller runs oclif.
 */
export async function runDirect(
  argv: readonly string[],
  root: URL,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const [id, ...rest] = argv;
  // ENCPLAN_DIRECT=0 always asks oclif (the tests compare both paths with it).
  if (id !== 'assess' || environment.ENCPLAN_DIRECT === '0' || oclifWouldDiffer(environment)) {
    return false;
  }
  const manifest = readJson(new URL('oclif.manifest.json', root)) as Manifest | undefined;
  const command = manifest?.direct?.[id];
  const pjson = readJson(new URL('package.json', root)) as { version?: unknown } | undefined;
  // oclif ignores a manifest of another version (config/plugin.js `_manifest`), and so does this path.
  if (command === undefined || typeof manifest?.version !== 'string' || manifest.version !== pjson?.version) {
    return false;
  }
  const parsed = parseDirect(rest, command);
  if (parsed === undefined || (parsed.readsStdin && !stdinIsSilent())) {
    return false;
  }
  const early = startsEarly(parsed, environment);
  if (early) {
    startEarlyDiskCalls(parsed.args.device ?? '', environment);
  }
  const { runAssessDirect } = await import('./direct-run.js');
  try {
    await runAssessDirect(parsed, rest);
  } finally {
    if (early) {
      await discardStartedEarly();
    }
  }
  return true;
}

/**
 * Whether one disk's first read-only calls start before the core is imported (issue 28; core
 * node/early-disk-calls.ts decides which, and whether the device is one they surely serve): `assess DEVICE` of a
 * live disk, not `--all` (one lsblk of the machine), a bundle (nothing runs) nor `--benchmark`.
 * `ENCPLAN_EARLY=0` starts each call when its probe asks, as before.
 */
function startsEarly(parsed: DirectParse, environment: NodeJS.ProcessEnv): boolean {
  const { args, flags } = parsed;
  return (
    environment.ENCPLAN_EARLY !== '0' &&
    args.device !== undefined &&
    flags.all !== true &&
    flags.bundle === undefined &&
    flags.benchmark !== true
  );
}
