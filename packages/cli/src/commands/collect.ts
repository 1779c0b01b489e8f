import { Flags } from '@oclif/core';
import { collect, collectAll, EncplanError } from '@encplan/core';
import { writeBundleDirectory } from '@encplan/core/node';
import { diskFlags, deviceArgs, DiskCommand } from '../disk-command.js';
import { benchmarkProgress, benchmarkRequestOf } from '../disk-reading.js';
import { exitIfDiskFailed } from '../verbose-calls.js';

/** `encplan collect [device] --out DIR`: saves every capture of an assessment as a bundle. */
export default class Collect extends DiskCommand {
  static override summary = 'Save everything an assessment reads as a bundle, to analyse elsewhere.';
  static override description =
    'Runs the same read-only probes as `assess` and writes what each tool printed (argv, exit status, output) and each file read to DIR/bundle.json. `encplan assess --bundle DIR` then gives the same report on any machine. Serial numbers and WWNs are hashed unless --include-serials.';
  static override examples = [
    '<%= config.bin %> collect /dev/sda --out ./sda-bundle',
    '<%= config.bin %> collect --all --out ./machine-bundle',
  ];
  static override args = deviceArgs;
  static override flags = {
    all: Flags.boolean({
      summary:
        'Record every whole disk of this machine in one bundle (as assess --all); replay it with `encplan assess --all --bundle DIR`.',
      default: false,
    }),
    verbose: Flags.boolean({
      summary: 'List every external program encplan ran, with its duration and exit status, on stderr.',
      default: false,
    }),
    out: Flags.string({
      summary: 'Directory to write the bundle to (created; must not already hold a bundle).',
      required: true,
    }),
    ...diskFlags({
      includeSerials: 'Keep serial numbers and WWNs in the bundle.',
      benchmark:
        'Also run and record the cipher and I/O benchmarks (as assess --benchmark: scratch containers on a mounted filesystem of the disk, removed afterwards). The bundle replays them.',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Collect);
    if (flags.all && (args.device !== undefined || flags.benchmark === true)) {
      throw new EncplanError(
        'INVALID_ARGUMENT',
        '--all records every disk: give no device and no --benchmark with it.',
        { hint: 'Run `encplan collect DEVICE --out DIR` for one disk.' },
      );
    }
    const benchmark = await benchmarkRequestOf(flags);
    const progress = await benchmarkProgress(benchmark !== null);
    const { envelope, bundle } = await this.readDisks<
      Awaited<ReturnType<typeof collectAll>> | Awaited<ReturnType<typeof collect>>
    >(flags.verbose, (environment, signal) =>
      flags.all
        ? collectAll(environment, { includeSerials: flags['include-serials'], signal })
        : collect(environment, {
            device: args.device ?? null,
            includeSerials: flags['include-serials'],
            signal,
            benchmark,
            ...progress,
          }),
    );
    const file = await writeBundleDirectory(flags.out, bundle);
    const disks =
      envelope.result !== null && 'disks' in envelope.result ? envelope.result.disks.length : null;
    if (flags.json) {
      this.emitJson(envelope);
    } else {
      this.log(
        `Wrote ${String(bundle.captures.length)} captures${disks === null ? '' : ` of ${String(disks)} disks`} to ${file} (status ${envelope.status}, ${String(envelope.warnings.length)} warnings).`,
      );
      this.log(`Analyse it anywhere with: encplan assess${flags.all ? ' --all' : ''} --bundle ${flags.out}`);
    }
    if (envelope.result !== null && 'disks' in envelope.result) {
      exitIfDiskFailed({ result: envelope.result });
    }
  }
}
