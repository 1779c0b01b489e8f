import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAG_DEFINITIONS, wizardAssessRequestSchema, type JobSnapshot } from '@encplan/core';
import { createWizardBackend, type WizardBackend } from '../../src/backend/wizard-services.js';

// The wizard's scratch folder is the one `--scratch` definition (issue 25 item 4): the same pattern in the
// request, the same host check (exists, a folder, writable) before anything runs, the same accepted form.

let folder: string;
let backend: WizardBackend;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'encplan-test-wizard-scratch-'));
  await writeFile(path.join(folder, 'a-file'), '');
  // Live mode over an empty PATH: no tool runs; the refusal comes before any would.
  backend = await createWizardBackend({ assessmentFiles: [], searchPath: '', userId: null });
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function finished(jobId: string): Promise<JobSnapshot> {
  for (;;) {
    const snapshot = backend.jobs.snapshot(jobId);
    if (snapshot.state !== 'running') {
      return snapshot;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the wizard's scratch folder", () => {
  it('takes its pattern from the --scratch definition (a control character is refused)', () => {
    const request = { device: '/dev/sda', benchmark: 'quick', backends: ['plain'] };
    expect(wizardAssessRequestSchema.safeParse({ ...request, scratchDirectory: '/var/tmp' }).success).toBe(
      true,
    );
    const bad = wizardAssessRequestSchema.safeParse({ ...request, scratchDirectory: '/tmp/a\nb' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(FLAG_DEFINITIONS.scratch.accepted);
  });

  it.each([
    ['does not exist', 'missing', 'it does not exist'],
    ['is a file', 'a-file', 'it is not a folder'],
  ])('refuses a folder that %s before anything runs, with the accepted form', async (_, name, why) => {
    const jobId = backend.jobs.start({
      device: '/dev/encplan-no-such-disk',
      benchmark: 'quick',
      backends: ['plain'],
      scratchDirectory: path.join(folder, name),
    });
    const snapshot = await finished(jobId);
    expect(snapshot.envelope).toMatchObject({
      status: 'error',
      error: {
        code: 'INVALID_ARGUMENT',
        message: `--scratch ${JSON.stringify(path.join(folder, name))} is not accepted: ${why}.`,
        hint: `Accepted: ${FLAG_DEFINITIONS.scratch.accepted}.`,
      },
    });
  });
});
