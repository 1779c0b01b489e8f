/**
 * The wizard speaks to people, not to a terminal: the core's texts are written for every view and name CLI
 * options ("pass --speed-over-security"), rule ids ("[NOT MET] filesystem-type: …") and error codes. These
 * functions turn them into what the wizard offers instead (its own controls and steps), in words.
 */

/** Where the wizard offers what a CLI option does. */
const OPTION_WORDS: readonly (readonly [RegExp, string])[] = [
  [/--speed-over-security\b/g, '“Prefer speed” under Plan for'],
  [/--benchmark\b/g, 'the Benchmark step'],
  [/--target(?:[ =][a-z0-9-]+)?/g, 'the Encryption choice under Plan for'],
  [/--threat-model(?:[ =][a-z-]+)?/g, '“Protect against” under Plan for'],
  [/--workload(?:[ =][a-z-]+)?/g, '“Use” under Plan for'],
  [/--unlock-memory(?:[ =]\S+)?/g, 'the unlocking machine’s memory under Plan for'],
  [/--password-length(?:[ =]\d+)?/g, 'the password length under Plan for'],
];

/** A parenthesised list of options ("(--pbkdf-memory, --iter-time)"): said in the sentence before it. */
const OPTION_LIST = /\s*\((?:--[a-z][\w-]*(?:[ =][^\s,)]+)?(?:,\s*|\s+and\s+)?)+\)/g;

/** A backticked command (`encplan plan --x`) or a bare option left after the mapping: a CLI-only way. */
const COMMAND_SPAN = /`[^`]*`/g;
const BARE_OPTION = /(^|\s)--[a-z][a-z0-9-]*(?:[ =](?!-)[^\s,;.)]+)?/g;

/** The marks of a strategy's preconditions ("[NOT MET] filesystem-type: detail"), in words, without the id. */
const PRECONDITION = /^\[(ok|NOT MET|unknown|confirm)\] [a-z0-9-]+: /;
const PRECONDITION_WORDS: Readonly<Record<string, string>> = {
  ok: 'Met: ',
  'NOT MET': 'Not met: ',
  unknown: 'Not known: ',
  confirm: 'Please confirm: ',
};

/** A source file path (a Go or TypeScript file named in a tool's message): not for the person reading. */
const SOURCE_PATH = /\s*\(?\b[\w.-]+(?:\/[\w.-]+)*\.(?:go|ts|js|c|h|py|rs):?\d*\)?/g;

/** A text of the core in words for the wizard: no CLI option, no rule id, no source path. */
export function inWords(text: string): string {
  let words = text
    .replace(PRECONDITION, (_match, mark: string) => PRECONDITION_WORDS[mark] ?? '')
    .replace(OPTION_LIST, '');
  for (const [pattern, replacement] of OPTION_WORDS) {
    words = words.replace(pattern, replacement);
  }
  return (
    words
      .replace(COMMAND_SPAN, (span) => (/--[a-z]/.test(span) ? 'the command line' : span.slice(1, -1)))
      // Any other option of a quoted command is left out with its value: "cryptsetup reencrypt would …".
      .replace(BARE_OPTION, (_match, space: string) => space)
      .replace(/ {2,}/g, ' ')
      .replace(SOURCE_PATH, '')
      .replace(CODE, (code) => CODE_WORDS[code] ?? code)
  );
}

/** A code in a sentence ("skipped (KERNEL_FEATURE_MISSING): …"), said in words. */
const CODE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/**
 * The source of a fact (a tool and its arguments, or a rule): the tool and its subcommand without options,
 * "cryptsetup luksDump"; "encplan: rule cipher-mode" is encplan's own rules.
 */
export function sourceInWords(source: string): string {
  if (/^encplan: rules? /.test(source)) {
    return 'encplan’s rules';
  }
  return source
    .replace(/\s+--?[a-zA-Z][\w-]*(?:=\S+)?/g, '')
    .replace(SOURCE_PATH, '')
    .replace(CODE, (code) => CODE_WORDS[code] ?? code);
}

/** What each warning code means, as a badge. */
const WARNING_WORDS: Readonly<Record<string, string>> = {
  SMART_UNAVAILABLE: 'Health not readable',
  KERNEL_FEATURE_MISSING: 'Kernel feature missing',
  TOOL_MISSING: 'Tool missing',
  TOOL_FAILED: 'Tool failed',
  PLATFORM_LIMITED: 'Not possible here',
  DATA_INCONSISTENT: 'Figures disagree',
  PERMISSION_DENIED: 'Needs administrator rights',
  TOOL_TIMED_OUT: 'Took too long',
};

/** A warning code as a badge in words. */
export function warningInWords(code: string): string {
  return WARNING_WORDS[code] ?? 'Not checked';
}

/** What went wrong, as the heading of an error (never the code itself). */
const ERROR_WORDS: Readonly<Record<string, string>> = {
  INVALID_ARGUMENT: 'encplan could not use this request',
  PERMISSION_DENIED: 'encplan was not allowed to do this',
  TOOL_FAILED: 'A tool encplan uses failed',
  TOOL_NOT_FOUND: 'A tool encplan needs is missing',
  DEVICE_NOT_FOUND: 'The drive is no longer there',
  DEVICE_UNSUPPORTED: 'encplan cannot check this kind of device',
  KERNEL_FEATURE_MISSING: 'This system lacks a kernel feature encplan needs',
  TOOL_TIMED_OUT: 'A tool took too long and was stopped',
  TOOL_OUTPUT_UNRECOGNIZED: 'A tool answered in a way encplan does not understand',
  TOOL_OUTPUT_TOO_LARGE: 'A tool answered with far more than expected',
  DEVICE_IN_USE: 'The drive is in use',
  DESTRUCTIVE_OPERATION_REFUSED: 'encplan refused to overwrite data',
  BUNDLE_INVALID: 'The saved file is not a valid encplan bundle',
  CANCELLED: 'Cancelled',
  INTERNAL_ERROR: 'Something went wrong inside encplan',
};

/** An error's heading in words; a lost connection to `encplan ui` says so. */
export function errorInWords(code: string, message: string): string {
  if (/^Lost the connection/.test(message)) {
    return 'The connection to encplan was lost';
  }
  return ERROR_WORDS[code] ?? 'Something went wrong';
}

/** Every code the core names, in lower-case words for the middle of a sentence. */
const CODE_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({ ...ERROR_WORDS, ...WARNING_WORDS }).map(([code, words]) => [code, words.toLowerCase()]),
);
