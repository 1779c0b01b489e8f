import { z } from 'zod';

/** What running a command does to the machine. `destroys-data` is never run or uncommented by default. */
const commandRiskSchema = z.enum(['read-only', 'changes-settings', 'destroys-data']);

/** One command of the plan: an argv array (never a string), what it is for, and how risky it is. */
export const planCommandSchema = z.object({
  /** Stable kebab-case id: "luks-format", "blkdiscard-tail", … */
  id: z.string(),
  purpose: z.string(),
  argv: z.array(z.string()).min(1),
  risk: commandRiskSchema,
  /**
   * What the command reads on stdin: `passphrase` (typed by the user at the prompt; never put in argv) or
   * `text` (the fixed, non-secret `stdinText`, e.g. the /etc/crypttab line; since plan 1.1).
   */
  stdin: z.enum(['passphrase', 'text']).nullable(),
  /** The exact text fed on stdin when `stdin` is `text` (plan 1.1). */
  stdinText: z.string().optional(),
  /**
   * The stage the command belongs to (plan 1.1; absent = 1). A new stage starts after a step that needs
   * the drive power-cycled (hdparm -N): the script stops at the end of each stage.
   */
  stage: z.number().int().positive().optional(),
  /** The shell the line is written for: absent = POSIX sh; `powershell` for Windows commands (plan 1.1). */
  shell: z.enum(['sh', 'powershell']).optional(),
  /**
   * The id of the data-destroying command this one only prepares (plan 1.1, optional): `umount` and `e2fsck`
   * before an in-place shrink. It is commented out with that command, so a script run without --destructive
   * never unmounts or checks a filesystem for a step that will not run.
   */
  prepares: z.string().optional(),
});
/** A validated {@link planCommandSchema} value. */
export type PlanCommand = z.infer<typeof planCommandSchema>;
