import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/domain/io-benchmark.js';
import { PhaseSchedule, type PlannedPhase } from '../../src/probes/phase-schedule.js';

/** A clock the test moves by hand, and a phase body that "takes" a given time on it. */
function fakeClock() {
  let now = 0;
  return {
    now: () => now,
    takes: (ms: number) => async () => {
      await Promise.resolve();
      now += ms;
    },
  };
}

const PLAN: PlannedPhase[] = [
  { id: 'cipher:openssl', resource: 'cpu', expectedMs: 1000 },
  { id: 'kdf:argon2id', resource: 'cpu', expectedMs: 3000 },
  { id: 'io:plain:seq', resource: 'disk', expectedMs: 2000 },
  { id: 'io:fscrypt:seq', resource: 'disk', expectedMs: 2000 },
];

/** A schedule of PLAN on a fake clock, and `run(id, ms)`: run one of its phases, taking `ms` on that clock. */
function scheduleOnFakeClock() {
  const clock = fakeClock();
  const schedule = new PhaseSchedule(PLAN, undefined, clock.now);
  return { schedule, run: (id: string, ms: number) => schedule.run(id, id, clock.takes(ms)) };
}

describe('PhaseSchedule', () => {
  it('runs phases one at a time even when they are started together', async () => {
    const clock = fakeClock();
    const spans: { id: string; start: number; end: number }[] = [];
    const schedule = new PhaseSchedule(PLAN, undefined, clock.now);
    const body = (id: string, ms: number) => async () => {
      const start = clock.now();
      await clock.takes(ms)();
      // Another phase would have moved the clock if it had run in between.
      await new Promise((resolve) => setTimeout(resolve, 5));
      spans.push({ id, start, end: clock.now() });
    };
    await Promise.all([
      schedule.run('cipher:openssl', 'openssl', body('cipher:openssl', 1000)),
      schedule.run('io:plain:seq', 'fio plain', body('io:plain:seq', 2000)),
      schedule.run('io:fscrypt:seq', 'fio fscrypt', body('io:fscrypt:seq', 2000)),
    ]);
    expect(spans.map((span) => span.id)).toEqual(['cipher:openssl', 'io:plain:seq', 'io:fscrypt:seq']);
    for (let index = 1; index < spans.length; index += 1) {
      expect(spans[index]!.start).toBeGreaterThanOrEqual(spans[index - 1]!.end);
    }
  });

  it('a failed phase does not stop the next from running alone', async () => {
    const clock = fakeClock();
    const schedule = new PhaseSchedule(PLAN, undefined, clock.now);
    const failed = schedule.run('cipher:openssl', 'openssl', () => Promise.reject(new Error('boom')));
    const next = schedule.run('kdf:argon2id', 'argon2id', clock.takes(3000));
    await expect(failed).rejects.toThrow('boom');
    await next;
    expect(schedule.timings().map((phase) => [phase.id, phase.measuredMs])).toEqual([
      ['cipher:openssl', 0],
      ['kdf:argon2id', 3000],
      ['io:plain:seq', null],
      ['io:fscrypt:seq', null],
    ]);
  });

  it('estimates the remaining time from the plan and lowers it phase by phase when phases take what was expected', async () => {
    const clock = fakeClock();
    const events: ProgressEvent[] = [];
    const schedule = new PhaseSchedule(PLAN, (event) => events.push(event), clock.now);
    for (const phase of PLAN) {
      await schedule.run(phase.id, phase.id, clock.takes(phase.expectedMs));
    }
    schedule.report('done', 'Done');
    expect(events.map((event) => event.etaMs)).toEqual([8000, 7000, 4000, 2000, 0]);
    expect(events.map((event) => event.runIndex)).toEqual([1, 2, 3, 4, 4]);
    expect(events.map((event) => event.fraction)).toEqual([0, 1000 / 8000, 4000 / 8000, 6000 / 8000, 1]);
  });

  it('corrects the estimate by the measured pace: phases running twice as long double the rest', async () => {
    const { schedule, run } = scheduleOnFakeClock();
    await run('cipher:openssl', 2000);
    await run('kdf:argon2id', 6000);
    // 4000 ms expected for the two fio runs, at twice the planned pace.
    expect(schedule.remainingMs()).toBe(8000);
  });

  it('keeps a pace per resource: slow CPU runs do not slow the estimate of disk runs once one has run', async () => {
    const { schedule, run } = scheduleOnFakeClock();
    await run('cipher:openssl', 3000);
    await run('kdf:argon2id', 9000);
    // No disk run yet: the overall pace (3×) applies to the 4000 ms of fio.
    expect(schedule.remainingMs()).toBe(12000);
    await run('io:plain:seq', 2000);
    // One disk run at the planned pace: the last one is expected to take its planned 2000 ms.
    expect(schedule.remainingMs()).toBe(2000);
  });

  it('a phase that ended at once (a tool that failed) does not set the pace', async () => {
    const { schedule, run } = scheduleOnFakeClock();
    await run('cipher:openssl', 50);
    expect(schedule.remainingMs()).toBe(7000);
  });

  it('drops skipped phases from the estimate and the count; a phase the plan did not foresee still counts', async () => {
    const clock = fakeClock();
    const events: ProgressEvent[] = [];
    const schedule = new PhaseSchedule(PLAN, (event) => events.push(event), clock.now);
    schedule.skip('io:fscrypt:');
    expect(schedule.remainingMs()).toBe(6000);
    await schedule.run('extra', 'unplanned', clock.takes(100));
    expect(events.at(-1)).toMatchObject({ runIndex: 1, runCount: 4 });
    expect(schedule.timings().find((phase) => phase.id === 'io:fscrypt:seq')).toMatchObject({
      skipped: true,
    });
  });
});
