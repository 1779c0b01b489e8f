import { EncplanError } from '../errors.js';
import { storageModelOf } from '../analyses/storage-model.js';
import { assessmentDocument, linuxResultOf, type AssessmentEnvelope } from '../contract/assessment.js';
import type { IoTestRef } from '../domain/io-benchmark.js';
import { ioTestSample, type AssessSample } from './assessment-jobs.js';
import type { DeviceSummary } from './device-list.js';
import type { PrivilegeStatus, UiServices } from './ui-services.js';
import { benchmarkFootprintIn } from '../report/benchmark-footprint-view.js';
import { scratchDirectoryOf } from '../plan/benchmark-footprint.js';

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

/** Where a saved assessment comes from: its file, the machine it was taken on (OS, CPU) and when. */
function savedFromOf(
  envelope: AssessmentEnvelope,
  file: string | null | undefined,
): NonNullable<DeviceSummary['savedFrom']> {
  const machine = envelope.result?.machine ?? null;
  const os = machine === null ? '' : [machine.os.distro, machine.os.release].filter(Boolean).join(' ');
  const words = machine === null ? [] : [os, machine.cpuModel].filter((part) => part !== null && part !== '');
  return {
    file: file ?? null,
    machine: words.length === 0 ? null : words.join(', '),
    collectedAt: envelope.result?.provenance.collectedAt ?? envelope.generatedAt,
  };
}

/** The measured I/O runs of a saved assessment, replayed as progress samples: "SEQ1M Q8T1 read · fscrypt". */
function benchmarkRunsOf(envelope: AssessmentEnvelope): (AssessSample & { readonly test: IoTestRef })[] {
  const io = envelope.result?.ioBenchmark ?? null;
  if (io === null) {
    return [];
  }
  return [io.plain, ...io.encrypted].flatMap((target) =>
    target.profiles.map((measurement) =>
      ioTestSample({
        profile: measurement.profile.label,
        direction: measurement.profile.direction,
        backend: target.backend,
        variant: target.variant,
        bytesPerSecond: measurement.summary.medianBytesPerSecond,
        minBytesPerSecond: measurement.summary.minBytesPerSecond,
        maxBytesPerSecond: measurement.summary.maxBytesPerSecond,
      }),
    ),
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
  options: {
    readonly stepDelayMs: number;
    readonly privilege: PrivilegeStatus;
    /** The documents' file names, in the same order, to name each drive's source. */
    readonly names?: readonly string[];
  },
): UiServices {
  // Only documents that match the assessment contract are served; the contract's schema is their only reader.
  const fileOf = new Map<AssessmentEnvelope, string | null>();
  const envelopes = documents.flatMap((document, index) => {
    const parsed = assessmentDocument.envelope.safeParse(document);
    if (!parsed.success) {
      return [];
    }
    fileOf.set(parsed.data, options.names?.[index] ?? null);
    return [parsed.data];
  });
  const described = (envelope: AssessmentEnvelope): DeviceSummary | null => {
    const summary = summaryOf(envelope);
    return summary === null ? null : { ...summary, savedFrom: savedFromOf(envelope, fileOf.get(envelope)) };
  };
  const byPath = new Map<string, AssessmentEnvelope>();
  for (const envelope of envelopes) {
    const summary = summaryOf(envelope);
    if (summary !== null) {
      byPath.set(summary.path, envelope);
    }
  }
  const targets = [...new Set(envelopes.flatMap(benchmarkRunsOf).map((run) => run.test.backend))];
  return {
    listDevices: () =>
      Promise.resolve({
        devices: envelopes.map(described).filter((summary): summary is DeviceSummary => summary !== null),
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
        const next = runs[index + 1];
        onProgress({
          phase: `Benchmark ${run.label}`,
          fraction: 0.05 + (0.95 * (index + 1)) / runs.length,
          sample: run,
          // The replay's own schedule: one step delay per run still to come.
          etaMs: (runs.length - index - 1) * options.stepDelayMs,
          ...(next === undefined ? {} : { test: next.test }),
        });
        await delay(options.stepDelayMs, signal);
      }
      return envelope;
    },
    benchmarkFootprint: (request) => {
      const result = byPath.get(request.device)?.result ?? null;
      const stack = result === null ? null : (linuxResultOf(result)?.stack ?? null);
      const mode = request.benchmark === 'full' ? 'full' : 'quick';
      // The folder the saved run wrote in (recorded with its I/O results), else the one it would choose.
      const directory = result?.ioBenchmark?.target ?? (stack === null ? null : scratchDirectoryOf(stack));
      const footprint = stack === null ? null : benchmarkFootprintIn(directory, mode, request.backends);
      return Promise.resolve(footprint === null ? null : { replay: true, ...footprint });
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
