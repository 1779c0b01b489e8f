import { FLAG_DEFINITIONS, type PlanOptions } from '@encplan/core';
import type { PlanChoices } from './wizard-state.js';

const MIB = 1024 * 1024;

/**
 * The plan options of the plan step's choices, validated by the same definitions as the CLI's flags
 * (rules/flag-definitions.ts), or why one is not accepted, in words.
 */
export function planOptionsOf(
  choices: PlanChoices,
): { readonly options: PlanOptions } | { readonly error: string } {
  const target = FLAG_DEFINITIONS.target.schema.safeParse(choices.targetTool);
  const threat = FLAG_DEFINITIONS.threatModel.schema.safeParse(choices.threatModel);
  const workload = FLAG_DEFINITIONS.workload.schema.safeParse(choices.workload);
  if (!threat.success || !workload.success) {
    return { error: 'Choose what to protect against and how the drive is used.' };
  }
  let memoryBytes: number | null = null;
  if (choices.unlockMemoryMiB.trim() !== '') {
    const schema = FLAG_DEFINITIONS.unlockMemory.schema;
    const parsed = schema.safeParse(Math.round(Number(choices.unlockMemoryMiB) * MIB));
    if (!parsed.success) {
      return {
        error: `The unlocking machine’s memory must be at least ${String((schema.minValue ?? 0) / 1024)} KiB (${String((schema.minValue ?? 0) / MIB)} MiB).`,
      };
    }
    memoryBytes = parsed.data;
  }
  let passwordLength: number | null = null;
  if (choices.passwordLength.trim() !== '') {
    const schema = FLAG_DEFINITIONS.passwordLength.schema;
    const parsed = schema.safeParse(Number(choices.passwordLength));
    if (!parsed.success) {
      return {
        error: `The password length is a whole number of characters from ${String(schema.minValue ?? 1)} to ${String(schema.maxValue ?? 1)}.`,
      };
    }
    passwordLength = parsed.data;
  }
  return {
    options: {
      targetTool: target.success ? target.data : null,
      threatModel: threat.data,
      workload: workload.data,
      unlockMachine: { memoryBytes, cores: null },
      passwordLength,
      speedOverSecurity: choices.speedOverSecurity,
    },
  };
}
