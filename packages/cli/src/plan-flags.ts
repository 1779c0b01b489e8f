import { Flags, type Interfaces } from '@oclif/core';
import { failOnFlags } from './fail-on.js';
import { EncplanError, parseByteSize, PLAN_TARGET_IDS, type PlanOptions } from '@encplan/core';

/** The flags that shape a plan, shared by `encplan plan` and `encplan assess`. */
export const planOptionFlags = {
  commands: Flags.boolean({
    summary: 'Print only the commands, as a script (POSIX sh; PowerShell for Windows).',
    default: false,
  }),
  ...failOnFlags,
  target: Flags.string({
    summary:
      'Encryption tool to plan for (default: luks2 on Linux, apfs on macOS, bitlocker on Windows; a tool the platform lacks is refused; luks2-opal only on a confirmed OPAL 2 drive).',
    options: PLAN_TARGET_IDS,
  }),
  'threat-model': Flags.string({
    summary: 'Who you defend against; decides discards.',
    options: ['lost-device', 'targeted', 'deniability'],
    default: 'lost-device',
  }),
  workload: Flags.string({
    summary: 'How hard the volume is written; decides the spare area.',
    options: ['desktop', 'server', 'write-heavy'],
    default: 'desktop',
  }),
  'unlock-memory': Flags.string({
    summary: 'RAM of the weakest machine that must unlock, e.g. 2GiB (default: this machine).',
  }),
  'unlock-cores': Flags.integer({
    summary: 'CPU cores of the weakest machine that must unlock (default: this machine).',
    min: 1,
  }),
  'unlock-time': Flags.integer({ summary: 'Target unlock time in milliseconds.', min: 1, default: 2000 }),
  'password-length': Flags.integer({
    summary: 'Passphrase length in characters (VeraCrypt allows a low PIM only from 20).',
    min: 1,
  }),
  'entropy-bits': Flags.string({
    summary:
      'Password entropy in bits for the attacker-cost table (repeatable; default 8 and 10 random a-z0-9 characters, 5 Diceware words).',
    multiple: true,
  }),
  'speed-over-security': Flags.boolean({
    summary: 'Accept AES-128-XTS when the cipher limits the device.',
    default: false,
  }),
  'target-spare': Flags.string({
    summary:
      'Fixed spare area in per cent, e.g. 25 (default: computed from wear, TRIM and workload); offers an HPA where the drive has one.',
  }),
  'target-spare-base': Flags.string({
    summary:
      'What --target-spare is a share of: user (the capacity the host sees) or raw (raw flash, if known).',
    options: ['user', 'raw'],
    default: 'user',
  }),
  destructive: Flags.boolean({
    summary: 'Leave data-destroying commands uncommented in the script.',
    default: false,
  }),
  'mapping-name': Flags.string({
    summary: 'dm-crypt mapping name for commands and crypttab.',
    default: 'cryptdata',
  }),
  label: Flags.string({ summary: 'Partition and LUKS2 label.', default: 'encplan' }),
};

/** The parsed values of {@link planOptionFlags}. */
export type PlanOptionFlagValues = Interfaces.InferredFlags<typeof planOptionFlags>;

/** Turns the plan flags into PlanOptions. Throws INVALID_ARGUMENT for sizes and numbers that do not parse. */
export function optionsFromFlags(flags: PlanOptionFlagValues): PlanOptions {
  const memory = flags['unlock-memory'];
  const memoryBytes = memory === undefined ? null : parseByteSize(memory);
  if (memory !== undefined && memoryBytes === null) {
    throw new EncplanError('INVALID_ARGUMENT', `--unlock-memory ${JSON.stringify(memory)} is not a size.`, {
      hint: 'Use bytes or a binary unit, e.g. 2GiB or 512MiB.',
    });
  }
  const entropyBits = (flags['entropy-bits'] ?? []).map(Number);
  if (entropyBits.some((bits) => !Number.isFinite(bits) || bits <= 0)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `--entropy-bits takes positive numbers, got ${JSON.stringify(flags['entropy-bits'])}.`,
    );
  }
  const spare = flags['target-spare'];
  const sparePercent = spare === undefined ? null : Number(spare);
  if (sparePercent !== null && (!Number.isFinite(sparePercent) || sparePercent < 0 || sparePercent > 90)) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      `--target-spare ${JSON.stringify(spare)} is not a per cent from 0 to 90.`,
    );
  }
  // The option schema in core validates the enums again; oclif's `options` already limited them.
  return {
    targetTool: PLAN_TARGET_IDS.find((id) => id === flags.target) ?? null,
    threatModel: flags['threat-model'] as PlanOptions['threatModel'],
    workload: flags.workload as PlanOptions['workload'],
    unlockMachine: { memoryBytes, cores: flags['unlock-cores'] ?? null },
    unlockTimeMs: flags['unlock-time'],
    passwordLength: flags['password-length'] ?? null,
    ...(entropyBits.length > 0 ? { entropyBits: entropyBits } : {}),
    speedOverSecurity: flags['speed-over-security'],
    targetSpare:
      sparePercent === null
        ? null
        : { percent: sparePercent, base: flags['target-spare-base'] as 'user' | 'raw' },
    mappingName: flags['mapping-name'],
    label: flags.label,
  };
}
