/** Helpers for tests that start processes and check what is left running. */

/** Whether a process with this pid exists (signal 0 probes without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs every pid in `pids` that still exists and empties the list (for afterEach). */
export function killStrays(pids: number[]): void {
  for (const pid of pids.splice(0)) {
    if (alive(pid)) {
      process.kill(pid, 'SIGKILL');
    }
  }
}

/** Polls `condition` every 50 ms, up to `attempts` times; returns its last value. Asserts an outcome, not a time. */
export async function until(condition: () => boolean, attempts = 600): Promise<boolean> {
  for (let attempt = 0; attempt < attempts && !condition(); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}
