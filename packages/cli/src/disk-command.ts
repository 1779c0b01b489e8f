import { Args, Flags } from '@oclif/core';
import { FLAG_DEFINITIONS, type JsonDocument } from '@encplan/core';
import { EncplanCommand } from './base-command.js';
import { diskDocument, readDisks } from './disk-reading.js';

/** The argument of `encplan assess` and `encplan collect`: one disk, by default the current directory's. */
export const deviceArgs = {
  device: Args.string({
    required: false,
    description:
      'Whole-disk block device, e.g. /dev/nvme0n1 or /dev/sda; default: the disk holding the current directory.',
  }),
};

/**
 * The base of `encplan assess` and `encplan collect` (each names `deviceArgs` itself: oclif's parse reads a
 * command's own static properties, not inherited ones).
 */
export abstract class DiskCommand extends EncplanCommand {
  /** `--all` prints the machine document (errors included), one disk the assessment. */
  get document(): JsonDocument {
    return diskDocument(this.argv);
  }

  /**
   * Runs `work` on this machine's environment, Ctrl-C cancelling it; with `verbose`, the external programs it
   * ran are then listed on stderr.
   */
  protected readDisks<T>(...options: Parameters<typeof readDisks<T>>): Promise<T> {
    return readDisks(...options);
  }
}

/**
 * The flags of `assess` and `collect` that choose what is read: serials in clear, benchmarks and their length.
 * Each command says in its own words what they do there.
 */
export function diskFlags(summaries: { includeSerials: string; benchmark: string }) {
  return {
    'include-serials': Flags.boolean({ summary: summaries.includeSerials, default: false }),
    benchmark: Flags.boolean({ summary: summaries.benchmark, default: false }),
    quick: Flags.boolean({
      summary: 'With --benchmark: shorter runs (less precise).',
      default: false,
      dependsOn: ['benchmark'],
    }),
    // One definition (core rules/flag-definitions.ts) for every command that benchmarks, the wizard and the fleet role.
    scratch: Flags.string({
      summary: `With --benchmark: write the scratch containers in this folder (default: the disk's largest mounted filesystem, at its own mount point). Accepted: ${FLAG_DEFINITIONS.scratch.accepted}.`,
      dependsOn: ['benchmark'],
    }),
  };
}
