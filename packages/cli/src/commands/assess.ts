import { Args, Flags } from '@oclif/core';
import { assess, assessBundle, ASSESSMENT_SCHEMA } from '@encplan/core';
import { createEnvironment, readBundleDirectory } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { renderAssessment } from '../render/assessment.js';

/** `encplan assess [device]`: inventory, stack, space and machine of one disk, as a report or JSON. */
export default class Assess extends EncplanCommand {
  static override summary = 'Inspect a disk and its stack before you encrypt it.';
  static override description =
    'Reads the drive, its partitions and everything stacked on it, never-allocated space, existing encryption and the machine. Read-only: nothing is ever written. Without a device, assesses the disk that holds the current directory.';
  static override examples = ['<%= config.bin %> assess /dev/nvme0n1', '<%= config.bin %> assess --json', '<%= config.bin %> assess --bundle ./bundle'];
  static override args = {
    device: Args.string({ required: false, description: 'Whole-disk block device, e.g. /dev/nvme0n1 or /dev/sda.' }),
  };
  static override flags = {
    bundle: Flags.string({ summary: 'Analyse a bundle made by `encplan collect` instead of this machine.', exclusive: ['device'] }),
    'include-serials': Flags.boolean({ summary: 'Show serial numbers and WWNs instead of their hashes.', default: false }),
    benchmark: Flags.boolean({ summary: 'Also measure cipher and key-derivation speed (read-only, about a minute).', default: false }),
    quick: Flags.boolean({ summary: 'With --benchmark: shorter runs (less precise).', default: false, dependsOn: ['benchmark'] }),
  };
  protected readonly schemaName = ASSESSMENT_SCHEMA;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Assess);
    this.jsonOutput = flags.json;
    const environment = createEnvironment();
    const controller = this.cancelOnSignals();
    const envelope =
      flags.bundle === undefined
        ? await assess(environment, {
            device: args.device ?? null,
            includeSerials: flags['include-serials'],
            mode: 'live',
            signal: controller.signal,
            benchmark: flags.benchmark ? { quick: flags.quick } : null,
            // Progress only for the long run: a sub-second assessment needs none.
            ...(flags.benchmark ? { onProgress: (step: string) => process.stderr.write(`encplan: ${step}…\n`) } : {}),
          })
        : await assessBundle(await readBundleDirectory(flags.bundle), environment.clock, { signal: controller.signal });
    if (flags.json) {
      this.emitJson(envelope);
    } else {
      this.log(renderAssessment(envelope));
    }
  }
}
