import { z } from 'zod';
import { EncplanError } from '../errors.js';
import { parseByteSize } from '../domain/units.js';
import { PLAN_TARGET_IDS } from '../targets/registry.js';

/**
 * One definition of every value a user gives encplan (issue 25 item 4): its unit, range or pattern, and the
 * accepted form shown with every refusal. `encplan assess`, `plan` and `collect` (packages/cli plan-flags.ts),
 * the plan options (rules/plan-options.ts), the wizard's request (use-cases/assessment-jobs.ts) and the fleet
 * role's argument spec (ansible/, checked by a test) all take them from here, so a value one of them accepts
 * is never refused or misread by another. Pure.
 */
export interface FlagDefinition<S extends z.ZodType = z.ZodType> {
  /** The CLI flag, without dashes. */
  readonly flag: string;
  /** What is accepted, in words, with an example: the refusal shows it. */
  readonly accepted: string;
  /** The typed value (plan options, the wizard's JSON); its messages name {@link accepted}. */
  readonly schema: S;
  /**
   * Whether {@link schema} accepts `value` as it is, answered from the same rule without building the schema:
   * a run with valid values builds no zod schema (issue 28). The schema's refusal words the error.
   */
  readonly accepts: (value: unknown) => value is z.output<S>;
  /** A flag's text → the value. Throws INVALID_ARGUMENT naming the flag, the value and the accepted form. */
  readonly parse: (text: string) => z.output<S>;
  /** The same refusal for a value only the host can judge (a folder that does not exist), with why. */
  readonly refuse: (text: string, why: string) => never;
}

/** A flag with a fixed set of values (oclif lists them as the flag's options). */
export interface ChoiceDefinition<Values extends readonly [string, ...string[]]> extends FlagDefinition<
  z.ZodEnum<{ [Value in Values[number]]: Value }>
> {
  readonly values: Values;
}

/**
 * What a definition accepts, as data: the zod schema ({@link schemaOf}) and the check without zod
 * ({@link acceptsRule}) are both read from it, so they cannot drift apart (a test compares them over many values).
 * A number's messages are the ones its refusals show (undefined: zod's own).
 */
type Rule =
  | {
      readonly kind: 'number';
      readonly integer: boolean;
      readonly min: number;
      readonly minExclusive: boolean;
      readonly max: number;
      readonly messages: { readonly integer?: string; readonly min?: string; readonly max?: string };
    }
  | { readonly kind: 'pattern'; readonly pattern: RegExp; readonly message: string }
  | { readonly kind: 'enum'; readonly values: readonly [string, ...string[]]; readonly message: string };

function schemaOf(rule: Rule): z.ZodType {
  switch (rule.kind) {
    case 'number': {
      const { integer, min, minExclusive, max, messages } = rule;
      const number = integer ? z.number().int(messages.integer) : z.number();
      return (minExclusive ? number.gt(min, messages.min) : number.min(min, messages.min)).max(
        max,
        messages.max,
      );
    }
    case 'pattern':
      return z.string().regex(rule.pattern, rule.message);
    case 'enum':
      return z.enum(rule.values, rule.message);
  }
}

/**
 * What {@link schemaOf}'s schema accepts, in zod 4's terms: z.number() a finite number, .int() a safe integer
 * (zod v4 core/api.ts `_int`, format "safeint", checked by `$ZodCheckNumberFormat` in core/checks.ts), .min/.max
 * inclusive and .gt exclusive; .regex() a string the pattern matches; z.enum() one of its strings.
 */
function acceptsRule(rule: Rule, value: unknown): boolean {
  switch (rule.kind) {
    case 'number':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (!rule.integer || Number.isSafeInteger(value)) &&
        (rule.minExclusive ? value > rule.min : value >= rule.min) &&
        value <= rule.max
      );
    case 'pattern':
      return typeof value === 'string' && rule.pattern.test(value);
    case 'enum':
      return typeof value === 'string' && rule.values.includes(value);
  }
}

function refuse(flag: string, text: string, accepted: string, why?: string): never {
  // JSON.stringify shows a control character or a quote in the value escaped, never raw on the terminal.
  const reason = why === undefined ? '' : `: ${why}`;
  throw new EncplanError('INVALID_ARGUMENT', `--${flag} ${JSON.stringify(text)} is not accepted${reason}.`, {
    hint: `Accepted: ${accepted}.`,
    details: { flag: `--${flag}`, accepted },
  });
}

/**
 * A flag's definition; its schema is built on first use, from `rule`: building all fourteen when the core is
 * imported made 57 zod instances in every command, most of which take no plan option, and a flag's value is
 * checked without it (issue 28).
 */
function definition<S extends z.ZodType, Extra extends object = object>(
  flag: string,
  accepted: string,
  rule: Rule,
  read: (text: string) => unknown,
  extra?: Extra,
): FlagDefinition<S> & Extra {
  let built: S | undefined;
  const accepts = (value: unknown): value is z.output<S> => acceptsRule(rule, value);
  // Not spread from another definition: a spread would read `schema`, and so build it.
  return {
    ...(extra as Extra),
    flag,
    accepted,
    get schema() {
      return (built ??= schemaOf(rule) as S);
    },
    accepts,
    parse: (text) => {
      const value = read(text);
      return accepts(value) ? value : refuse(flag, text, accepted);
    },
    refuse: (text, why) => refuse(flag, text, accepted, why),
  };
}

/** A whole number from `min` to `max`, written in decimal digits only (no 1e3, no 0x10, no sign). */
function integerDefinition(flag: string, range: { min: number; max: number }, accepted: string) {
  const messages = { integer: accepted, min: accepted, max: accepted };
  return definition<z.ZodNumber>(
    flag,
    accepted,
    { kind: 'number', integer: true, minExclusive: false, ...range, messages },
    (text) => (/^\d{1,16}$/.test(text.trim()) ? Number(text) : NaN),
  );
}

/** A decimal number from `min` (exclusive when `minExclusive`) to `max`. */
function numberDefinition(
  flag: string,
  range: { min: number; max: number; minExclusive: boolean },
  accepted: string,
) {
  return definition<z.ZodNumber>(
    flag,
    accepted,
    { kind: 'number', integer: false, ...range, messages: { min: accepted, max: accepted } },
    (text) => (/^\s*\d+(?:\.\d+)?\s*$/.test(text) ? Number(text) : NaN),
  );
}

function patternDefinition(flag: string, pattern: RegExp, accepted: string) {
  return definition<z.ZodString>(
    flag,
    accepted,
    { kind: 'pattern', pattern, message: accepted },
    (text) => text,
  );
}

function enumDefinition<const Values extends readonly [string, ...string[]]>(
  flag: string,
  values: Values,
): ChoiceDefinition<Values> {
  const accepted = `one of ${values.join(', ')}`;
  const rule = { kind: 'enum', values, message: accepted } as const;
  return definition(flag, accepted, rule, (text) => text, { values });
}

/** cryptsetup's argon2 minimum memory, 32 KiB (cryptsetup meson_options.txt, lib/utils_pbkdf.c, man/common_options.adoc). */
const ARGON2_MIN_MEMORY_KIB = 32;

/**
 * Argon2 memory ≤ a quarter of the unlocking machine's RAM. cryptsetup itself caps at half of physical memory
 * (cryptsetup lib/utils_pbkdf.c, "half of physical memory"), and that half is what gets luksFormat
 * OOM-killed on 2 GiB machines while an installer runs (agama-project/agama#2907, latchset/clevis#339,
 * ansible-collections/community.crypto#136); an initramfs unlock shares RAM with the boot environment.
 * coreos/coreos-assembler#829 settled on 512 MiB for 2 GiB VMs: a quarter.
 */
export const UNLOCK_RAM_SHARE = 0.25;

/**
 * The smallest RAM of an unlocking machine a plan can be made for: the KDF gets {@link UNLOCK_RAM_SHARE} of it,
 * and cryptsetup refuses Argon2 memory below 32 KiB (cryptsetup lib/utils_pbkdf.c, cryptsetup(8)
 * --pbkdf-memory), so 128 KiB. Below it the plan would say "0 B memory, Infinity iterations".
 */
export const MIN_UNLOCK_MEMORY_BYTES = Math.ceil((ARGON2_MIN_MEMORY_KIB * 1024) / UNLOCK_RAM_SHARE);

/** Binary sizes with a unit: a bare number is refused, since cryptsetup's --pbkdf-memory reads KiB and free(1) KiB. */
const SIZE_WITH_UNIT = /^\s*\d+(?:\.\d+)?\s*(?:k|kib|m|mib|g|gib|t|tib)\s*$/i;

/**
 * Argon2's degree of parallelism is 1 … 2^24 − 1 (RFC 9106 §3.1); the unlocking machine's cores only bound
 * the lanes the plan sets, so more cores than that mean a typing mistake.
 */
const MAX_ARGON2_LANES = 2 ** 24 - 1;
/** libcryptsetup's iteration time is a uint32_t of milliseconds (libcryptsetup.h, struct crypt_pbkdf_type time_ms). */
const MAX_UINT32 = 2 ** 32 - 1;
/** `cryptsetup --help`: "Maximum interactive passphrase length 512 (characters)", the compiled-in default. */
const MAX_PASSPHRASE_CHARACTERS = 512;
/** 2^bits must be a finite IEEE 754 double for the attacker-cost table (largest exponent 1023). */
const MAX_ENTROPY_BITS = 1023;
/**
 * A device-mapper name is at most 127 characters (DM_NAME_LEN 128 with the terminating NUL, linux
 * include/uapi/linux/dm-ioctl.h); no leading dash or dot, so it never reads as an option or a hidden path.
 */
const MAPPING_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,126}$/;
/**
 * The label names the partition (GPT: 36 UTF-16 characters, UEFI 2.10 §5.3.3), the LUKS2 header (47
 * characters, cryptsetup(8) --label) and the ext4 filesystem (mke2fs(8) -L: at most 16 bytes): 16.
 */
const LABEL = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,15}$/;

/**
 * A folder path: 1 to 4095 bytes (PATH_MAX 4096 with the terminating NUL, linux include/uapi/linux/limits.h), no
 * control character (it would reach the terminal and the state file raw).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what the pattern refuses
const FOLDER_PATH = /^[^\u0000-\u001f\u007f]{1,4095}$/;

/** Every user-given value, by the name plan options and the wizard use. */
export const FLAG_DEFINITIONS = {
  unlockMemory: definition<z.ZodNumber>(
    'unlock-memory',
    `a size with a binary unit (KiB, MiB, GiB, TiB), at least ${String(MIN_UNLOCK_MEMORY_BYTES / 1024)}KiB, e.g. 2GiB or 512MiB`,
    {
      kind: 'number',
      integer: true,
      min: MIN_UNLOCK_MEMORY_BYTES,
      minExclusive: false,
      max: Number.MAX_SAFE_INTEGER,
      messages: { min: `at least ${String(MIN_UNLOCK_MEMORY_BYTES)} bytes` },
    },
    (text) => (SIZE_WITH_UNIT.test(text) ? parseByteSize(text) : null),
  ),
  unlockCores: integerDefinition(
    'unlock-cores',
    { min: 1, max: MAX_ARGON2_LANES },
    `a whole number of CPU cores from 1 to ${String(MAX_ARGON2_LANES)}, e.g. 2`,
  ),
  unlockTime: integerDefinition(
    'unlock-time',
    { min: 1, max: MAX_UINT32 },
    `a whole number of milliseconds from 1 to ${String(MAX_UINT32)}, e.g. 2000`,
  ),
  passwordLength: integerDefinition(
    'password-length',
    { min: 1, max: MAX_PASSPHRASE_CHARACTERS },
    `a whole number of characters from 1 to ${String(MAX_PASSPHRASE_CHARACTERS)}, e.g. 20`,
  ),
  entropyBits: numberDefinition(
    'entropy-bits',
    { min: 0, max: MAX_ENTROPY_BITS, minExclusive: true },
    `a number of bits above 0 and at most ${String(MAX_ENTROPY_BITS)}, e.g. 64.6`,
  ),
  targetSparePercent: numberDefinition(
    'target-spare',
    // 90 %: a spare area beyond it leaves too little to encrypt to be a plan anyone asks for.
    { min: 0, max: 90, minExclusive: false },
    'a per cent from 0 to 90, e.g. 25',
  ),
  mappingName: patternDefinition(
    'mapping-name',
    MAPPING_NAME,
    'letters, digits, _ . - (no leading - or .), at most 127 characters, e.g. cryptdata',
  ),
  label: patternDefinition(
    'label',
    LABEL,
    'letters, digits, _ . - (no leading - or .), at most 16 characters, e.g. encplan',
  ),
  // The targets the plan offers, from the targets' registry (packages/core/src/targets).
  target: enumDefinition('target', PLAN_TARGET_IDS),
  threatModel: enumDefinition('threat-model', ['lost-device', 'targeted', 'deniability']),
  workload: enumDefinition('workload', ['desktop', 'server', 'write-heavy']),
  targetSpareBase: enumDefinition('target-spare-base', ['user', 'raw']),
  failOn: enumDefinition('fail-on', ['warning', 'failing']),
  /**
   * Where a benchmark writes its scratch containers (`assess`/`collect --benchmark --scratch`, the wizard, the
   * fleet role). The pattern is checked here; that the folder exists and is writable, by the host
   * (node/scratch-directory.ts) before anything runs.
   */
  scratch: patternDefinition(
    'scratch',
    FOLDER_PATH,
    'an existing folder you can write to, on a filesystem of the disk being measured, e.g. /var/tmp',
  ),
} as const;

/** A device path as plans name it: absolute under /dev/, no shell-special or option-like character. */
const DEVICE_PATH = /^\/dev\/[A-Za-z0-9._/:-]+$/;
const hasNoParentComponent = (path: string) => !path.split('/').includes('..');

/**
 * A device path as plans name it in commands and the wizard asks for it: absolute under /dev/, no shell-special
 * or option-like character, no ".." (architecture §2.4).
 */
export const devicePathSchema = z
  .string()
  .regex(DEVICE_PATH, 'an absolute path under /dev/ of letters, digits and . _ / : -')
  .refine(hasNoParentComponent, 'no ".." component');

/** Whether {@link devicePathSchema} accepts `path`, without building it (a plan checks its disk's path). */
export function isDevicePath(path: string): boolean {
  return DEVICE_PATH.test(path) && hasNoParentComponent(path);
}
