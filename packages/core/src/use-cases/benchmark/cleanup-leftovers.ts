import type { CleanupReport, RemovalOutcome } from '../../domain/cleanup.js';
import type { Host } from '../../ports.js';
import { findLeftoverStates, removeResource, resourceSettled } from './cleanup-registry.js';

/** Where to look for leftovers. */
export interface CleanupOptions {
  readonly stateDirectory?: string;
}

/**
 * Removes what encplan runs that are proven dead left, and only that: the resources their state files list,
 * newest first. Nothing is searched for by name on the machine (a folder called `encplan-bench-<pid>-…` may be
 * the user's, and a pid may be a container's). A run still alive, in another PID namespace or not provable
 * dead is listed in `runs` and left alone. A resource still in use is reported `busy` and kept, with its state
 * file, for a later cleanup; the state file is removed only when everything in it is gone.
 */
export async function cleanupLeftovers(host: Host, options: CleanupOptions = {}): Promise<CleanupReport> {
  const identity = await host.effects.runIdentity();
  const stateDirectory = options.stateDirectory ?? identity.stateDirectory;
  const outcomes: RemovalOutcome[] = [];
  const states = await findLeftoverStates(host, stateDirectory, identity);
  const dead = states.filter((state) => state.liveness.status === 'dead');
  for (const state of dead) {
    const results: RemovalOutcome[] = [];
    for (const resource of [...state.resources].reverse()) {
      results.push(await removeResource(host, resource, state.resources));
    }
    outcomes.push(...results);
    if (results.every(resourceSettled)) {
      await host.effects.remove(state.file, { recursive: false });
    }
  }
  return {
    stateFiles: dead.map((state) => state.file),
    outcomes,
    runs: states.map((state) => ({
      stateFile: state.file,
      pid: state.pid,
      pidNamespace: state.pidNamespace,
      status: state.liveness.status,
      reason: state.liveness.reason,
    })),
  };
}
