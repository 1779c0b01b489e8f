import { BUNDLE_SCHEMA, BUNDLE_SCHEMA_VERSION, redactCaptures, type Bundle } from '../capture/bundle.js';
import type { Capture } from '../capture/capture.js';
import { createRecordingHost } from '../capture/recording-host.js';
import { createReplayHost } from '../capture/replay-host.js';
import type { AssessmentEnvelope } from '../contract/assessment.js';
import { protectIdentifier } from '../domain/identifier.js';
import { parseLsblkJson, type LsblkDevice } from '../parsers/lsblk/parse-lsblk-json.js';
import { TOOL_VERSION } from '../version.js';
import type { PlanOptions } from '../rules/plan-options.js';
import { assess, type AssessEnvironment, type AssessRequest } from './assess.js';
import { serialsIn } from './collect-platform.js';

function identifiersIn(captures: readonly Capture[]): string[] {
  const found: string[] = [];
  const walk = (device: LsblkDevice): void => {
    for (const value of [device.serial, device.wwn]) {
      if (value !== null) {
        found.push(value);
      }
    }
    device.children.forEach(walk);
  };
  for (const capture of captures) {
    if (capture.kind === 'command' && capture.tool === 'lsblk' && capture.output?.exitCode === 0) {
      try {
        parseLsblkJson(capture.output.stdout).forEach(walk);
      } catch {
        // An lsblk output that does not parse carries nothing we could redact reliably; assess warned.
      }
    }
  }
  return found;
}

/** What `encplan collect` was asked to record. */
export interface CollectRequest {
  readonly device: string | null;
  readonly includeSerials: boolean;
  readonly signal?: AbortSignal;
  /** Also run (and record) the cipher and I/O benchmarks, as `assess --benchmark [--quick]` does. */
  readonly benchmark?: { readonly quick: boolean } | null;
  readonly onProgress?: NonNullable<AssessRequest['onProgress']>;
  readonly onBenchmarkProgress?: NonNullable<AssessRequest['onBenchmarkProgress']>;
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
  const host = createRecordingHost(environment.host);
  const collectedAt = environment.clock.now();
  const envelope = await assess(
    { host, clock: environment.clock },
    { ...request, mode: 'live', collectedAt },
  );
  const captures = host.captures();
  const replacements = new Map<string, string>();
  if (!request.includeSerials) {
    // lsblk's serials and WWNs on Linux; system_profiler's, PowerShell's and smartctl's on macOS and Windows.
    for (const raw of [...identifiersIn(captures), ...serialsIn(captures)]) {
      replacements.set(raw, (await protectIdentifier(raw, false)) ?? raw);
    }
  }
  return {
    envelope,
    bundle: {
      schema: BUNDLE_SCHEMA,
      schemaVersion: [...BUNDLE_SCHEMA_VERSION],
      toolVersion: TOOL_VERSION,
      collectedAt: collectedAt.toISOString(),
      platform: host.platform,
      cwd: host.cwd,
      privileged: host.privileged,
      device: request.device,
      serialsIncluded: request.includeSerials,
      benchmark: request.benchmark ?? null,
      captures: redactCaptures(captures, replacements),
    },
  };
}

/** Runs the assessment again from a bundle, touching nothing on this machine. */
export function assessBundle(
  bundle: Bundle,
  clock: AssessEnvironment['clock'],
  options: { signal?: AbortSignal; planOptions?: PlanOptions } = {},
): Promise<AssessmentEnvelope> {
  const host = createReplayHost({
    platform: bundle.platform,
    cwd: bundle.cwd,
    privileged: bundle.privileged,
    captures: bundle.captures,
  });
  return assess(
    { host, clock },
    {
      device: bundle.device,
      includeSerials: bundle.serialsIncluded,
      mode: 'bundle',
      collectedAt: new Date(bundle.collectedAt),
      benchmark: bundle.benchmark ?? null,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.planOptions === undefined ? {} : { planOptions: options.planOptions }),
    },
  );
}
