import { outcome, runQuiet, teardownOf, type ResourceTeardown } from '../teardown-steps.js';
import { fscryptArgs, fscryptEnvironment } from './benchmark.js';

/** What an fscrypt directory leaves to tear down: its policy's key, and the global state of old runs (kept). */
export const FSCRYPT_TEARDOWNS: readonly ResourceTeardown[] = [
  teardownOf('fscrypt-policy', async (resource, { host }) => {
    if ((await host.stat(resource.directory)) === null) {
      return outcome('absent');
    }
    // Unmounting the filesystem also removes a v2 policy's key from its keyring (fscrypt README); locking
    // first drops it as soon as the measurement ends. A lock that fails here is therefore not fatal.
    const result = await runQuiet(
      host,
      'fscrypt',
      fscryptArgs.lock(resource.directory),
      resource.configFile === undefined || resource.rootMount === undefined
        ? undefined
        : fscryptEnvironment({ configFile: resource.configFile, rootMount: resource.rootMount }),
    );
    return outcome(result.ok ? 'removed' : 'absent', result.ok ? null : result.message);
  }),
  // Old runs recorded fscrypt's /etc/fscrypt.conf and /.fscrypt and deleted them recursively, destroying any
  // fscrypt setup the user made since (issue 16). They are never removed now: encplan cannot tell what in them
  // is its own, and current runs keep fscrypt's state in their private directory instead. Their record is
  // dropped once reported, since it serves nothing.
  teardownOf(
    'global-path',
    async (resource, { host }) =>
      (await host.stat(resource.path)) === null
        ? outcome('absent')
        : outcome(
            'kept',
            `${resource.path} is fscrypt's global state and may hold the user's protectors; encplan leaves it alone (remove it yourself if you never use fscrypt).`,
          ),
    { forgetWhenKept: true },
  ),
];
