import { Args, Flags } from '@oclif/core';
import {
  assertDestructiveAllowed,
  assess,
  assessBundle,
  assessmentDocument,
  EncplanError,
  renderCommandsScript,
  renderHtmlReport,
  renderTextReport,
  toReportView,
} from '@encplan/core';
import { createEnvironment, readBundleDirectory, writeUserFile } from '@encplan/core/node';
import { EncplanCommand } from '../base-command.js';
import { withCancellation } from '../cancellation.js';
import { stderrProgress } from '../render/progress-bar.js';
import { exitIfVerdictFails } from '../fail-on.js';
import { optionsFromFlags, planOptionFlags } from '../plan-flags.js';

/** `encplan assess [device]`: inventory, stack, space and machine of one disk, as a report or JSON. */
export default class Assess extends EncplanCommand {
  static override summary = 'Inspect a disk and its stack before you encrypt it.';
  static override description =
    'Reads the drive, its partitions and everything stacked on it, never-allocated space, existing encryption and the machine. Read-only: nothing is ever written. Without a device, assesses the disk that holds the current directory.';
  static override examples = [
    '<%= config.bin %> assess /dev/nvme0n1',
    '<%= config.bin %> assess --json',
    '<%= config.bin %> assess --bundle ./bundle',
  ];
  static override args = {
    device: Args.string({
      required: false,
      description: 'Whole-disk block device, e.g. /dev/nvme0n1 or /dev/sda.',
    }),
  };
  static override flags = {
    bundle: Flags.string({
      summary: 'Analyse a bundle made by `encplan collect` instead of this machine (give no device with it).',
    }),
    'include-serials': Flags.boolean({
      summary: 'Show serial numbers and WWNs instead of their hashes.',
      default: false,
    }),
    benchmark: Flags.boolean({
      summary:
        'Also measure cipher and key-derivation speed, and plain versus encrypted I/O in scratch containers on a mounted filesystem of the disk (never the raw device).',
      default: false,
    }),
    quick: Flags.boolean({
      summary: 'With --benchmark: shorter runs (less precise).',
      default: false,
      dependsOn: ['benchmark'],
    }),
    html: Flags.string({ summary: 'Also write a self-contained HTML report to this file.' }),
    ...planOptionFlags,
  };
  readonly document = assessmentDocument;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Assess);
    this.jsonOutput = flags.json;
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
    const environment = createEnvironment();
    const planOptions = optionsFromFlags(flags);
    const envelope = await withCancellation((signal) =>
      flags.bundle === undefined
        ? assess(environment, {
            device: args.device ?? null,
            includeSerials: flags['include-serials'],
            mode: 'live',
            signal,
            planOptions,
            benchmark: flags.benchmark ? { quick: flags.quick } : null,
            // Progress only for the long run: a sub-second assessment needs none.
            ...(flags.benchmark
              ? {
                  onProgress: (step: string) => process.stderr.write(`encplan: ${step}…\n`),
                  onBenchmarkProgress: stderrProgress(),
                }
              : {}),
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
    // One view model for the text report, the HTML report and the script (the CLI has no view logic of its own).
    const view = toReportView(envelope, { includeDestructive: flags.destructive });
    if (flags.html !== undefined) {
      await writeUserFile(flags.html, renderHtmlReport(view), { what: 'HTML report' });
    }
    const plan = envelope.result?.plan ?? null;
    if (flags.json) {
      this.emitJson(envelope);
    } else if (flags.commands) {
      this.log(
        plan === null
          ? '# encplan could not make a plan; see the warnings of `encplan assess`.'
          : renderCommandsScript(view),
      );
    } else {
      this.log(renderTextReport(view));
    }
    if (plan !== null) {
      exitIfVerdictFails(plan.healthGate.effectiveVerdict, flags, 'health gate', (code) => this.exit(code));
    }
  }
}
