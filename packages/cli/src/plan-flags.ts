import { Flags, type Interfaces } from '@oclif/core';
import { failOnFlags } from './fail-on.js';
import { FLAG_DEFINITIONS, type FlagDefinition } from '@encplan/core';

const FLAGS = FLAG_DEFINITIONS;

/** An oclif string flag whose summary ends with the accepted form of its one definition (core flag-definitions). */
function definedFlag(definition: FlagDefinition, summary: string) {
  return Flags.string({ summary: `${summary} Accepted: ${definition.accepted}.` });
}

/** An oclif flag with a fixed set of values, the definition's (read without building its schema). */
function choiceFlag(definition: Choices, summary: string) {
  return Flags.string({ summary, options: [...definition.values] });
}

/** {@link choiceFlag} with a default value. */
function choiceFlagWithDefault(definition: Choices, summary: string, defaultValue: string) {
  return Flags.string({ summary, options: [...definition.values], default: defaultValue });
}

type Choices = { readonly values: readonly string[] };

/** The flags that shape a plan, shared by `encplan plan` and `encplan assess`; each value is checked by its one definition. */
export const planOptionFlags = {
  commands: Flags.boolean({
    summary: 'Print only the commands, as a script (POSIX sh; PowerShell for Windows).',
    default: false,
  }),
  ...failOnFlags,
  target: choiceFlag(
    FLAGS.target,
    'Encryption tool to plan for (default: luks2 on Linux, apfs on macOS, bitlocker on Windows; a tool the platform lacks is refused; luks2-opal only on a confirmed OPAL 2 drive).',
  ),
  'threat-model': choiceFlagWithDefault(
    FLAGS.threatModel,
    'Who you defend against; decides discards.',
    'lost-device',
  ),
  workload: choiceFlagWithDefault(
    FLAGS.workload,
    'How hard the volume is written; decides the spare area.',
    'desktop',
  ),
  'unlock-memory': definedFlag(
    FLAGS.unlockMemory,
    'RAM of the weakest machine that must unlock (default: this machine).',
  ),
  'unlock-cores': definedFlag(
    FLAGS.unlockCores,
    'CPU cores of the weakest machine that must unlock (default: this machine).',
  ),
  'unlock-time': Flags.string({
    summary: `Target unlock time in milliseconds. Accepted: ${FLAGS.unlockTime.accepted}.`,
    default: '2000',
  }),
  'password-length': definedFlag(
    FLAGS.passwordLength,
    'Passphrase length in characters (VeraCrypt allows a low PIM only from 20).',
  ),
  'entropy-bits': Flags.string({
    summary: `Password entropy in bits for the attacker-cost table (repeatable; default 8 and 10 random a-z0-9 characters, 5 Diceware words). Accepted: ${FLAGS.entropyBits.accepted}.`,
    multiple: true,
  }),
  'speed-over-security': Flags.boolean({
    summary: 'Accept AES-128-XTS when the cipher limits the device.',
    default: false,
  }),
  'encrypted-boot': Flags.boolean({
    summary:
      'GRUB unlocks /boot from this volume (GRUB_ENABLE_CRYPTODISK): add a PBKDF2 keyslot GRUB can open.',
    default: false,
  }),
  'target-spare': definedFlag(
    FLAGS.targetSparePercent,
    'Fixed spare area in per cent (default: computed from wear, TRIM and workload); offers an HPA where the drive has one.',
  ),
  // Only with --target-spare, and so no default here: oclif's `dependsOn` counts a default as given.
  'target-spare-base': Flags.string({
    summary:
      'With --target-spare: what it is a share of, user (the capacity the host sees; default) or raw (raw flash, if known).',
    options: [...FLAGS.targetSpareBase.values],
    dependsOn: ['target-spare'],
  }),
  destructive: Flags.boolean({
    summary: 'Leave data-destroying commands uncommented in the script.',
    default: false,
  }),
  'mapping-name': Flags.string({
    summary: `dm-crypt mapping name for commands and crypttab. Accepted: ${FLAGS.mappingName.accepted}.`,
    default: 'cryptdata',
  }),
  label: Flags.string({
    summary: `Partition, LUKS2 and filesystem label. Accepted: ${FLAGS.label.accepted}.`,
    default: 'encplan',
  }),
};

/** The parsed values of {@link planOptionFlags}. */
export type PlanOptionFlagValues = Interfaces.InferredFlags<typeof planOptionFlags>;
