import { z } from 'zod';

/** Something a benchmark creates. Registered before it is created, removed in reverse order. */
export const resourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('directory'), path: z.string() }),
  z.object({ kind: z.literal('file'), path: z.string() }),
  /**
   * Written by encplan before 0.2 for fscrypt's /etc/fscrypt.conf and /.fscrypt. Read from old state files only,
   * and never deleted: the user may have set fscrypt up there since (issue 16).
   */
  z.object({ kind: z.literal('global-path'), path: z.string() }),
  z.object({ kind: z.literal('loop-device'), backingFile: z.string() }),
  z.object({ kind: z.literal('mount'), mountPoint: z.string() }),
  z.object({ kind: z.literal('dm-mapping'), name: z.string() }),
  /** An fscrypt policy on a run's scratch filesystem, with the run's own fscrypt config and metadata root. */
  z.object({
    kind: z.literal('fscrypt-policy'),
    directory: z.string(),
    configFile: z.string().optional(),
    rootMount: z.string().optional(),
  }),
  z.object({ kind: z.literal('veracrypt-volume'), container: z.string() }),
  z.object({ kind: z.literal('disk-image'), mountPoint: z.string() }),
  /** A VHDX test volume attached on Windows (detached with Dismount-DiskImage; its file is a `file`). */
  z.object({ kind: z.literal('vhd'), path: z.string() }),
  /** A VeraCrypt volume mounted at a drive letter on Windows (unmounted with VeraCrypt.exe /dismount LETTER). */
  z.object({ kind: z.literal('veracrypt-windows-volume'), letter: z.string() }),
]);
export type Resource = z.infer<typeof resourceSchema>;

/** What happened when encplan tried to remove a resource. */
const removalOutcomeSchema = z.object({
  resource: resourceSchema,
  /**
   * `kept`: deliberately left in place because it may hold the user's data (since cleanup 1.1); `busy`: still in
   * use (mounted, a loop device still attached, a mapping still open), left in place and never reported
   * `removed` (since cleanup 1.2).
   */
  outcome: z.enum(['removed', 'absent', 'failed', 'kept', 'busy']),
  message: z.string().nullable(),
});
export type RemovalOutcome = z.infer<typeof removalOutcomeSchema>;

/**
 * Whether the run that wrote a state file is over, as seen from this process: `dead` only when it ran in this
 * PID namespace and its pid is gone or now belongs to a process with another start time; `other-namespace`
 * (another container or the host seen from a container: never touched from here); `alive`; `unproven` (the
 * state file or /proc do not say enough to prove it dead: left alone).
 */
const runStatusSchema = z.enum(['dead', 'alive', 'other-namespace', 'unproven']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** One state file `encplan cleanup` found, and what it concluded about its run (since cleanup 1.2). */
const recordedRunSchema = z.object({
  stateFile: z.string(),
  pid: z.number().int(),
  /** The run's PID namespace (readlink /proc/self/ns/pid, e.g. "pid:[4026531836]"); null when not recorded. */
  pidNamespace: z.string().nullable(),
  status: runStatusSchema,
  reason: z.string(),
});

/** The result of `encplan cleanup`: what was found from earlier runs and what became of it. */
export const cleanupReportSchema = z.object({
  /** State files of runs proven dead (their resources are in `outcomes`). */
  stateFiles: z.array(z.string()),
  outcomes: z.array(removalOutcomeSchema),
  /** Every state file found, dead or not, with why its run was or was not acted on (since cleanup 1.2). */
  runs: z.array(recordedRunSchema),
});
export type CleanupReport = z.infer<typeof cleanupReportSchema>;
