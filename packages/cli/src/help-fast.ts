import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Help at the cost of starting Node (issue 28): `encplan --help`, `encplan WORDS --help` and `encplan help WORDS`
 * print text that oclif itself rendered, without evaluating oclif or the core.
 *
 * - At build time scripts/help-text.mjs runs the built CLI once per command and topic (and the root), with its
 *   output on a pipe, and writes what oclif printed to `bundle/help-text.json` (ASCII JSON).
 * - At run time the launcher (bin/run.js) asks `answerHelp`: when the words name a command or a topic of that
 *   file and oclif would print the same bytes (same width, same colour decision, no user theme, no user plugin:
 *   {@link helpConditions}), the text is written as it is. Otherwise oclif runs as before; a run it answers with
 *   exit status 0 and nothing on stderr is kept in the user's cache folder under the same conditions, so that
 *   the next `--help` on this terminal (its width, its colours) is fast too. The cache is an optimisation only:
 *   missing, corrupt or unwritable means oclif answers.
 *
 * `ENCPLAN_HELP_CACHE=0` always asks oclif (and keeps nothing).
 */

/** What scripts/help-text.mjs writes next to the bundle. */
export interface HelpTextFile {
  readonly format: 1;
  /** A hash of everything the help is rendered from (bundle, manifest, package.json): keys the user cache. */
  readonly build: string;
  /** The conditions the texts below were rendered under ({@link helpConditions}). */
  readonly conditions: string;
  /** Each subject's stdout: '' is the root help, else the command or topic words joined by one space. */
  readonly texts: Readonly<Record<string, string>>;
}

/** One file of the user cache: one subject's text rendered by oclif under one set of conditions. */
interface HelpCacheFile {
  readonly format: 1;
  readonly build: string;
  readonly conditions: string;
  readonly texts: Record<string, string>;
}

/** The output streams as oclif's width and colour choices see them. */
export interface HelpTerminal {
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly columns: number | undefined;
}

/** A command or topic word: anything else (flags, values, odd words) is left to oclif. */
const WORD = /^[a-z][a-z0-9-]*$/u;

/**
 * The help subject of a command line, when oclif would answer it with that subject's help and nothing else:
 * `encplan`, `encplan --help|-h`, `encplan WORDS… --help|-h` and `encplan help WORDS…` (which bin/run.js
 * already answers as `WORDS… --help`, src/help-argv.ts), the words naming a known subject (`help --help` is
 * the subject `help`). Anything else
 * (other flags, `--`, unknown words and oclif's did-you-mean) is undefined: oclif answers it.
 */
export function helpSubject(argv: readonly string[], subjects: ReadonlySet<string>): string | undefined {
  let words: readonly string[];
  if (argv.at(-1) === '--help' || argv.at(-1) === '-h') {
    // `encplan help --help` is the help command's own help, as `encplan help help` is.
    words = argv.slice(0, -1);
  } else if (argv[0] === 'help') {
    words = argv.slice(1);
  } else if (argv.length === 0) {
    words = [];
  } else {
    return undefined;
  }
  if (!words.every((word) => WORD.test(word))) {
    return undefined;
  }
  const subject = words.join(' ');
  return subjects.has(subject) ? subject : undefined;
}

// Environment variables oclif's colour decision reads. oclif colours its help headers ("bold" in
// @oclif/core 5's help/formatter.js `section`) through ux/theme.js `colorize`, which prints colour only when
// supports-color (8.1.1, index.js) says so for stdout AND stderr, and then through ansis (3.17, index.js).
// These are the variables both read; their values are part of the conditions as they are.
const COLOUR_VARIABLES = [
  'FORCE_COLOR',
  'NO_COLOR',
  'TERM',
  'COLORTERM',
  'CI',
  'CI_NAME',
  'TF_BUILD',
  'AGENT_NAME',
  'TEAMCITY_VERSION',
  'TERM_PROGRAM',
  'TERM_PROGRAM_VERSION',
  'PM2_HOME',
  'pm_id',
  'NEXT_RUNTIME',
  'TRAVIS',
  'CIRCLECI',
  'APPVEYOR',
  'GITLAB_CI',
  'GITHUB_ACTIONS',
  'BUILDKITE',
  'DRONE',
] as const;
// ansis also looks whether any variable's name starts with one of these (`/,TEAMCI/`, `/,GIT(HUB|EA)/`).
const COLOUR_NAME_PREFIX = /^(?:TEAMCI|GITHUB|GITEA)/u;

/**
 * Everything oclif's help output depends on besides the subject and the build, as one string: two runs with
 * the same conditions print the same bytes. The width: `OCLIF_COLUMNS`, else the terminal's columns on a
 * terminal (src/help-class.ts `helpWidth`). The colours: on a pipe without FORCE_COLOR supports-color answers
 * "no colour" for stdout whatever else is set (index.js: `if (haveStream && !streamIsTTY && forceColor ===
 * undefined) return 0`), so oclif prints none and the colour variables do not matter; otherwise they all do.
 * `NODE_ENV` changes what oclif loads (development and test look for a tsconfig.json), so it is kept too, and
 * the root help names the platform and Node's version (oclif's `config.userAgent`).
 */
export function helpConditions(
  environment: NodeJS.ProcessEnv,
  terminal: HelpTerminal,
  runtime = `${process.platform}-${process.arch} node-${process.version}`,
): string {
  const common = [
    runtime,
    environment.OCLIF_COLUMNS ?? null,
    environment.COLUMNS ?? null,
    // oclif tells only development and test from the rest (@oclif/core 5 util/util.js `isProd`).
    environment.NODE_ENV === 'development' || environment.NODE_ENV === 'test' ? environment.NODE_ENV : null,
  ];
  if (!terminal.stdoutIsTTY && !('FORCE_COLOR' in environment)) {
    return JSON.stringify(['pipe', ...common]);
  }
  return JSON.stringify([
    terminal.stdoutIsTTY ? 'tty' : 'pipe',
    terminal.stderrIsTTY,
    terminal.stdoutIsTTY ? (terminal.columns ?? null) : null,
    ...common,
    ...COLOUR_VARIABLES.map((name) => environment[name] ?? null),
    Object.keys(environment).some((name) => COLOUR_NAME_PREFIX.test(name)),
  ]);
}

/**
 * Files and variables that change what oclif prints and that pre-rendered text cannot follow: a user theme
 * (`theme.json` in oclif's config folder), user plugins (`package.json` in its data folder, which may add
 * commands), and debugging output (`DEBUG`, `ENCPLAN_DEBUG`). oclif's folders as @oclif/core 5
 * config/config.js computes them (`ENCPLAN_CONFIG_DIR`, else `$XDG_CONFIG_HOME/encplan`, else
 * `~/.config/encplan`; likewise `data` under `~/.local/share`). On Windows oclif always answers.
 */
export function oclifWouldDiffer(
  environment: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
) {
  if (platform === 'win32' || Boolean(environment.DEBUG) || Boolean(environment.ENCPLAN_DEBUG)) {
    return true;
  }
  const configDir =
    environment.ENCPLAN_CONFIG_DIR ||
    path.join(environment.XDG_CONFIG_HOME || path.join(home(environment), '.config'), 'encplan');
  const dataDir =
    environment.ENCPLAN_DATA_DIR ||
    path.join(environment.XDG_DATA_HOME || path.join(home(environment), '.local/share'), 'encplan');
  return existsSync(path.join(configDir, 'theme.json')) || existsSync(path.join(dataDir, 'package.json'));
}

/** The home folder: `HOME`, else the account's (node:os is loaded only then: help start-up, issue 28). */
function home(environment: NodeJS.ProcessEnv): string {
  return environment.HOME || process.getBuiltinModule('node:os').homedir();
}

/** The user cache folder: `$XDG_CACHE_HOME/encplan`, else `~/.cache/encplan` (XDG Base Directory Specification). */
function cacheFolder(environment: NodeJS.ProcessEnv): string {
  const base =
    environment.XDG_CACHE_HOME !== undefined && path.isAbsolute(environment.XDG_CACHE_HOME)
      ? environment.XDG_CACHE_HOME
      : path.join(home(environment), '.cache');
  return path.join(base, 'encplan');
}

/** FNV-1a (32 bits) of the conditions, for a short file name; the file holds the conditions to compare. */
function shortHash(text: string): string {
  let hash = 0x81_1c_9d_c5;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01_00_01_93) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * `help-BUILD-HASH.json` in the user cache folder, HASH of the conditions and the subject: one file a text, so
 * that runs answering different subjects at once never write the same file.
 */
export function helpCacheFile(
  environment: NodeJS.ProcessEnv,
  build: string,
  conditions: string,
  subject: string,
): string {
  return path.join(cacheFolder(environment), `help-${build}-${shortHash(`${conditions}\n${subject}`)}.json`);
}

function readJson(file: string | URL): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isTextFile(value: unknown): value is HelpCacheFile {
  const file = value as Partial<HelpCacheFile> | undefined;
  return (
    file?.format === 1 &&
    typeof file.build === 'string' &&
    typeof file.conditions === 'string' &&
    typeof file.texts === 'object' &&
    file.texts !== null
  );
}

/** JSON with every character outside printable ASCII escaped: the file stays ASCII whatever the help says. */
export function asciiJson(value: unknown): string {
  return `${JSON.stringify(value).replaceAll(/[^\x20-\x7e]/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** Writes one text's cache file (whole, then renamed into place); old builds' files are removed. */
function keepInCache(file: string, build: string, conditions: string, subject: string, text: string): void {
  try {
    const folder = path.dirname(file);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${String(process.pid)}.tmp`;
    writeFileSync(temporary, asciiJson({ format: 1, build, conditions, texts: { [subject]: text } }), {
      mode: 0o600,
    });
    renameSync(temporary, file);
    for (const name of readdirSync(folder)) {
      if (name.startsWith('help-') && !name.startsWith(`help-${build}-`) && name.endsWith('.json')) {
        rmSync(path.join(folder, name), { force: true });
      }
    }
  } catch {
    // An unwritable cache costs the next run its speed, nothing else.
  }
}

/**
 * Records what oclif prints for this run; when the run ends by itself (not `process.exit`, so never a help cut
 * short by a closed pipe) with exit status 0, complete and without a word on stderr, the text is kept.
 */
function recordForCache(file: string, build: string, conditions: string, subject: string): void {
  let text = '';
  let keepable = true;
  const stdoutWrite = process.stdout.write.bind(process.stdout) as (
    chunk: unknown,
    ...rest: unknown[]
  ) => boolean;
  const stderrWrite = process.stderr.write.bind(process.stderr) as (
    chunk: unknown,
    ...rest: unknown[]
  ) => boolean;
  process.stdout.write = (chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && typeof rest[0] !== 'string') {
      text += chunk;
    } else {
      keepable = false;
    }
    return stdoutWrite(chunk, ...rest);
  };
  process.stderr.write = (chunk: unknown, ...rest: unknown[]) => {
    keepable = false;
    return stderrWrite(chunk, ...rest);
  };
  process.once('beforeExit', () => {
    const status = process.exitCode ?? 0;
    if (
      keepable &&
      text !== '' &&
      (status === 0 || status === '0') &&
      (process.stdout.errored ?? null) === null
    ) {
      keepInCache(file, build, conditions, subject, text);
    }
  });
}

/**
 * Prints the help of this command line from text oclif rendered, and says whether it did. When it did not,
 * oclif answers (the caller runs it) and, where the conditions allow, its text is kept for the next run.
 */
export function answerHelp(
  argv: readonly string[],
  helpTextUrl: URL,
  environment: NodeJS.ProcessEnv = process.env,
): boolean {
  if (environment.ENCPLAN_HELP_CACHE === '0') {
    return false;
  }
  const shipped = readJson(helpTextUrl) as HelpTextFile | undefined;
  if (!isTextFile(shipped)) {
    return false;
  }
  const subject = helpSubject(argv, new Set(Object.keys(shipped.texts)));
  if (subject === undefined || oclifWouldDiffer(environment)) {
    return false;
  }
  const conditions = helpConditions(environment, {
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
  });
  let text = conditions === shipped.conditions ? shipped.texts[subject] : undefined;
  const file = helpCacheFile(environment, shipped.build, conditions, subject);
  if (text === undefined) {
    const cached = readJson(file);
    if (isTextFile(cached) && cached.build === shipped.build && cached.conditions === conditions) {
      text = cached.texts[subject];
    }
  }
  if (typeof text === 'string') {
    process.stdout.write(text);
    return true;
  }
  recordForCache(file, shipped.build, conditions, subject);
  return false;
}
