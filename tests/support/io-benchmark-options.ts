import type { runIoBenchmark } from '@encplan/core/node';

type IoBenchmarkOptions = Parameters<typeof runIoBenchmark>[1];

/**
 * The options a runIoBenchmark test starts from: quick mode without the block-size sweep, never destructive, no
 * cipher speed for the bound analysis. The test names the target, the encrypted backends and the fio profiles.
 */
export function quickIoBenchmark(
  target: string,
  backends: IoBenchmarkOptions['backends'],
  profileIds: readonly string[],
  more: Partial<IoBenchmarkOptions> = {},
): IoBenchmarkOptions {
  return {
    target,
    backends,
    mode: 'quick',
    sweep: false,
    profileIds,
    destructive: { allowDestructive: false, typedDevice: null, yes: false },
    cipherBytesPerSecondPerCore: null,
    ...more,
  };
}
