import { EncplanError } from '../errors.js';
import { isObject, type Json } from '../report/json-reading.js';
import type { AssessFunction } from './assessment-jobs.js';
import type { DeviceSummary, ListDevicesFunction } from './device-list.js';
import type { Capabilities, PrivilegeStatus } from './ui-services.js';


function deviceOf(envelope: unknown): Json | null {
  if (!isObject(envelope) || !isObject(envelope.result)) {
    return null;
  }
  // The contract names it `disk`; older provisional envelopes said `device`.
  const device = envelope.result.disk ?? envelope.result.device;
  return isObject(device) ? device : null;
}

function summaryOf(envelope: unknown): DeviceSummary | null {
  const device = deviceOf(envelope);
  if (device === null || typeof device.path !== 'string') {
    return null;
  }
  const result = (envelope as { result: Json }).result;
  const verdict = isObject(result.health) ? result.health.verdict : undefined;
  return {
    path: device.path,
    model: typeof device.model === 'string' ? device.model : null,
    sizeBytes: typeof device.sizeBytes === 'number' ? device.sizeBytes : 0,
    transport: (typeof device.transport === 'string' ? device.transport : 'unknown') as DeviceSummary['transport'],
    rotational: device.rotational === true,
    isSystemDisk: device.isSystemDisk === true,
    healthVerdict: verdict === 'healthy' || verdict === 'warning' || verdict === 'failing' ? verdict : 'unknown',
  };
}

function benchmarkRunsOf(envelope: unknown): Json[] {
  if (!isObject(envelope) || !isObject(envelope.result) || !Array.isArray(envelope.result.benchmarks)) {
    return [];
  }
  return envelope.result.benchmarks.filter(isObject);
}

/** Waits, or rejects with CANCELLED as soon as the signal aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new EncplanError('CANCELLED', 'Cancelled.'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new EncplanError('CANCELLED', 'Cancelled.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Serves saved assessment envelopes (`encplan assess --json` files) as wizard services: the drives they
 * describe, and "assessing" one replays its benchmark runs as progress, `stepDelayMs` apart, so the wizard
 * shows the live chart. Used by `encplan ui --assessment FILE` and the renderer's fake bridge.
 */
export function createSavedAssessmentServices(
  envelopes: readonly unknown[],
  options: { readonly stepDelayMs: number; readonly privilege: PrivilegeStatus },
): { listDevices: ListDevicesFunction; assess: AssessFunction; capabilities: () => Promise<Capabilities> } {
  const byPath = new Map<string, unknown>();
  for (const envelope of envelopes) {
    const summary = summaryOf(envelope);
    if (summary !== null) {
      byPath.set(summary.path, envelope);
    }
  }
  const targets = [...new Set(envelopes.flatMap(benchmarkRunsOf).map((run) => (typeof run.target === 'string' ? run.target : 'plain')))];
  return {
    listDevices: () =>
      Promise.resolve({
        devices: envelopes.map(summaryOf).filter((summary): summary is DeviceSummary => summary !== null),
      }),
    assess: async (request, { signal, onProgress }) => {
      const envelope = byPath.get(request.device);
      if (envelope === undefined) {
        throw new EncplanError('DEVICE_NOT_FOUND', `No saved assessment for ${request.device}.`, { hint: 'Pick a drive from the list.' });
      }
      onProgress({ phase: 'Reading the saved assessment', fraction: 0.05, sample: null });
      await delay(options.stepDelayMs, signal);
      const runs = request.benchmark === 'none' ? [] : benchmarkRunsOf(envelope);
      for (const [index, run] of runs.entries()) {
        const rate = typeof run.bytesPerSecond === 'number' ? run.bytesPerSecond : 0;
        const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
        const label = `${text(run.profile, 'run')} ${text(run.operation, '')} · ${text(run.target, 'plain')}`.replace(/\s+/g, ' ');
        onProgress({ phase: `Benchmark ${label}`, fraction: 0.05 + (0.95 * (index + 1)) / runs.length, sample: { label, bytesPerSecond: rate } });
        await delay(options.stepDelayMs, signal);
      }
      return envelope;
    },
    capabilities: () =>
      Promise.resolve({
        backends: targets.map((id) => ({ id, label: id === 'plain' ? 'Plain (no encryption)' : id, available: true, reason: null })),
        privilege: options.privilege,
      }),
  };
}
