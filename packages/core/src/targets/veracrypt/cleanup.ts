import { EncplanError } from '../../errors.js';
import { outcome, runQuiet, teardownOf, type ResourceTeardown } from '../teardown-steps.js';
import { veracryptArgs } from './benchmark.js';

/** Refuses anything but one drive letter D–Z: the only letters a VeraCrypt test volume is mounted at. */
export function assertVeracryptLetter(letter: string): void {
  if (!/^[D-Z]$/.test(letter)) {
    throw new EncplanError('INVALID_ARGUMENT', `A VeraCrypt test volume needs a drive letter D–Z: ${letter}`);
  }
}

/**
 * `VeraCrypt.exe` unmounting the volume at `letter` only (without a letter it would unmount every VeraCrypt
 * volume of the user). `/dismount` is deprecated for `/unmount` in current releases but still accepted, and
 * the only spelling older releases know; `/force` because the benchmark's own file handles are closed.
 */
export function veracryptWindowsDismountArgs(letter: string): string[] {
  assertVeracryptLetter(letter);
  return ['/dismount', letter, '/force', '/quit', '/silent'];
}

/**
 * What a VeraCrypt container leaves to tear down: on Linux the mounted volume, dismounted by its container file
 * (`veracrypt --dismount FILE`); on Windows the volume at the drive letter the run recorded.
 */
export const VERACRYPT_TEARDOWNS: readonly ResourceTeardown[] = [
  teardownOf('veracrypt-volume', async (resource, { host }) => {
    const result = await runQuiet(host, 'veracrypt', veracryptArgs.dismount(resource.container));
    return result.ok ? outcome('removed') : outcome('absent', result.message);
  }),
  teardownOf('veracrypt-windows-volume', async (resource, { host }) => {
    if ((await host.stat(`${resource.letter}:\\`)) === null) {
      return outcome('absent');
    }
    // Only this letter: /dismount without one would unmount every VeraCrypt volume of the user.
    const result = await runQuiet(host, 'veracrypt', veracryptWindowsDismountArgs(resource.letter));
    return result.ok ? outcome('removed') : outcome('failed', result.message);
  }),
];
