import { Flags } from '@oclif/core';
import { FLAG_DEFINITIONS } from '@encplan/core';

/** `--fail-on` and `--fail-on-unknown`, shared by `encplan health`, `assess` and `plan`. */
export const failOnFlags = {
  'fail-on': Flags.string({
    summary: 'Exit 5 when the drive health is at or past this verdict.',
    options: [...FLAG_DEFINITIONS.failOn.values],
  }),
  'fail-on-unknown': Flags.boolean({
    summary: 'Exit 5 when the drive health cannot be known (no SMART data), too.',
    default: false,
  }),
};
