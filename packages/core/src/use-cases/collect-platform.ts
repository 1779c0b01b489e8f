import type { Bundle } from '../capture/bundle.js';
import { createRecordingHost } from '../capture/recording-host.js';
import { createReplayHost } from '../capture/replay-host.js';
import type { StorageModel } from '../domain/storage-model.js';
import { EncplanError } from '../errors.js';
import type { Clock, Host } from '../ports.js';
import { probeDarwinStorage } from '../probes/darwin/probe-darwin-storage.js';
import { createProbeContext } from '../probes/probe-context.js';
import { probeWindowsStorage } from '../probes/windows/probe-windows-storage.js';
import type { Warning } from '../domain/warning.js';
import { bundleOf } from './bundle-of.js';

/** Runs the platform's probe set for one disk (macOS: diskN; Windows: the disk number). */
export async function probePlatformStorage(
  host: Host,
  device: string,
  signal?: AbortSignal,
): Promise<{ storage: StorageModel; warnings: readonly Warning[] }> {
  const context = createProbeContext(host, signal);
  if (host.platform === 'darwin') {
    return { storage: await probeDarwinStorage(context, device), warnings: context.warnings };
  }
  if (host.platform === 'win32') {
    return { storage: await probeWindowsStorage(context, device), warnings: context.warnings };
  }
  throw new EncplanError(
    'DEVICE_UNSUPPORTED',
    `The macOS/Windows probe set does not run on ${host.platform}.`,
  );
}

/**
 * `encplan collect` on macOS and Windows: runs the platform probe set (no root-only Linux tool assumed —
 * the probe set decides what to run) while recording, and returns its facts with the bundle that replays
 * them. Serial numbers are replaced by their hashes unless `includeSerials`.
 */
export async function collectPlatform(
  environment: { readonly host: Host; readonly clock: Clock },
  request: { readonly device: string; readonly includeSerials: boolean; readonly signal?: AbortSignal },
): Promise<{ storage: StorageModel; warnings: readonly Warning[]; bundle: Bundle }> {
  const host = createRecordingHost(environment.host);
  const collectedAt = environment.clock.now();
  const { storage, warnings } = await probePlatformStorage(host, request.device, request.signal);
  const bundle = await bundleOf(host, collectedAt, {
    device: request.device,
    serialsIncluded: request.includeSerials,
    benchmark: null,
  });
  return { storage, warnings, bundle };
}

/** Replays a macOS or Windows bundle through the same probe set, touching nothing on this machine. */
export function replayPlatformBundle(
  bundle: Bundle,
): Promise<{ storage: StorageModel; warnings: readonly Warning[] }> {
  if (bundle.device === null) {
    throw new EncplanError('BUNDLE_INVALID', 'A macOS or Windows bundle names its disk.');
  }
  return probePlatformStorage(createReplayHost(bundle), bundle.device);
}
