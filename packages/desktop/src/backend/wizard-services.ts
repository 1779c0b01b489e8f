import { randomUUID } from 'node:crypto';
import {
  EncplanError,
  assess,
  createAssessmentJobs,
  createSavedAssessmentServices,
  assessmentDocument,
  listDisks,
  probeBenchmarkBackends,
  benchmarkIdsOn,
  type AssessRequest,
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

/** How far along a live assessment is after its n-th progress step (assess reports steps, not fractions). */
function fractionAfter(steps: number): number {
  return Math.min(0.9, 0.1 + 0.2 * steps);
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
  return {
    listDevices: (signal) => listDisks(environment.host, signal),
    assess: async (request, { signal, onProgress }) => {
      const benchmark = await benchmarkOf(request);
      onProgress({
        phase: 'Reading the drive, its partitions, the stack above it and the machine',
        fraction: 0.05,
        sample: null,
      });
      let steps = 0;
      return assess(environment, {
        device: request.device,
        includeSerials: false,
        mode: 'live',
        signal,
        benchmark,
        onProgress: (step) => {
          steps += 1;
          onProgress({ phase: step, fraction: fractionAfter(steps), sample: null });
        },
      });
    },
    capabilities: async () => ({
      backends: await probeBenchmarkBackends(environment.host),
      privilege,
    }),
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
      })
    : liveServices(createEnvironment({ searchPath: options.searchPath }), privilege);
  const jobs = createAssessmentJobs(services.assess, (error) => assessmentDocument.error(error), randomUUID);
  return { services, jobs, mode: saved ? 'saved' : 'live' };
}
