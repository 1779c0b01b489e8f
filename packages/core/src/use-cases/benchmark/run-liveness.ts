import type { RunStatus } from '../../domain/cleanup.js';
import type { Host, RunIdentity } from '../../ports.js';
import { parseProcStartTime } from '../../parsers/proc/parse-proc-stat.js';

/** What a state file says about the run that wrote it. */
export interface RecordedProcess {
  readonly pid: number;
  readonly pidNamespace?: string | null | undefined;
  readonly processStartTime?: string | null | undefined;
}

/** A run's status and the reason, in words. */
export interface RunLiveness {
  readonly status: RunStatus;
  readonly reason: string;
}

/** The text of /proc/<pid>/stat: null when there is no such process, `{ unreadable }` when it cannot be read. */
async function procStat(host: Host, pid: number): Promise<string | null | { readonly unreadable: true }> {
  try {
    return await host.readText(`/proc/${pid}/stat`);
  } catch {
    return { unreadable: true };
  }
}

/**
 * Whether the run that wrote a state file is proven dead, as seen by `self`. A pid means something only in its
 * own PID namespace (pid_namespaces(7)): a run in another one (a container, or the host seen from a container)
 * is never dead from here. In the same namespace, it is dead when no process has its pid, or when the process
 * that has it started at another time (the pid was reused; proc(5) /proc/pid/stat field 22). Anything that
 * cannot be proven (an older state file without a namespace, /proc hidden by hidepid) is `unproven`: left alone.
 */
export async function runLiveness(
  host: Host,
  self: Pick<RunIdentity, 'pid' | 'pidNamespace'>,
  recorded: RecordedProcess,
): Promise<RunLiveness> {
  const own = self.pidNamespace ?? null;
  const theirs = recorded.pidNamespace ?? null;
  const pid = String(recorded.pid);
  if (own === null) {
    // No PID namespaces to read here (macOS, Windows): a pid that exists is a live run.
    if (theirs !== null) {
      return {
        status: 'unproven',
        reason: `it was written in PID namespace ${theirs}, which this system cannot see.`,
      };
    }
    return (await host.effects.processAlive(recorded.pid))
      ? { status: 'alive', reason: `process ${pid} is running.` }
      : { status: 'dead', reason: `no process ${pid} is running.` };
  }
  if (theirs === null) {
    return {
      status: 'unproven',
      reason: `it does not name its PID namespace (written by an older encplan), so pid ${pid} may belong to a run in a container; remove the state file yourself once you know the run is over.`,
    };
  }
  if (theirs !== own) {
    return {
      status: 'other-namespace',
      reason: `the run is in PID namespace ${theirs}, not this one (${own}): its pid means nothing here, so it is never treated as dead (run encplan cleanup there).`,
    };
  }
  if (recorded.pid === self.pid) {
    return { status: 'alive', reason: 'it is this run.' };
  }
  const stat = await procStat(host, recorded.pid);
  if (stat === null) {
    return (await host.effects.processAlive(recorded.pid))
      ? { status: 'unproven', reason: `process ${pid} exists but /proc/${pid} cannot be read (hidepid).` }
      : { status: 'dead', reason: `no process ${pid} in this PID namespace.` };
  }
  const startTime = typeof stat === 'string' ? parseProcStartTime(stat) : null;
  const recordedStart = recorded.processStartTime ?? null;
  if (startTime === null || recordedStart === null) {
    return { status: 'alive', reason: `process ${pid} exists and its start time cannot be compared.` };
  }
  return startTime === recordedStart
    ? { status: 'alive', reason: `process ${pid} is still running.` }
    : {
        status: 'dead',
        reason: `pid ${pid} now belongs to a process started at tick ${startTime}, not the run's ${recordedStart}.`,
      };
}
