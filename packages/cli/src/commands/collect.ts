import { Args, Flags } from '@oclif/core';
import { assessmentDocument, collect } from '@encplan/core';
import { createEnvironment, writeBundleDirectory } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { withCancellation } from '../cancellation.js';
import { stderrProgress } from '../render/progress-bar.js';

/** `encplan collect [device] --out DIR`: saves every capture of an assessment as a bundle. */
export default class Collect extends EncplanCommand {
  static override summary = 'Save everything an assessment reads as a bundle, to analyse elsewhere.';
  static override description =
    'Runs the same read-only probes as `assess` and writes what each tool printed (argv, exit status, output) and each file read to DIR/bundle.json. `encplan assess --bundle DIR` then gives the same report on any machine. Serial numbers and WWNs are hashed unless --include-serials.';
  static override examples = ['<%= config.bin %> collect /dev/sda --out ./sda-bundle'];
  static override args = {
    device: Args.string({
      required: false,
      description: 'Whole-disk block device; default: the disk holding the current directory.',
    }),
  };
  static override flags = {
    out: Flags.string({
      summary: 'Directory to write the bundle to (created; must not already hold a bundle).',
      required: true,
    }),
    'include-serials': Flags.boolean({
      summary: 'Keep serial numbers and WWNs in the bundle.',
      default: false,
    }),
    benchmark: Flags.boolean({
      summary:
        'Also run and record the cipher and I/O benchmarks (as assess --benchmark: scratch containers on a mounted filesystem of the disk, removed afterwards). The bundle replays them.',
      default: false,
    }),
    quick: Flags.boolean({
      summary: 'With --benchmark: shorter runs (less precise).',
      default: false,
      dependsOn: ['benchmark'],
    }),
  };
  readonly document = assessmentDocument;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Collect);
    this.jsonOutput = flags.json;
    const { envelope, bundle } = await withCancellation((signal) =>
      collect(createEnvironment(), {
        device: args.device ?? null,
        includeSerials: flags['include-serials'],
        signal,
        benchmark: flags.benchmark ? { quick: flags.quick } : null,
        ...(flags.benchmark
          ? {
              onProgress: (step: string) => process.stderr.write(`encplan: ${step}…\n`),
              onBenchmarkProgress: stderrProgress(),
            }
          : {}),
      }),
    );
    const file = await writeBundleDirectory(flags.out, bundle);
    if (flags.json) {
      this.emitJson(envelope);
    } else {
      this.log(
        `Wrote ${bundle.captures.length} captures to ${file} (status ${envelope.status}, ${envelope.warnings.length} warnings).`,
      );
      this.log(`Analyse it anywhere with: encplan assess --bundle ${flags.out}`);
    }
  }
}
