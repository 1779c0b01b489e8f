import { BUNDLE_SCHEMA, BUNDLE_SCHEMA_VERSION, redactCaptures, type Bundle } from '../capture/bundle.js';
import type { Capture } from '../capture/capture.js';
import { createRecordingHost } from '../capture/recording-host.js';
import { createReplayHost } from '../capture/replay-host.js';
import type { AssessmentEnvelope } from '../contract/assessment.js';
import { protectIdentifier } from '../domain/identifier.js';
import { parseLsblkJson, type LsblkDevice } from '../parsers/lsblk/parse-lsblk-json.js';
import { TOOL_VERSION } from '../version.js';
import type { PlanOptions } from '../rules/plan-options.js';
import { assess, type AssessEnvironment } from './assess.js';

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

/**
 * Runs a live assessment while recording every capture, and returns it with the bundle that replays it.
 * Serial numbers and WWNs in the captures are replaced by their hashes unless `includeSerials`.
 */
export async function collect(
  environment: AssessEnvironment,
  request: { device: string | null; includeSerials: boolean; signal?: AbortSignal },
): Promise<{ envelope: AssessmentEnvelope; bundle: Bundle }> {
  const host = createRecordingHost(environment.host);
  const collectedAt = environment.clock.now();
  const envelope = await assess({ host, clock: environment.clock }, { ...request, mode: 'live', collectedAt });
  const captures = host.captures();
  const replacements = new Map<string, string>();
  if (!request.includeSerials) {
    for (const raw of identifiersIn(captures)) {
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
  const host = createReplayHost({ platform: bundle.platform, cwd: bundle.cwd, privileged: bundle.privileged, captures: bundle.captures });
  return assess(
    { host, clock },
    {
      device: bundle.device,
      includeSerials: bundle.serialsIncluded,
      mode: 'bundle',
      collectedAt: new Date(bundle.collectedAt),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.planOptions === undefined ? {} : { planOptions: options.planOptions }),
    },
  );
}
