import { Flags, type Interfaces } from '@oclif/core';
import {
  assertDestructiveAllowed,
  assess,
  assessAll,
  assessAllBundle,
  assessBundle,
  EncplanError,
  renderMachineHtmlReport,
  renderMachineTextReport,
  renderCommandsScript,
  renderHtmlReport,
  renderTextReport,
  toReportView,
} from '@encplan/core';
import { loadChartRenderer, readBundleDirectory, writeUserFile } from '@encplan/core/node';
import {
  benchmarkRequestOf,
  diskFlags,
  benchmarkProgress,
  deviceArgs,
  DiskCommand,
} from '../disk-command.js';
import { exitIfVerdictFails } from '../fail-on.js';
import { terminalTextOptions } from '../terminal-style.js';
import { optionsFromFlags, planOptionFlags } from '../plan-flags.js';
import { exitIfDiskFailed } from '../verbose-calls.js';

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

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Assess);
    if (flags.all) {
      await this.runAll(args.device, flags);
      return;
    }
    if (flags.bundle !== undefined && args.device !== undefined) {
      // oclif's `exclusive` covers flags only: a device next to --bundle would otherwise be ignored in silence.
      throw new EncplanError(
        'INVALID_ARGUMENT',
        `Give either a device (${args.device}) or --bundle, not both: a bundle is assessed as captured.`,
        {
          hint: 'Run `encplan assess --bundle DIR` for the captured disk, or `encplan assess DEVICE` for a disk of this machine.',
        },
      );
    }
    const planOptions = optionsFromFlags(flags);
    const benchmark = await benchmarkRequestOf(flags);
    const envelope = await this.readDisks(flags.verbose, (environment, signal) =>
      flags.bundle === undefined
        ? assess(environment, {
            device: args.device ?? null,
            includeSerials: flags['include-serials'],
            mode: 'live',
            signal,
            planOptions,
            benchmark,
            ...benchmarkProgress(flags.benchmark),
          })
        : readBundleDirectory(flags.bundle, signal).then((bundle) =>
            assessBundle(bundle, environment.clock, { signal, planOptions }),
          ),
    );
    const refusedPlan = envelope.result?.plan ?? null;
    if (flags.destructive && refusedPlan !== null) {
      // Refused before anything is printed: no flag overrides the in-use invariants (exit 4).
      assertDestructiveAllowed(refusedPlan);
    }
    // One view model for the text report, the HTML report and the script (the CLI has no view logic of its own),
    // built when one of them is written: `--json` alone prints the envelope and never needs it.
    let view: ReturnType<typeof toReportView> | undefined;
    const viewOf = () => (view ??= toReportView(envelope, { includeDestructive: flags.destructive }));
    if (flags.html !== undefined) {
      await writeUserFile(flags.html, renderHtmlReport(viewOf(), await loadChartRenderer()), {
        what: 'HTML report',
      });
    }
    const plan = envelope.result?.plan ?? null;
    if (flags.json) {
      this.emitJson(envelope);
    } else if (flags.commands) {
      this.log(
        plan === null
          ? '# encplan could not make a plan; see the warnings of `encplan assess`.'
          : renderCommandsScript(viewOf()),
      );
    } else {
      this.log(renderTextReport(viewOf(), terminalTextOptions(flags.verbose)));
    }
    if (plan !== null) {
      exitIfVerdictFails(plan.healthGate.effectiveVerdict, flags, 'health gate');
    }
  }

  /** `assess --all`: every whole disk, live or from a `collect --all` bundle; one document, a summary first. */
  private async runAll(
    device: string | undefined,
    flags: Interfaces.InferredFlags<typeof Assess.flags & typeof DiskCommand.baseFlags>,
  ): Promise<void> {
    if (device !== undefined || flags.benchmark || flags.commands) {
      // Benchmarking every disk would write scratch files to each in turn for many minutes, and one script
      // for every disk would be one long list of destructive steps: both are asked for one disk at a time.
      throw new EncplanError(
        'INVALID_ARGUMENT',
        '--all assesses every disk: give no device, and no --benchmark or --commands with it.',
        { hint: 'Run `encplan assess DEVICE` with those options for one disk.' },
      );
    }
    const planOptions = optionsFromFlags(flags);
    const envelope = await this.readDisks(flags.verbose, (environment, signal) =>
      flags.bundle === undefined
        ? assessAll(environment, {
            includeSerials: flags['include-serials'],
            mode: 'live',
            signal,
            planOptions,
          })
        : readBundleDirectory(flags.bundle, signal).then((bundle) =>
            assessAllBundle(bundle, environment.clock, { signal, planOptions }),
          ),
    );
    if (flags.html !== undefined) {
      await writeUserFile(
        flags.html,
        renderMachineHtmlReport(envelope, await loadChartRenderer(), {
          includeDestructive: flags.destructive,
        }),
        { what: 'HTML report' },
      );
    }
    if (flags.json) {
      this.emitJson(envelope);
    } else {
      this.log(
        renderMachineTextReport(envelope, {
          includeDestructive: flags.destructive,
          text: terminalTextOptions(flags.verbose),
        }),
      );
    }
    exitIfDiskFailed(envelope);
  }
}
