import { z } from 'zod';

/** Something a benchmark creates. Registered before it is created, removed in reverse order. */
export const resourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('directory'), path: z.string() }),
  z.object({ kind: z.literal('file'), path: z.string() }),
  /** A system path encplan had to create (fscrypt's /etc/fscrypt.conf, /.fscrypt) because it was missing. */
  z.object({ kind: z.literal('global-path'), path: z.string() }),
  z.object({ kind: z.literal('loop-device'), backingFile: z.string() }),
  z.object({ kind: z.literal('mount'), mountPoint: z.string() }),
  z.object({ kind: z.literal('dm-mapping'), name: z.string() }),
  z.object({ kind: z.literal('fscrypt-policy'), directory: z.string() }),
  z.object({ kind: z.literal('veracrypt-volume'), container: z.string() }),
  z.object({ kind: z.literal('disk-image'), mountPoint: z.string() }),
]);
export type Resource = z.infer<typeof resourceSchema>;

/** What happened when encplan tried to remove a resource. */
export const removalOutcomeSchema = z.object({
  resource: resourceSchema,
  outcome: z.enum(['removed', 'absent', 'failed']),
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
