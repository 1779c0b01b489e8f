import { randomUUID } from 'node:crypto';
import {
  EncplanError,
  assess,
  createAssessmentJobs,
  createSavedAssessmentServices,
  assessmentDocument,
  listDisks,
  type AssessmentJobs,
  type PrivilegeStatus,
  type UiServices,
} from '@encplan/core';
import {
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

/** Why no I/O backend is offered live: plain vs encrypted I/O is not part of `encplan assess` yet (issue 4). */
const NO_LIVE_IO_BENCHMARKS = 'Plain versus encrypted I/O is not part of this encplan version yet.';

/** How far along a live assessment is after its n-th progress step (assess reports steps, not fractions). */
function fractionAfter(steps: number): number {
  return Math.min(0.9, 0.1 + 0.2 * steps);
}

/** The live services: the same `assess` use case and environment as `encplan assess`. */
function liveServices(environment: NodeEnvironment, privilege: PrivilegeStatus): UiServices {
  return {
    listDevices: (signal) => listDisks(environment.host, signal),
    assess: (request, { signal, onProgress }) => {
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
        benchmark:
          request.benchmark === 'none' || !request.backends.includes('ciphers')
            ? null
            : { quick: request.benchmark === 'quick' },
        onProgress: (step) => {
          steps += 1;
          onProgress({ phase: step, fraction: fractionAfter(steps), sample: null });
        },
      });
    },
    capabilities: () =>
      Promise.resolve({
        backends: [
          {
            id: 'ciphers',
            label: 'Cipher and key-derivation speed (memory only, no disk I/O)',
            available: true,
            reason: null,
          },
          {
            id: 'plain',
            label: 'Plain I/O (no encryption)',
            available: false,
            reason: NO_LIVE_IO_BENCHMARKS,
          },
          { id: 'luks2', label: 'LUKS2 (dm-crypt) I/O', available: false, reason: NO_LIVE_IO_BENCHMARKS },
        ],
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
