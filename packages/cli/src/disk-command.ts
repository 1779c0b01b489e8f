import { Args, Flags } from '@oclif/core';
import { FLAG_DEFINITIONS, type JsonDocument } from '@encplan/core';
import { EncplanCommand } from './base-command.js';
import { diskDocument, readDisks } from './disk-reading.js';

/**
 * The argument of `encplan assess` and `encplan collect`: one disk, by default the current directory's, taken
 * only from the command line. oclif reads an argument that is not given from stdin (@oclif/core 5
 * parser/parse.js `tryStdin`) unless `ignoreStdin`: `echo /dev/sdb | encplan assess` assessed /dev/sdb, and a
 * `while read` loop calling encplan lost its input to it. Every argument of every command ignores stdin
 * (tests/cli-e2e/stdin-arguments.test.ts).
 */
export const deviceArgs = {
  device: Args.string({
    ignoreStdin: true,
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
    // No `default: false` on --benchmark or --quick: oclif's `dependsOn` (parser/validate.js `validateDependsOn`)
    // counts a default as given, so --quick or --scratch alone would be accepted and no benchmark run.
    benchmark: Flags.boolean({ summary: summaries.benchmark }),
    quick: Flags.boolean({
      summary: 'With --benchmark: shorter runs (less precise).',
      dependsOn: ['benchmark'],
    }),
    // One definition (core rules/flag-definitions.ts) for every command that benchmarks, the wizard and the fleet role.
    scratch: Flags.string({
      summary: `With --benchmark: write the scratch containers in this folder (default: the disk's largest mounted filesystem, at its own mount point). Accepted: ${FLAG_DEFINITIONS.scratch.accepted}.`,
      dependsOn: ['benchmark'],
    }),
  };
}
