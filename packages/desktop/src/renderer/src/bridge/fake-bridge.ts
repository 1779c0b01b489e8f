import { assessmentDocument, createAssessmentJobs, createSavedAssessmentServices } from '@encplan/core';
import { createBridgeHandlers } from '../../../backend/bridge-handlers.js';
import type { EncplanBridge } from '../../../shared/bridge.js';

/** The assessments the fake bridge serves: the real ones in fixtures/assessments (PROVENANCE.md there). */
const fixtures = import.meta.glob<unknown>('../../../../../../fixtures/assessments/*.json', {
  eager: true,
  import: 'default',
});

/**
 * A bridge for development and Playwright: the real handler table and job registry over saved fixture
 * assessments, with realistic delays. Only in builds made with VITE_BRIDGE=fake.
 */
export function createFakeBridge(stepDelayMs = 120): EncplanBridge {
  const services = createSavedAssessmentServices(Object.values(fixtures), {
    stepDelayMs,
    names: Object.keys(fixtures).map((file) => file.split('/').at(-1) ?? file),
    privilege: {
      method: 'none',
      available: false,
      reason: 'This is the fake bridge: nothing runs as administrator.',
    },
  });
  const jobs = createAssessmentJobs(
    services.assess,
    (error) => assessmentDocument.error(error),
    () => crypto.randomUUID(),
  );
  const handlers = createBridgeHandlers(services, jobs);
  return {
    listDevices: () => handlers.listDevices(undefined),
    capabilities: () => handlers.capabilities(undefined),
    benchmarkFootprint: (request) => handlers.benchmarkFootprint(request),
    startAssessment: (request) => handlers.startAssessment(request),
    jobStatus: (jobId) => handlers.jobStatus(jobId),
    cancel: (jobId) => handlers.cancel(jobId),
  };
}
