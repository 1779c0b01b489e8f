import { afterEach, describe, expect, it } from 'vitest';
import type { EncplanError } from '@encplan/core';
import { isEncplanError } from '@encplan/core';
import { createRunner } from '@encplan/core/node';
import { createFakeTools, type FakeTools } from '../../../../tests/support/fake-tools.js';

let fakes: FakeTools | undefined;
afterEach(async () => {
  await fakes?.remove();
  fakes = undefined;
});

async function runnerWith(
  cases: Parameters<typeof createFakeTools>[0],
  options?: Parameters<typeof createFakeTools>[1],
) {
  fakes = await createFakeTools(cases, options);
  return createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false, killGraceMs: 200 });
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<EncplanError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isEncplanError(error), `expected an EncplanError ${code}, got ${String(error)}`).toBe(true);
  expect((error as EncplanError).code).toBe(code);
  return error as EncplanError;
}

describe('createRunner', () => {
  it('passes the argument array untouched, with no shell between us and the tool', async () => {
    const runner = await runnerWith({ lsblk: [{ args: null, stdout: 'ok\n' }] });
    const hostile = ['--json', '$(touch /tmp/pwned)', 'a b', '; rm -rf /', '"quoted"', '--', '/dev/sda'];
    const output = await runner.run({ tool: 'lsblk', args: hostile, timeoutMs: 10_000 });
    expect(output).toMatchObject({ exitCode: 0, stdout: 'ok\n', stderr: '' });
    const calls = await fakes!.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.argv).toEqual(hostile);
  });

  it('returns a non-zero exit status as data, with stdout and stderr kept apart', async () => {
    const runner = await runnerWith({
      smartctl: [{ stdout: '{"a":1}', stderr: 'warning on stderr', exitCode: 4 }],
    });
    const output = await runner.run({ tool: 'smartctl', args: ['-j'], timeoutMs: 10_000 });
    expect(output.exitCode).toBe(4);
    expect(output.stdout).toBe('{"a":1}');
    expect(output.stderr).toBe('warning on stderr');
    expect(output.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('writes stdin to the tool and never puts it in argv', async () => {
    const runner = await runnerWith({ cryptsetup: [{ stdout: '' }] });
    await runner.run({
      tool: 'cryptsetup',
      args: ['luksFormat', '--key-file=-'],
      stdin: 'secret passphrase',
      timeoutMs: 10_000,
    });
    const [call] = await fakes!.calls();
    expect(call!.stdin).toBe('secret passphrase');
    expect(call!.argv.join(' ')).not.toContain('secret');
  });

  it('gives a call without stdin the null device (no pipe), and one with stdin a pipe (issue 28)', async () => {
    const runner = await runnerWith({ lsblk: [{ stdout: '' }], cryptsetup: [{ stdout: '' }] });
    await runner.run({ tool: 'lsblk', args: ['--json'], timeoutMs: 10_000 });
    await runner.run({ tool: 'cryptsetup', args: ['--key-file=-'], stdin: '', timeoutMs: 10_000 });
    const calls = await fakes!.calls();
    expect(calls.map((call) => [call.tool, call.stdinKind, call.stdin])).toEqual([
      ['lsblk', 'null', ''],
      ['cryptsetup', 'pipe', ''],
    ]);
  });

  it('runs tools with LC_ALL=C so that parsers see stable output', async () => {
    const runner = await runnerWith({ openssl: [{ stdout: '' }] });
    await runner.run({ tool: 'openssl', args: [], timeoutMs: 10_000 });
    expect(await runner.resolveTool('openssl')).toBe(`${fakes!.binDir}/openssl`);
  });

  it('reports TOOL_NOT_FOUND for a tool that is not installed, with the package to install', async () => {
    const runner = await runnerWith({});
    const error = await expectCode(runner.run({ tool: 'fio', args: [], timeoutMs: 1000 }), 'TOOL_NOT_FOUND');
    expect(error.hint).toContain('apt-get install fio');
    expect(await runner.resolveTool('fio')).toBeNull();
  });

  it('reports PERMISSION_DENIED for a tool that cannot be executed', async () => {
    fakes = await createFakeTools({ hdparm: [{}] }, { nonExecutable: ['hdparm'] });
    const runner = createRunner({
      searchPath: fakes.binDir,
      includeSystemDirectories: false,
      toolPaths: { hdparm: `${fakes.binDir}/hdparm` },
    });
    await expectCode(runner.run({ tool: 'hdparm', args: [], timeoutMs: 1000 }), 'PERMISSION_DENIED');
  });

  it('stops a tool that runs past its timeout with TOOL_TIMED_OUT', async () => {
    const runner = await runnerWith({ fio: [{ sleepMs: 10_000 }] });
    const started = Date.now();
    await expectCode(runner.run({ tool: 'fio', args: [], timeoutMs: 300 }), 'TOOL_TIMED_OUT');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops a tool when the signal aborts, with CANCELLED', async () => {
    const runner = await runnerWith({ fio: [{ sleepMs: 10_000 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expectCode(
      runner.run({ tool: 'fio', args: [], timeoutMs: 20_000 }, controller.signal),
      'CANCELLED',
    );
  });

  it('refuses to start when the signal is already aborted', async () => {
    const runner = await runnerWith({ fio: [{}] });
    await expectCode(
      runner.run({ tool: 'fio', args: [], timeoutMs: 1000 }, AbortSignal.abort()),
      'CANCELLED',
    );
    expect(await fakes!.calls()).toHaveLength(0);
  });

  it('stops a tool that floods its output past the cap with TOOL_OUTPUT_TOO_LARGE', async () => {
    const runner = await runnerWith({ lsblk: [{ floodBytes: 4 * 1024 * 1024 }] });
    await expectCode(
      runner.run({ tool: 'lsblk', args: [], timeoutMs: 20_000, maxOutputBytes: 256 * 1024 }),
      'TOOL_OUTPUT_TOO_LARGE',
    );
  });

  it('requires a positive timeout', async () => {
    const runner = await runnerWith({ lsblk: [{}] });
    await expectCode(runner.run({ tool: 'lsblk', args: [], timeoutMs: 0 }), 'INTERNAL_ERROR');
  });
});

describe('tool lookup with executable suffixes (Windows: NAME.exe)', () => {
  it('finds powershell.exe by its bare name, trying the suffixes in order, and never a .cmd', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'encplan-suffix-'));
    try {
      await writeFile(path.join(dir, 'powershell.exe'), '', { mode: 0o755 });
      await writeFile(path.join(dir, 'fsutil.cmd'), '', { mode: 0o755 });
      const runner = createRunner({
        searchPath: dir,
        includeSystemDirectories: false,
        executableSuffixes: ['.exe', '.com'],
      });
      expect(await runner.resolveTool('powershell')).toBe(path.join(dir, 'powershell.exe'));
      expect(await runner.resolveTool('fsutil')).toBeNull();
      // Without the suffixes (Linux, macOS) the bare name is what is looked for.
      const bare = createRunner({ searchPath: dir, includeSystemDirectories: false });
      expect(await bare.resolveTool('powershell')).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('tool lookup with PATH entries written loosely', () => {
  it('gives the path path.join would (doubled and trailing slashes, ".."), each directory normalised once', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'encplan-lookup-'));
    try {
      await mkdir(path.join(dir, 'sub'));
      await writeFile(path.join(dir, 'lsblk'), '', { mode: 0o755 });
      for (const entry of [`${dir}//`, `${dir}/sub/..`, `${dir}/./`, `/..${dir}`]) {
        const runner = createRunner({ searchPath: `relative/bin:${entry}`, includeSystemDirectories: false });
        expect(await runner.resolveTool('lsblk'), entry).toBe(path.join(entry, 'lsblk'));
        expect(await runner.resolveTool('lsblk'), entry).toBe(`${dir}/lsblk`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
