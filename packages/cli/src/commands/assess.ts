import { Flags } from '@oclif/core';
import { runAssess } from '../assess-run.js';
import { diskFlags, deviceArgs, DiskCommand } from '../disk-command.js';
import { planOptionFlags } from '../plan-flags.js';

/** `encplan assess [device]`: inventory, stack, space and machine of one disk, as a report or JSON. */
export default class Assess extends DiskCommand {
  static override summary = 'Inspect a disk and its stack before you encrypt it.';
  static override description =
    'Reads the drive, its partitions and everything stacked on it, never-allocated space, existing encryption and the machine. Read-only: nothing is ever written. Without a device, assesses the disk that holds the current directory.';
  static override examples = [
    '<%= config.bin %> assess /dev/nvme0n1',
    '<%= config.bin %> assess --json',
    '<%= config.bin %> assess --bundle ./bundle',
    '<%= config.bin %> assess --all',
  ];
  static override args = deviceArgs;
  static override flags = {
    all: Flags.boolean({
      summary:
        'Assess every whole disk of this machine in one run (lsblk lists them; zram, ram, empty and read-only loop devices are left out). One summary line per disk, then each disk.',
      default: false,
    }),
    bundle: Flags.string({
      summary: 'Analyse a bundle made by `encplan collect` instead of this machine (give no device with it).',
    }),
    ...diskFlags({
      includeSerials: 'Show serial numbers and WWNs instead of their hashes.',
      benchmark:
        'Also measure cipher and key-derivation speed, and plain versus encrypted I/O in scratch containers on a mounted filesystem of the disk (never the raw device).',
    }),
    html: Flags.string({ summary: 'Also write a self-contained HTML report to this file.' }),
    verbose: Flags.boolean({
      char: 'v',
      summary:
        'Print every fact, recommendation with its evidence, measurement, prediction and the script (default: a one-screen summary), and list every external program encplan ran, with its duration and exit status, on stderr.',
      default: false,
    }),
    ...planOptionFlags,
  };

  /** oclif's parse, then the command's one body (assess-run.ts), which the direct path (direct-run.ts) runs too. */
  async run(): Promise<void> {
    const { args, flags } = await this.parse(Assess);
    await runAssess(args, flags);
  }
}
