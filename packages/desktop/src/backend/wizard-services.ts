import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import {
  EncplanError,
  assess,
  benchmarkFootprintIn,
  chooseScratchDirectory,
  createAssessmentJobs,
  createSavedAssessmentServices,
  ioTestSample,
  assessmentDocument,
  listDisks,
  probeBenchmarkBackends,
  benchmarkIdsOn,
  type AssessProgress,
  type AssessRequest,
  type ProgressEvent,
  type StackNode,
  type AssessmentJobs,
  type BackendId,
  type WizardAssessRequest,
  type PrivilegeStatus,
  type UiServices,
} from '@encplan/core';
import {
  checkScratchDirectory,
  createEnvironment,
  createRunner,
  detectPrivilege,
  MAX_BUNDLE_BYTES,
  readUserFile,
  type NodeEnvironment,
} from '@encplan/core/node';

/** How the wizard's back end is put together. */
export interface WizardServicesOptions {
  /** Saved `encplan assess --json` files to show instead of assessing this machine (empty = live). */
  readonly assessmentFiles: readonly string[];
  /** The PATH to look tools up in. */
  readonly searchPath: string;
  /** The effective user id (null where the platform has none). */
  readonly userId: number | null;
  /** Pause between replayed benchmark steps of saved assessments, so the live chart is visible. */
  readonly stepDelayMs?: number;
}

/** The services and the job registry both wizard shells (Electron main and `encplan ui`) run on. */
export interface WizardBackend {
  readonly services: UiServices;
  readonly jobs: AssessmentJobs;
  readonly mode: 'live' | 'saved';
}

/** How far along a facts-only assessment is after its n-th progress step (assess reports steps, not fractions). */
function fractionAfter(steps: number): number {
  return Math.min(0.9, 0.1 + 0.2 * steps);
}

/** The share of a benchmarking job's bar the facts take before the benchmark's own schedule starts. */
const FACTS_SHARE = 0.05;

/**
 * A benchmark step in words for the wizard (the core's messages name tools and variants, e.g.
 * "openssl speed …", "Preparing luks2-…"); a running I/O test is named by its `test` (the renderer words it).
 */
export function benchmarkStepInWords(event: ProgressEvent): string {
  const { message } = event;
  if (event.phase === 'done') {
    return 'Done';
  }
  if (/pbkdf|argon2/i.test(message)) {
    return 'Key-derivation speed, in memory';
  }
  if (/^(openssl speed|cryptsetup benchmark)/.test(message)) {
    return 'Cipher speed, in memory';
  }
  if (message === 'Preparing the plain filesystem' || message === 'Removing the scratch filesystem') {
    return message;
  }
  if (event.phase === 'prepare') {
    return 'Preparing an encrypted test container';
  }
  if (event.phase === 'teardown') {
    return 'Removing the encrypted test container';
  }
  return 'Measuring';
}

/** The encrypted I/O backends the wizard's Linux benchmark offers (the registry's, targets/registry.ts). */
const ENCRYPTED_IO_BACKENDS: readonly BackendId[] = benchmarkIdsOn('linux');

/**
 * The assess benchmark for the wizard's choices: ciphers always come with a benchmark (the I/O bound needs
 * them); I/O runs when plain or an encrypted backend is chosen, with exactly the encrypted ones chosen.
 */
async function benchmarkOf(
  request: WizardAssessRequest,
): Promise<NonNullable<AssessRequest['benchmark']> | null> {
  if (request.benchmark === 'none' || request.backends.length === 0) {
    return null;
  }
  const encrypted = ENCRYPTED_IO_BACKENDS.filter((backend) => request.backends.includes(backend));
  const io: BackendId[] =
    encrypted.length > 0 || request.backends.includes('plain') ? ['plain', ...encrypted] : [];
  // The folder is checked as `assess --scratch` checks it (exists, a folder, writable) before anything runs.
  const scratch = request.scratchDirectory;
  return {
    quick: request.benchmark === 'quick',
    io,
    ...(scratch === undefined ? {} : { scratchDirectory: await checkScratchDirectory(scratch) }),
  };
}

/** The live services: the same `assess` use case and environment as `encplan assess`. */
function liveServices(environment: NodeEnvironment, privilege: PrivilegeStatus): UiServices {
  // The stack of each drive read so far, so the footprint names the folder the run will choose.
  const stacks = new Map<string, StackNode>();
  return {
    listDevices: (signal) => listDisks(environment.host, signal),
    assess: async (request, { signal, onProgress }) => {
      // The bar only moves forward: facts steps, then the benchmark's own schedule (fraction and ETA).
      let fraction = 0;
      const forward = (progress: AssessProgress): void => {
        fraction = Math.max(fraction, progress.fraction);
        onProgress({ ...progress, fraction });
      };
      const benchmark = await benchmarkOf(request);
      forward({
        phase: 'Reading the drive, its partitions, the stack above it and the machine',
        fraction: benchmark === null ? 0.05 : 0,
        sample: null,
      });
      let steps = 0;
      const envelope = await assess(environment, {
        device: request.device,
        includeSerials: false,
        mode: 'live',
        signal,
        benchmark,
        onProgress: (step) => {
          steps += 1;
          forward({
            phase: step,
            fraction: benchmark === null ? fractionAfter(steps) : Math.min(FACTS_SHARE, 0.01 * steps),
            sample: null,
          });
        },
        onBenchmarkProgress: (event) => {
          const result = event.result;
          forward({
            phase: benchmarkStepInWords(event),
            fraction: FACTS_SHARE + (1 - FACTS_SHARE) * event.fraction,
            etaMs: event.etaMs,
            sample: result === undefined ? null : ioTestSample(result),
            ...(event.test === undefined ? {} : { test: event.test }),
          });
        },
      });
      const stack = envelope.result?.stack ?? null;
      if (stack !== null) {
        stacks.set(request.device, stack);
      }
      return envelope;
    },
    capabilities: async () => ({
      backends: await probeBenchmarkBackends(environment.host),
      privilege,
    }),
    benchmarkFootprint: async (request) => {
      const stack = stacks.get(request.device);
      if (stack === undefined) {
        return null;
      }
      const mode = request.benchmark === 'full' ? 'full' : 'quick';
      // The same choice as the run: the disk's largest mounted filesystem at its own root mount.
      const directory = await chooseScratchDirectory(environment.host, stack, { quick: mode === 'quick' });
      const footprint = benchmarkFootprintIn(directory, mode, request.backends);
      return footprint === null ? null : { replay: false, ...footprint };
    },
  };
}

async function readAssessments(files: readonly string[]): Promise<unknown[]> {
  return Promise.all(
    files.map(async (file) => {
      const hint = 'Pass a file written by encplan assess --json.';
      const text = await readUserFile(file, { what: 'assessment', maxBytes: MAX_BUNDLE_BYTES, hint });
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new EncplanError('INVALID_ARGUMENT', `The assessment ${file} is not JSON.`, {
          hint,
          cause: error,
        });
      }
    }),
  );
}

/**
 * The composition root of the wizard's back end, shared by Electron main and `encplan ui` so both run the
 * same use cases as the CLI: live (`assess` on this machine) or over saved assessment files.
 */
export async function createWizardBackend(options: WizardServicesOptions): Promise<WizardBackend> {
  const privilege = await detectPrivilege(createRunner({ searchPath: options.searchPath }), options.userId);
  const saved = options.assessmentFiles.length > 0;
  const services = saved
    ? createSavedAssessmentServices(await readAssessments(options.assessmentFiles), {
        stepDelayMs: options.stepDelayMs ?? 250,
        privilege,
        names: options.assessmentFiles.map((file) => basename(file)),
      })
    : liveServices(createEnvironment({ searchPath: options.searchPath }), privilege);
  const jobs = createAssessmentJobs(services.assess, (error) => assessmentDocument.error(error), randomUUID);
  return { services, jobs, mode: saved ? 'saved' : 'live' };
}
