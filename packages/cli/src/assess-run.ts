import {
  assertDestructiveAllowed,
  assess,
  assessAll,
  assessAllBundle,
  assessBundle,
  EncplanError,
  type ReportView,
} from '@encplan/core';
import { readBundleDirectory, writeUserFile } from '@encplan/core/node';
import { emitJson } from './command-outcome.js';
import { benchmarkProgress, benchmarkRequestOf, readDisks } from './disk-reading.js';
import type { PlanOptionFlagValues } from './plan-flags.js';
import { optionsFromFlags } from './plan-options.js';
import { exitIfVerdictFails } from './verdict-exit.js';
import { exitIfDiskFailed } from './verbose-calls.js';

/**
 * The body of `encplan assess`: ONE piece of code, run by the oclif command (commands/assess.ts) after oclif's
 * parse and by the direct path (direct-run.ts) after its parse of the same flags (direct.ts). Nothing here
 * imports oclif.
 */

/** The parsed flags of `encplan assess` (commands/assess.ts defines them for oclif; its run checks they fit). */
export type AssessFlags = PlanOptionFlagValues & {
  readonly json: boolean;
  readonly all: boolean;
  readonly bundle?: string | undefined;
  readonly 'include-serials': boolean;
  /** Absent unless given: --quick and --scratch depend on it (disk-command.ts). */
  readonly benchmark?: boolean | undefined;
  readonly quick?: boolean | undefined;
  readonly scratch?: string | undefined;
  readonly html?: string | undefined;
  readonly verbose: boolean;
};

/** The parsed argument of `encplan assess`. */
interface AssessArgs {
  readonly device?: string | undefined;
}

/** The reports and the script, loaded when one is printed or written (assess-views.ts). */
const views = () => import('./assess-views.js');

/** Prints a line on stdout, as oclif's `Command.log` does (console.log of the text). */
function log(text: string): void {
  console.log(text);
}

/** `encplan assess [device]`: inventory, stack, space and machine of one disk, as a report or JSON. */
export async function runAssess(args: AssessArgs, flags: AssessFlags): Promise<void> {
  if (flags.all) {
    await runAll(args.device, flags);
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
  const progress = await benchmarkProgress(benchmark !== null);
  const envelope = await readDisks(flags.verbose, (environment, signal) =>
    flags.bundle === undefined
      ? assess(environment, {
          device: args.device ?? null,
          includeSerials: flags['include-serials'],
          mode: 'live',
          signal,
          planOptions,
          benchmark,
          ...progress,
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
  let view: ReportView | undefined;
  const viewOf = async () =>
    (view ??= (await views()).toReportView(envelope, { includeDestructive: flags.destructive }));
  if (flags.html !== undefined) {
    const { renderHtmlReport, loadChartRenderer } = await views();
    await writeUserFile(flags.html, renderHtmlReport(await viewOf(), await loadChartRenderer()), {
      what: 'HTML report',
    });
  }
  const plan = envelope.result?.plan ?? null;
  if (flags.json) {
    emitJson(envelope);
  } else if (flags.commands) {
    log(
      plan === null
        ? '# encplan could not make a plan; see the warnings of `encplan assess`.'
        : (await views()).renderCommandsScript(await viewOf()),
    );
  } else {
    const { renderTextReport, terminalTextOptions } = await views();
    log(renderTextReport(await viewOf(), terminalTextOptions(flags.verbose)));
  }
  if (plan !== null) {
    exitIfVerdictFails(plan.healthGate.effectiveVerdict, flags, 'health gate');
  }
}

/** `assess --all`: every whole disk, live or from a `collect --all` bundle; one document, a summary first. */
async function runAll(device: string | undefined, flags: AssessFlags): Promise<void> {
  if (device !== undefined || flags.benchmark === true || flags.commands) {
    // Benchmarking every disk would write scratch files to each in turn for many minutes, and one script
    // for every disk would be one long list of destructive steps: both are asked for one disk at a time.
    throw new EncplanError(
      'INVALID_ARGUMENT',
      '--all assesses every disk: give no device, and no --benchmark or --commands with it.',
      { hint: 'Run `encplan assess DEVICE` with those options for one disk.' },
    );
  }
  const planOptions = optionsFromFlags(flags);
  const envelope = await readDisks(flags.verbose, (environment, signal) =>
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
    const { renderMachineHtmlReport, loadChartRenderer } = await views();
    await writeUserFile(
      flags.html,
      renderMachineHtmlReport(envelope, await loadChartRenderer(), {
        includeDestructive: flags.destructive,
      }),
      { what: 'HTML report' },
    );
  }
  if (flags.json) {
    emitJson(envelope);
  } else {
    const { renderMachineTextReport, terminalTextOptions } = await views();
    log(
      renderMachineTextReport(envelope, {
        includeDestructive: flags.destructive,
        text: terminalTextOptions(flags.verbose),
      }),
    );
  }
  exitIfDiskFailed(envelope);
}
