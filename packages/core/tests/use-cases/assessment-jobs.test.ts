import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EncplanError,
  assessmentDocument,
  createAssessmentJobs,
  createSavedAssessmentServices,
  ioTestSample,
} from '@encplan/core';
import { linuxResultOf } from '../../src/contract/assessment.js';
import { errorEnvelope } from '../../src/contract/envelope.js';
import { type AssessFunction, type AssessProgress } from '../../src/use-cases/assessment-jobs.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';
import { VIRTIO_SYSTEM_DISK } from '../support/fixtures.js';

const errorToEnvelope = (error: unknown) =>
  errorEnvelope(
    { schema: 'encplan.assessment', schemaVersion: [1, 0], toolVersion: 'test', generatedAt: new Date(0) },
    error,
  );
let counter = 0;
const newId = () => `0000000${String((counter += 1))}`;
const request: { device: string; benchmark: 'none' | 'quick' | 'full'; backends: string[] } = {
  device: '/dev/sda',
  benchmark: 'quick',
  backends: [],
};

async function settled(jobs: ReturnType<typeof createAssessmentJobs>, jobId: string) {
  for (let i = 0; i < 100 && jobs.snapshot(jobId).state === 'running'; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return jobs.snapshot(jobId);
}

describe('createAssessmentJobs', () => {
  it('records progress reported synchronously at start, keeps samples and ends with the envelope', async () => {
    const assess: AssessFunction = (_request, { onProgress }) => {
      onProgress({ phase: 'first', fraction: 0.1, sample: null });
      onProgress({ phase: 'bench', fraction: 0.5, sample: { label: 'SEQ', bytesPerSecond: 100 } });
      return Promise.resolve({ status: 'ok' });
    };
    const jobs = createAssessmentJobs(assess, errorToEnvelope, newId);
    const snapshot = await settled(jobs, jobs.start(request));
    expect(snapshot).toMatchObject({
      state: 'done',
      envelope: { status: 'ok' },
      samples: [{ label: 'SEQ', bytesPerSecond: 100 }],
    });
    expect(snapshot.progress.fraction).toBe(1);
  });

  it('turns a use case that throws, even synchronously, into a failed job with an error envelope', async () => {
    const assess: AssessFunction = () => {
      throw new EncplanError('TOOL_NOT_FOUND', 'no lsblk');
    };
    const jobs = createAssessmentJobs(assess, errorToEnvelope, newId);
    const snapshot = await settled(jobs, jobs.start(request));
    expect(snapshot.state).toBe('failed');
    expect(snapshot.envelope).toMatchObject({ status: 'error', error: { code: 'TOOL_NOT_FOUND' } });
  });

  it('aborts the use case on cancel and resolves only after it has finished cleaning up', async () => {
    const events: string[] = [];
    const assess: AssessFunction = (_request, { signal, onProgress }) =>
      new Promise((_resolve, reject) => {
        onProgress({ phase: 'started', fraction: 0.1, sample: null });
        signal.addEventListener('abort', () => {
          setTimeout(() => {
            events.push('cleaned up');
            reject(new EncplanError('CANCELLED', 'cancelled'));
          }, 20);
        });
      });
    const jobs = createAssessmentJobs(assess, errorToEnvelope, newId);
    const jobId = jobs.start(request);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(jobs.snapshot(jobId).progress.phase).toBe('started');
    const snapshot = await jobs.cancel(jobId);
    events.push('cancel resolved');
    expect(events).toEqual(['cleaned up', 'cancel resolved']);
    expect(snapshot.state).toBe('cancelled');
  });

  it('never starts the use case when cancelled before it began', async () => {
    let called = false;
    const jobs = createAssessmentJobs(
      () => {
        called = true;
        return Promise.resolve(null);
      },
      errorToEnvelope,
      newId,
    );
    const snapshot = await jobs.cancel(jobs.start(request));
    expect(called).toBe(false);
    expect(snapshot).toMatchObject({ state: 'cancelled', envelope: { error: { code: 'CANCELLED' } } });
  });

  it('refuses a job id it does not know', () => {
    const jobs = createAssessmentJobs(() => Promise.resolve(null), errorToEnvelope, newId);
    expect(() => jobs.snapshot('ffffffff')).toThrow(/No assessment job/);
  });
});

describe('ioTestSample', () => {
  const test = { profile: 'RND4K Q1T1', direction: 'write', backend: 'fscrypt', variant: 'fscrypt' } as const;

  it("labels a finished I/O test for the live chart and keeps its runs' spread", () => {
    expect(
      ioTestSample({ ...test, bytesPerSecond: 300e6, minBytesPerSecond: 290e6, maxBytesPerSecond: 310e6 }),
    ).toEqual({
      label: 'RND4K Q1T1 write · fscrypt',
      bytesPerSecond: 300e6,
      minBytesPerSecond: 290e6,
      maxBytesPerSecond: 310e6,
      test,
    });
  });

  it('states no spread a runner did not report', () => {
    expect(ioTestSample({ ...test, bytesPerSecond: 300e6 })).toEqual({
      label: 'RND4K Q1T1 write · fscrypt',
      bytesPerSecond: 300e6,
      test,
    });
  });
});

describe('createSavedAssessmentServices', () => {
  /** A real benchmarked assessment (fixtures/assessments/PROVENANCE.md): plain and fscrypt, 8 profiles each. */
  const envelope: unknown = JSON.parse(
    readFileSync(
      path.join(REPO_ROOT, 'fixtures/assessments/virtio-system-disk-whole-ext4-debian12.json'),
      'utf8',
    ),
  );
  const privilege = { method: 'none', available: false, reason: 'no pkexec' } as const;

  it('lists the saved drives, skips documents that are not assessments, and replays the measured runs as progress', async () => {
    const services = createSavedAssessmentServices(
      [envelope, { status: 'error', result: null }, { result: { device: { path: '/dev/sdz' } } }],
      { stepDelayMs: 0, privilege, names: ['virtio.json', 'error.json', 'other.json'] },
    );
    // Each drive names where it comes from: its file, the machine it was taken on, and when.
    await expect(services.listDevices(new AbortController().signal)).resolves.toEqual({
      devices: [
        {
          ...VIRTIO_SYSTEM_DISK,
          savedFrom: {
            file: 'virtio.json',
            machine: 'Debian GNU/Linux 12, AMD EPYC',
            collectedAt: '2026-11-21T23:18:56.062Z',
          },
        },
      ],
    });
    const progress: AssessProgress[] = [];
    const result = await services.assess(
      { device: '/dev/vda', benchmark: 'quick', backends: [] },
      { signal: new AbortController().signal, onProgress: (event) => progress.push(event) },
    );
    expect(result).toEqual(envelope);
    const samples = progress.flatMap((event) => (event.sample === null ? [] : [event.sample]));
    expect(samples).toHaveLength(16);
    expect(samples[0]!.label).toBe('SEQ1M Q8T1 read · plain');
    expect(samples.at(-1)!.label).toMatch(/ · fscrypt$/);
    // Each replayed result carries the spread of its runs, as a live run's does (the live chart's page-cache rule).
    const saved = assessmentDocument.envelope.parse(envelope);
    const seq = linuxResultOf(saved.result!)!.ioBenchmark!.plain.profiles[0]!;
    expect(seq.profile).toMatchObject({ label: 'SEQ1M Q8T1', direction: 'read' });
    expect(samples[0]).toMatchObject({
      bytesPerSecond: seq.summary.medianBytesPerSecond,
      minBytesPerSecond: seq.summary.minBytesPerSecond,
      maxBytesPerSecond: seq.summary.maxBytesPerSecond,
    });
    // Each replayed result names its test for the results grid.
    expect(samples[0]!.test).toEqual({
      profile: 'SEQ1M Q8T1',
      direction: 'read',
      backend: 'plain',
      variant: 'plain',
    });
    // The saved run's folder, as a replay: nothing is written here.
    await expect(
      services.benchmarkFootprint({ device: '/dev/vda', benchmark: 'quick', backends: ['plain', 'fscrypt'] }),
    ).resolves.toMatchObject({ replay: true, directory: '/' });
    await expect(services.capabilities()).resolves.toEqual({
      backends: [
        { id: 'plain', label: 'Plain (no encryption)', available: true, reason: null },
        { id: 'fscrypt', label: 'fscrypt', available: true, reason: null },
      ],
      privilege,
    });
  });

  it('answers DEVICE_NOT_FOUND for a drive it has no assessment of, and CANCELLED when aborted', async () => {
    const services = createSavedAssessmentServices([envelope], { stepDelayMs: 1000, privilege });
    const context = { signal: new AbortController().signal, onProgress: () => undefined };
    await expect(
      services.assess({ device: '/dev/nope', benchmark: 'none', backends: [] }, context),
    ).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    const controller = new AbortController();
    const running = services.assess(
      { device: '/dev/vda', benchmark: 'quick', backends: [] },
      { signal: controller.signal, onProgress: () => undefined },
    );
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
