import { type PlanInput, type PlanOptions } from '@encplan/core';
import { MIB } from '../../src/domain/units.js';
import { unknownPlanInput } from '../../src/plan/plan-input.js';
import { planOptionsSchema, type ResolvedPlanOptions } from '../../src/plan/plan-options.js';

/** A PlanInput where everything is unknown; tests override what the rule under test reads. */
export function unknownInput(): PlanInput {
  return unknownPlanInput();
}

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[]
    ? T[K]
    : T[K] extends object | null
      ? DeepPartial<NonNullable<T[K]>> | null
      : T[K];
};

/** unknownInput() with the given sections merged in (one level deep per section). */
export function inputWith(overrides: DeepPartial<PlanInput>): PlanInput {
  const base = unknownInput();
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = (base as unknown as Record<string, unknown>)[key];
    merged[key] =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      current !== null &&
      typeof current === 'object' &&
      !Array.isArray(current)
        ? { ...current, ...value }
        : value;
  }
  return merged as unknown as PlanInput;
}

/** Resolved options with defaults, luks2 unless told otherwise. */
export function optionsWith(options: PlanOptions = {}): ResolvedPlanOptions {
  const parsed = planOptionsSchema.parse(options);
  return { ...parsed, targetTool: parsed.targetTool ?? 'luks2' };
}

/** A cryptsetup-style cipher measurement in MiB/s. */
export function cipherMiB(
  cipher: PlanInput['cipherSpeeds'][number]['cipher'],
  keyBits: number,
  encryptMiB: number,
  decryptMiB = encryptMiB,
): PlanInput['cipherSpeeds'][number] {
  return {
    cipher,
    keyBits,
    encryptBytesPerSecondOneCore: encryptMiB * MIB,
    decryptBytesPerSecondOneCore: decryptMiB * MIB,
    encryptBytesPerSecondAllCores: null,
    source: { origin: 'test', field: null },
  };
}
