import type { Bundle } from '../capture/bundle.js';
import { createRecordingHost } from '../capture/recording-host.js';
import { createReplayHost } from '../capture/replay-host.js';
import type { AssessmentEnvelope, MachineAssessmentEnvelope } from '../contract/assessment.js';
import { EncplanError } from '../errors.js';
import { assessAll } from './assess-all.js';
import type { PlanOptions } from '../rules/plan-options.js';
import { assess, type AssessEnvironment, type AssessRequest, type BenchmarkRequest } from './assess.js';
import { CURRENT_QUICK_REVISION } from '../domain/benchmark-settings.js';
import { bundleOf } from './bundle-of.js';

/** What `encplan collect` was asked to record. */
export interface CollectRequest {
  readonly device: string | null;
  readonly includeSerials: boolean;
  readonly signal?: AbortSignal;
  /** Also run (and record) the cipher and I/O benchmarks, as `assess --benchmark [--quick]` does. */
  readonly benchmark?: BenchmarkRequest | null;
  readonly onProgress?: NonNullable<AssessRequest['onProgress']>;
  readonly onBenchmarkProgress?: NonNullable<AssessRequest['onBenchmarkProgress']>;
}

/** Runs `run` on a host that records every capture, then makes the bundle of `scope` that replays it. */
async function recorded<E>(
  environment: AssessEnvironment,
  run: (recording: AssessEnvironment, collectedAt: Date) => Promise<E>,
  scope: Parameters<typeof bundleOf>[2],
): Promise<{ envelope: E; bundle: Bundle }> {
  const host = createRecordingHost(environment.host);
  const collectedAt = environment.clock.now();
  const envelope = await run({ host, clock: environment.clock }, collectedAt);
  return { envelope, bundle: await bundleOf(host, collectedAt, scope) };
}

/**
 * Runs a live assessment while recording every capture, and returns it with the bundle that replays it.
 * Serial numbers and WWNs in the captures are replaced by their hashes unless `includeSerials`. With
 * `benchmark`, the benchmarks run over the recording host too: every process, file change and fact they use is
 * in the bundle (key contents and passwords never are), so `assess --bundle` replays them.
 */
export async function collect(
  environment: AssessEnvironment,
  request: CollectRequest,
): Promise<{ envelope: AssessmentEnvelope; bundle: Bundle }> {
  return recorded(
    environment,
    (recording, collectedAt) => assess(recording, { ...request, mode: 'live', collectedAt }),
    {
      device: request.device,
      serialsIncluded: request.includeSerials,
      benchmark:
        request.benchmark === undefined || request.benchmark === null
          ? null
          : {
              ...(request.benchmark.quick
                ? { quick: true, quickRevision: request.benchmark.quickRevision ?? CURRENT_QUICK_REVISION }
                : { quick: false }),
              ...(request.benchmark.scratchDirectory === undefined
                ? {}
                : { scratchDirectory: request.benchmark.scratchDirectory }),
            },
    },
  );
}

/** `encplan collect --all`: every whole disk of the machine, recorded in one bundle (`assess --all --bundle`). */
export async function collectAll(
  environment: AssessEnvironment,
  request: { readonly includeSerials: boolean; readonly signal?: AbortSignal },
): Promise<{ envelope: MachineAssessmentEnvelope; bundle: Bundle }> {
  return recorded(
    environment,
    (recording, collectedAt) => assessAll(recording, { ...request, mode: 'live', collectedAt }),
    { device: null, serialsIncluded: request.includeSerials, benchmark: null, all: true },
  );
}

/** Refuses a bundle of the other scope: a one-disk bundle holds no other disk, an --all bundle no one choice. */
function requireScope(bundle: Bundle, all: boolean): void {
  if ((bundle.all === true) !== all) {
    throw new EncplanError(
      'INVALID_ARGUMENT',
      all
        ? `This bundle holds one disk (${bundle.device ?? 'the disk of its working directory'}), not every disk of its machine.`
        : 'This bundle holds every disk of its machine (collect --all).',
      {
        hint: all
          ? 'Assess it with `encplan assess --bundle DIR` (without --all).'
          : 'Assess it with `encplan assess --all --bundle DIR`.',
      },
    );
  }
}

/** What a re-run from a bundle may add: cancellation and the plan's options. */
interface BundleRunOptions {
  signal?: AbortSignal;
  planOptions?: PlanOptions;
}

/** The environment of a re-run from a bundle of the right scope: its captures answer, nothing else. */
function replayEnvironment(bundle: Bundle, clock: AssessEnvironment['clock'], all: boolean) {
  requireScope(bundle, all);
  return { host: createReplayHost(bundle), clock };
}

/** The options every re-run from a bundle shares: the bundle's serial choice and collection time. */
function replayedRunOptions(bundle: Bundle, options: BundleRunOptions) {
  return {
    includeSerials: bundle.serialsIncluded,
    mode: 'bundle' as const,
    collectedAt: new Date(bundle.collectedAt),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.planOptions === undefined ? {} : { planOptions: options.planOptions }),
  };
}

/** Runs `assess --all` again from a `collect --all` bundle, touching nothing on this machine. */
export async function assessAllBundle(
  bundle: Bundle,
  clock: AssessEnvironment['clock'],
  options: BundleRunOptions = {},
): Promise<MachineAssessmentEnvelope> {
  return assessAll(replayEnvironment(bundle, clock, true), replayedRunOptions(bundle, options));
}

/** Runs the assessment again from a bundle, touching nothing on this machine. */
export async function assessBundle(
  bundle: Bundle,
  clock: AssessEnvironment['clock'],
  options: BundleRunOptions = {},
): Promise<AssessmentEnvelope> {
  return assess(replayEnvironment(bundle, clock, false), {
    device: bundle.device,
    ...replayedRunOptions(bundle, options),
    // A quick bundle from before issue 18 names no revision: it ran revision 1.
    benchmark:
      bundle.benchmark === undefined || bundle.benchmark === null
        ? null
        : {
            quick: bundle.benchmark.quick,
            quickRevision: bundle.benchmark.quickRevision ?? 1,
            ...(bundle.benchmark.scratchDirectory === undefined
              ? {}
              : { scratchDirectory: bundle.benchmark.scratchDirectory }),
          },
  });
}
