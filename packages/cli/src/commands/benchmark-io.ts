import { createInterface } from 'node:readline/promises';
import { Args, Flags } from '@oclif/core';
import {
  EncplanError,
  ioBenchmarkDocument,
  SELECTABLE_BENCHMARK_IDS,
  toIoBenchmarkView,
  type BackendId,
} from '@encplan/core';
import { createEnvironment, runPlatformIoBenchmark, type NodeEnvironment } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { stderrProgress } from '../render/progress-bar.js';
import { withCancellation } from '../cancellation.js';

/** `encplan benchmark io`: fio profiles on plain and encrypted targets, with the overhead of each. */
export default class BenchmarkIo extends EncplanCommand {
  static override summary =
    'Measure plain vs encrypted I/O with fio (CrystalDiskMark profiles) and show the overhead.';
  static override description =
    "Without a device, everything happens in a scratch directory on TARGET's filesystem (default: the current directory): a sparse ext4 image for the plain run and fscrypt, and container files for LUKS2, VeraCrypt or APFS. A block device is erased and needs --destructive.";
  readonly document = ioBenchmarkDocument;

  static override args = {
    target: Args.string({
      ignoreStdin: true,
      description: 'A directory (non-destructive) or a whole block device (with --destructive).',
      required: false,
    }),
  };

  static override flags = {
    backend: Flags.string({
      summary: 'Encrypted backend(s) to measure; default: what this platform supports.',
      options: [...SELECTABLE_BENCHMARK_IDS, 'plain'],
      multiple: true,
    }),
    quick: Flags.boolean({
      summary: 'One short run per profile on a 64 MiB file (default).',
      exclusive: ['full'],
    }),
    full: Flags.boolean({
      summary: 'Five 5 s runs per profile on a 1 GiB file, median and spread.',
      exclusive: ['quick'],
    }),
    sweep: Flags.boolean({ summary: 'Add an ATTO-style block-size sweep, 512 B to 64 MiB.', default: false }),
    'cipher-bytes-per-second': Flags.integer({
      summary: "One core's cipher speed, to tell cipher-bound from queueing-bound runs.",
      min: 1,
    }),
    // No defaults on --destructive and --yes: oclif's `dependsOn` counts a default as given.
    destructive: Flags.boolean({ summary: 'Allow erasing TARGET when it is a block device.' }),
    yes: Flags.boolean({
      summary: 'With --destructive: do not ask to type the device name (scripts).',
      dependsOn: ['destructive'],
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(BenchmarkIo);
    const { host } = createEnvironment();
    const target = args.target ?? host.cwd;
    const destructive = flags.destructive === true;
    const yes = flags.yes === true;
    const typedDevice = await this.confirmDevice(host, target, destructive, yes, flags.json);
    const backends =
      flags.backend === undefined
        ? 'auto'
        : // oclif's `options` already limited the names; this keeps the user's order and the type.
          flags.backend.flatMap((name) =>
            [...SELECTABLE_BENCHMARK_IDS, 'plain' as const].filter((id): id is BackendId => id === name),
          );
    const outcome = await withCancellation((signal) =>
      runPlatformIoBenchmark(host, {
        target,
        backends,
        mode: flags.full ? 'full' : 'quick',
        sweep: flags.sweep,
        destructive: { allowDestructive: destructive, typedDevice, yes },
        cipherBytesPerSecondPerCore: flags['cipher-bytes-per-second'] ?? null,
        onProgress: stderrProgress(),
        signal,
      }),
    );
    if (flags.json) {
      this.emitOkEnvelope(outcome.result, outcome.warnings);
    } else {
      this.logDocumentText(toIoBenchmarkView(outcome.result, outcome.warnings));
    }
  }

  /** Asks for the device name before erasing a block device, unless --yes. Never prompts with --json. */
  private async confirmDevice(
    host: NodeEnvironment['host'],
    target: string,
    destructive: boolean,
    yes: boolean,
    json: boolean,
  ): Promise<string | null> {
    const info = await host.stat(target);
    if (info?.kind !== 'block-device' || !destructive || yes) {
      return null;
    }
    if (json || !process.stdin.isTTY) {
      throw new EncplanError(
        'DESTRUCTIVE_OPERATION_REFUSED',
        `Refusing to erase ${target} without confirmation.`,
        {
          hint: 'Run in a terminal to type the device name, or pass --yes.',
          details: { device: target },
        },
      );
    }
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return (
        await prompt.question(`This ERASES everything on ${target}. Type the device name to continue: `)
      ).trim();
    } finally {
      prompt.close();
    }
  }
}
