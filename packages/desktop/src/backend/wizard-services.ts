import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  EncplanError,
  TOOL_VERSION,
  createAssessmentJobs,
  createSavedAssessmentServices,
  errorEnvelope,
  type AssessmentJobs,
  type UiServices,
} from '@encplan/core';
import { createRunner, detectPrivilege } from '@encplan/core/node';

/** How the wizard's back end is put together. */
export interface WizardServicesOptions {
  /** Saved `encplan assess --json` files to serve; live assessment is wired by the lead (issue 2). */
  readonly assessmentFiles: readonly string[];
  /** The PATH to look tools up in (pkexec). */
  readonly searchPath: string;
  /** The effective user id (null where the platform has none). */
  readonly userId: number | null;
  /** Pause between replayed benchmark steps, so the live chart is visible. */
  readonly stepDelayMs?: number;
}

/** The services and the job registry both wizard shells (Electron main and `encplan ui`) run on. */
export interface WizardBackend {
  readonly services: UiServices;
  readonly jobs: AssessmentJobs;
}

/**
 * The composition root of the wizard's back end, shared by Electron main and `encplan ui` so both run the
 * same use cases. Today it serves saved assessments; the live `assess` use case plugs in here.
 */
export async function createWizardBackend(options: WizardServicesOptions): Promise<WizardBackend> {
  if (options.assessmentFiles.length === 0) {
    throw new EncplanError('INVALID_ARGUMENT', 'No assessment to show.', {
      hint: 'Pass a saved assessment: encplan assess /dev/X --json > a.json, then --assessment a.json.',
    });
  }
  const envelopes = await Promise.all(
    options.assessmentFiles.map(async (file) => {
      try {
        return JSON.parse(await readFile(file, 'utf8')) as unknown;
      } catch (error) {
        throw new EncplanError('INVALID_ARGUMENT', `Cannot read the assessment ${file}.`, { hint: 'Pass a file written by encplan assess --json.', cause: error });
      }
    }),
  );
  const runner = createRunner({ searchPath: options.searchPath });
  const privilege = await detectPrivilege(runner, options.userId);
  const services = createSavedAssessmentServices(envelopes, { stepDelayMs: options.stepDelayMs ?? 250, privilege });
  const jobs = createAssessmentJobs(
    services.assess,
    (error) => errorEnvelope({ schema: 'encplan.assessment', schemaVersion: [1, 0], toolVersion: TOOL_VERSION, generatedAt: new Date() }, error),
    randomUUID,
  );
  return { services, jobs };
}
