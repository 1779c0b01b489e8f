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
  /** `kept`: deliberately left in place because it may hold the user's data (since cleanup 1.1). */
  outcome: z.enum(['removed', 'absent', 'failed', 'kept']),
  message: z.string().nullable(),
});
export type RemovalOutcome = z.infer<typeof removalOutcomeSchema>;

/** The result of `encplan cleanup`: what was found from earlier runs and what became of it. */
export const cleanupReportSchema = z.object({
  /** State files of runs whose process is gone. */
  stateFiles: z.array(z.string()),
  outcomes: z.array(removalOutcomeSchema),
});
export type CleanupReport = z.infer<typeof cleanupReportSchema>;
