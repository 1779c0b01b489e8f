import { FLAG_DEFINITIONS, resolvePlanOptions, type FlagDefinition, type PlanOptions } from '@encplan/core';
import type { PlanOptionFlagValues } from './plan-flags.js';

// The plan flags' values turned into PlanOptions, apart from their oclif definitions (plan-flags.ts): the direct
// path of `assess` (direct-run.ts) runs without oclif.
const FLAGS = FLAG_DEFINITIONS;

/** `definition.parse(text)`, or null without a value. */
function parsed<D extends FlagDefinition>(
  definition: D,
  text: string | undefined,
): ReturnType<D['parse']> | null {
  return text === undefined ? null : (definition.parse(text) as ReturnType<D['parse']>);
}

/**
 * Turns the plan flags into PlanOptions, each value parsed by its one definition (core flag-definitions.ts), then
 * the whole checked as `plan` and `assess` check it. Throws INVALID_ARGUMENT (exit 2) with the accepted form.
 */
export function optionsFromFlags(flags: PlanOptionFlagValues): PlanOptions {
  const entropyBits = (flags['entropy-bits'] ?? []).map((bits) => FLAGS.entropyBits.parse(bits));
  const sparePercent = parsed(FLAGS.targetSparePercent, flags['target-spare']);
  const options: PlanOptions = {
    targetTool: parsed(FLAGS.target, flags.target),
    threatModel: FLAGS.threatModel.parse(flags['threat-model']),
    workload: FLAGS.workload.parse(flags.workload),
    unlockMachine: {
      memoryBytes: parsed(FLAGS.unlockMemory, flags['unlock-memory']),
      cores: parsed(FLAGS.unlockCores, flags['unlock-cores']),
    },
    unlockTimeMs: FLAGS.unlockTime.parse(flags['unlock-time']),
    passwordLength: parsed(FLAGS.passwordLength, flags['password-length']),
    ...(entropyBits.length > 0 ? { entropyBits } : {}),
    speedOverSecurity: flags['speed-over-security'],
    encryptedBoot: flags['encrypted-boot'],
    targetSpare:
      sparePercent === null
        ? null
        : { percent: sparePercent, base: FLAGS.targetSpareBase.parse(flags['target-spare-base'] ?? 'user') },
    mappingName: FLAGS.mappingName.parse(flags['mapping-name']),
    label: FLAGS.label.parse(flags.label),
  };
  resolvePlanOptions(options);
  return options;
}
