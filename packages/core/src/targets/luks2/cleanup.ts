import { outcome, runQuiet, teardownOf, type ResourceTeardown } from '../teardown-steps.js';
import { cryptsetupArgs } from './benchmark.js';

/**
 * What a LUKS2 container leaves to tear down: its dm-crypt mapping, closed by the name the run recorded
 * (`cryptsetup close NAME`); its container file and loop device are the shared kinds (teardown-steps.ts).
 */
export const LUKS2_TEARDOWNS: readonly ResourceTeardown[] = [
  teardownOf('dm-mapping', async (resource, { host }) => {
    if ((await host.stat(`/dev/mapper/${resource.name}`)) === null) {
      return outcome('absent');
    }
    const result = await runQuiet(host, 'cryptsetup', cryptsetupArgs.close(resource.name));
    if (result.ok) {
      return outcome('removed');
    }
    return (await host.stat(`/dev/mapper/${resource.name}`)) === null
      ? outcome('failed', result.message)
      : outcome('busy', `still open: ${result.message}`);
  }),
];
