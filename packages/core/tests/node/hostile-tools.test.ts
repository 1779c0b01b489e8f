import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError, type EncplanError } from '@encplan/core';
import { createRunner, deadlinesFired } from '@encplan/core/node';
import { createFakeTools, type FakeCase, type FakeTools } from '../../../../tests/support/fake-tools.js';
import { alive, killStrays, until } from '../../../../tests/support/processes.js';

// Tools that misbehave on purpose (issue 16 "hostile conditions"): the runner must still end them, stop
// reading and name the tool that failed. These tests assert outcomes, never how long anything took.

let fakes: FakeTools | undefined;
const leftovers: number[] = [];
afterEach(async () => {
  killStrays(leftovers);
  await fakes?.remove();
  fakes = undefined;
});

async function runnerWith(cases: Readonly<Record<string, readonly FakeCase[]>>) {
  fakes = await createFakeTools(cases);
  return createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false, killGraceMs: 200 });
}

async function failure(promise: Promise<unknown>): Promise<EncplanError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isEncplanError(error), `expected an EncplanError, got ${String(error)}`).toBe(true);
  return error as EncplanError;
}

async function backgroundPid(): Promise<number> {
  const pid = Number(await readFile(path.join(fakes!.binDir, 'background.pid'), 'utf8'));
  leftovers.push(pid);
  return pid;
}

function waitUntilGone(pid: number): Promise<boolean> {
  // A killed process disappears once its parent (here: init, after the tool exited) reaps it.
  return until(() => !alive(pid), 100);
}

describe('the runner against hostile tools', () => {
  it('a tool that exits but leaves a child holding stdout gives its own exit status and output, not a deadline, and the child is ended', async () => {
    const runner = await runnerWith({
      smartctl: [{ stdout: '{"done":true}', exitCode: 4, backgroundHoldsStdout: true }],
    });
    // A deadline far beyond the test's own timeout: only the tool's exit may end this run (issue 25).
    const output = await runner.run({
      tool: 'smartctl',
      args: ['-j', '-x', '/dev/sda'],
      timeoutMs: 3_600_000,
    });
    expect(output.exitCode).toBe(4);
    expect(output.stdout).toBe('{"done":true}');
    expect(await waitUntilGone(await backgroundPid())).toBe(true);
    expect(deadlinesFired().filter((fired) => fired.tool === 'smartctl')).toEqual([]);
  });

  it('a deadline that fires is recorded for the process, so the CLI never exits 0 after one', async () => {
    const runner = await runnerWith({ cryptsetup: [{ sleepMs: 60_000 }] });
    const error = await failure(runner.run({ tool: 'cryptsetup', args: ['benchmark'], timeoutMs: 500 }));
    expect(error.code).toBe('TOOL_TIMED_OUT');
    expect(error.message).toMatch(/^cryptsetup /);
    expect(deadlinesFired()).toContainEqual({ tool: 'cryptsetup', timeoutMs: 500 });
  });

  it('cancelling a tool whose child holds stdout ends the whole process group with CANCELLED', async () => {
    const runner = await runnerWith({ smartctl: [{ backgroundHoldsStdout: true, sleepMs: 60_000 }] });
    const controller = new AbortController();
    const pending = runner.run({ tool: 'smartctl', args: [], timeoutMs: 120_000 }, controller.signal);
    // Abort once the background child exists, so the test is about the group, not a race with spawning.
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if ((await readFile(path.join(fakes!.binDir, 'background.pid'), 'utf8').catch(() => '')) !== '') {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    controller.abort();
    expect((await failure(pending)).code).toBe('CANCELLED');
    expect(await waitUntilGone(await backgroundPid())).toBe(true);
  });

  it('a tool that ignores SIGTERM is killed after the grace period', async () => {
    const runner = await runnerWith({ fio: [{ ignoreSigterm: true, sleepMs: 60_000 }] });
    const error = await failure(runner.run({ tool: 'fio', args: [], timeoutMs: 1000 }));
    expect(error.code).toBe('TOOL_TIMED_OUT');
    expect(error.details).toMatchObject({ tool: 'fio' });
  });

  it('a tool that hangs is cancelled by the signal and never resolves as a success', async () => {
    const runner = await runnerWith({ lsblk: [{ sleepMs: 60_000 }] });
    const controller = new AbortController();
    const pending = runner.run({ tool: 'lsblk', args: [], timeoutMs: 120_000 }, controller.signal);
    controller.abort();
    expect((await failure(pending)).code).toBe('CANCELLED');
  });

  it('a flood on stderr counts against the output cap as well', async () => {
    const runner = await runnerWith({ nvme: [{ floodBytes: 2 * 1024 * 1024 }] });
    const error = await failure(
      runner.run({ tool: 'nvme', args: [], timeoutMs: 60_000, maxOutputBytes: 128 * 1024 }),
    );
    expect(error.code).toBe('TOOL_OUTPUT_TOO_LARGE');
    expect(error.details).toMatchObject({ tool: 'nvme' });
  });

  it('passes control characters through as data: sanitising is the job of the terminal sink, not the runner', async () => {
    const hostile = 'Model\u001b[2J\u0007\r\u009b31mX';
    const runner = await runnerWith({ hdparm: [{ stdout: hostile }] });
    const output = await runner.run({ tool: 'hdparm', args: [], timeoutMs: 10_000 });
    expect(output.stdout).toBe(hostile);
  });
});
