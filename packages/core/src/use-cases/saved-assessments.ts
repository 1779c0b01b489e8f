import { EncplanError } from '../errors.js';
import { storageModelOf } from '../analyses/storage-model.js';
import { assessmentDocument, linuxResultOf, type AssessmentEnvelope } from '../contract/assessment.js';
import type { AssessFunction } from './assessment-jobs.js';
import type { DeviceSummary, ListDevicesFunction } from './device-list.js';
import type { Capabilities, PrivilegeStatus } from './ui-services.js';

function summaryOf(envelope: AssessmentEnvelope): DeviceSummary | null {
  const result = envelope.result;
  if (result === null) {
    return null;
  }
  const linux = linuxResultOf(result);
  if (linux === null) {
    // A macOS or Windows assessment names its disk in the storage model.
    const storage = storageModelOf(result);
    return storage === null
      ? null
      : {
          path: storage.disk.id,
          model: storage.disk.model,
          sizeBytes: storage.disk.sizeBytes ?? 0,
          transport: 'unknown',
          rotational: storage.disk.medium === 'hdd',
          isSystemDisk: storage.volumes.some((volume) => (volume.roles ?? []).includes('System')),
          healthVerdict: storage.disk.health?.verdict ?? 'unknown',
        };
  }
  const { disk, health } = linux;
  return {
    path: disk.path,
    model: disk.model,
    sizeBytes: disk.sizeBytes,
    transport: disk.transport,
    rotational: disk.rotational === true,
    isSystemDisk: disk.isSystemDisk,
    healthVerdict: health.verdict,
  };
}

/** The measured I/O runs of a saved assessment, replayed as progress samples: "SEQ1M Q8T1 read · fscrypt". */
function benchmarkRunsOf(
  envelope: AssessmentEnvelope,
): { readonly label: string; readonly target: string; readonly bytesPerSecond: number }[] {
  const io = envelope.result?.ioBenchmark ?? null;
  if (io === null) {
    return [];
  }
  return [io.plain, ...io.encrypted].flatMap((target) =>
    target.profiles.map((measurement) => ({
      label: `${measurement.profile.label} ${measurement.profile.direction} · ${target.variant}`,
      target: target.backend,
      bytesPerSecond: measurement.summary.medianBytesPerSecond,
    })),
  );
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
  documents: readonly unknown[],
  options: { readonly stepDelayMs: number; readonly privilege: PrivilegeStatus },
): { listDevices: ListDevicesFunction; assess: AssessFunction; capabilities: () => Promise<Capabilities> } {
  // Only documents that match the assessment contract are served; the contract's schema is their only reader.
  const envelopes = documents.flatMap((document) => {
    const parsed = assessmentDocument.envelope.safeParse(document);
    return parsed.success ? [parsed.data] : [];
  });
  const byPath = new Map<string, AssessmentEnvelope>();
  for (const envelope of envelopes) {
    const summary = summaryOf(envelope);
    if (summary !== null) {
      byPath.set(summary.path, envelope);
    }
  }
  const targets = [...new Set(envelopes.flatMap(benchmarkRunsOf).map((run) => run.target))];
  return {
    listDevices: () =>
      Promise.resolve({
        devices: envelopes.map(summaryOf).filter((summary): summary is DeviceSummary => summary !== null),
      }),
    assess: async (request, { signal, onProgress }) => {
      const envelope = byPath.get(request.device);
      if (envelope === undefined) {
        throw new EncplanError('DEVICE_NOT_FOUND', `No saved assessment for ${request.device}.`, {
          hint: 'Pick a drive from the list.',
        });
      }
      onProgress({ phase: 'Reading the saved assessment', fraction: 0.05, sample: null });
      await delay(options.stepDelayMs, signal);
      const runs = request.benchmark === 'none' ? [] : benchmarkRunsOf(envelope);
      for (const [index, run] of runs.entries()) {
        onProgress({
          phase: `Benchmark ${run.label}`,
          fraction: 0.05 + (0.95 * (index + 1)) / runs.length,
          sample: { label: run.label, bytesPerSecond: run.bytesPerSecond },
        });
        await delay(options.stepDelayMs, signal);
      }
      return envelope;
    },
    capabilities: () =>
      Promise.resolve({
        backends: targets.map((id) => ({
          id,
          label: id === 'plain' ? 'Plain (no encryption)' : id,
          available: true,
          reason: null,
        })),
        privilege: options.privilege,
      }),
  };
}
