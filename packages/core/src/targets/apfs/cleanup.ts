import { outcome, runQuiet, teardownOf, type ResourceTeardown } from '../teardown-steps.js';
import { hdiutilArgs } from './benchmark.js';

/** What an APFS image leaves to tear down: the attached image, detached at the mount point the run recorded. */
export const APFS_TEARDOWNS: readonly ResourceTeardown[] = [
  teardownOf('disk-image', async (resource, { host }) => {
    if ((await host.stat(resource.mountPoint)) === null) {
      return outcome('absent');
    }
    let result = await runQuiet(host, 'hdiutil', hdiutilArgs.detach(resource.mountPoint));
    if (!result.ok) {
      // A killed run's fio may still hold files open on its own scratch image; nothing else uses it.
      result = await runQuiet(host, 'hdiutil', hdiutilArgs.forceDetach(resource.mountPoint));
    }
    return result.ok ? outcome('removed') : outcome('absent', result.message);
  }),
];
