import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { createFakeTools, REPO_ROOT, type FakeTools } from '../support/fake-tools.js';
import { alive, killStrays, until } from '../support/processes.js';
import { noteSkip } from '../support/skip-reasons.js';

// The built binary against hostile tools and signals (issue 16): a tool that hangs while a child of it holds
// stdout, Ctrl-C/SIGTERM at any time, and control characters in what a drive reports. Assertions are about
// outcomes (exit codes, what is left running, what reached the terminal), never about how long things took.

const CLI = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
let fakes: FakeTools | undefined;
const scratch: string[] = [];
const strays: number[] = [];
afterEach(async () => {
  killStrays(strays);
  await fakes?.remove();
  fakes = undefined;
  for (const directory of scratch.splice(0)) {
    rmSync(directory, { recursive: true, force: true });
  }
});

function temporary(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'encplan-e2e-hostile-'));
  scratch.push(directory);
  return directory;
}

function start(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>,
  };
}

const HANGING = { sleepMs: 600_000, backgroundHoldsStdout: true } as const;
const LINUX_TOOLS = [
  'lsblk',
  'findmnt',
  'blkid',
  'sfdisk',
  'smartctl',
  'nvme',
  'hdparm',
  'cryptsetup',
  'dmsetup',
  'systemctl',
  'losetup',
];

/**
 * Waits until the hanging fake tool has started a child that holds its stdout, sends the run SIGTERM and
 * checks it exits 130. Returns the child's pid, to check that it was ended too.
 */
async function sigtermOnceHolding(run: ReturnType<typeof start>): Promise<number> {
  if (fakes === undefined) {
    throw new Error('fake tools are created first');
  }
  const pidFile = path.join(fakes.binDir, 'background.pid');
  expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== ''), run.stderr()).toBe(
    true,
  );
  const holder = Number(readFileSync(pidFile, 'utf8'));
  strays.push(holder);
  run.child.kill('SIGTERM');
  const [code] = await run.exited;
  expect(code, run.stderr()).toBe(130);
  return holder;
}

noteSkip(import.meta.url, process.platform === 'linux' ? null : 'the hostile-tools suite runs on Linux only');

describe.skipIf(process.platform !== 'linux')(
  'encplan against hostile tools and signals (built binary)',
  () => {
    it('SIGTERM while a tool hangs with a child holding stdout: exit 130, the tool and its child ended, nothing written', async () => {
      fakes = await createFakeTools(Object.fromEntries(LINUX_TOOLS.map((tool) => [tool, [HANGING]])));
      const out = path.join(temporary(), 'bundle');
      const run = start(['collect', '--out', out], {
        PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
      });
      const holder = await sigtermOnceHolding(run);
      expect(run.stderr()).toContain('SIGTERM received');
      expect(run.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(await until(() => !alive(holder))).toBe(true);
      expect(existsSync(out)).toBe(false);
    });

    it('SIGTERM during a command without cleanup of its own still ends the running tool and its child (exit 130)', async () => {
      fakes = await createFakeTools({ cryptsetup: [HANGING], openssl: [HANGING] });
      const run = start(['benchmark', 'ciphers', '--quick'], {
        PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
      });
      const holder = await sigtermOnceHolding(run);
      expect(await until(() => !alive(holder))).toBe(true);
    });

    it('SIGTERM before any command has installed its handler exits 130, not 143', async () => {
      // A test preload holds the loading of oclif, so the signal lands after bin/run.js's first lines and
      // before any command (see tests/support/hold-import).
      const marker = path.join(temporary(), 'held');
      const child = spawn(
        process.execPath,
        ['--import', path.join(REPO_ROOT, 'tests/support/hold-import/hold.mjs'), CLI, 'health', 'x.json'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, HOLD_MARKER: marker },
        },
      );
      child.stdout.resume();
      child.stderr.resume();
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      expect(await until(() => existsSync(marker))).toBe(true);
      child.kill('SIGTERM');
      const [code, signal] = await exited;
      expect(signal).toBeNull();
      expect(code).toBe(130);
    });

    it('prints control characters a drive reports as inert escapes, and keeps them exact in --json', () => {
      const directory = temporary();
      const document = JSON.parse(
        readFileSync(
          path.join(REPO_ROOT, 'fixtures/smartctl/sata-hdd-seagate-exos-x16-v7.1/stdout.json'),
          'utf8',
        ),
      ) as Record<string, unknown>;
      const hostile = 'ST16000\u001b[2J\u001b]0;pwned\u0007\rPASSED\u009b31m\u202e';
      document.model_name = hostile;
      const file = path.join(directory, 'hostile.json');
      writeFileSync(file, JSON.stringify(document));
      const human = runCli(['health', file]);
      expect(human.status, human.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex -- asserting that no control character reached the terminal
      const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/u;
      expect(human.stdout).not.toMatch(control);
      expect(human.stderr).not.toMatch(control);
      expect(human.stdout).toContain('ST16000\\u001b[2J');
      const json = runCli(['health', file, '--json']);
      expect(json.stdout).not.toMatch(control);
      expect((JSON.parse(json.stdout) as { result: { model: string } }).result.model).toBe(hostile.trim());
    });

    it('refuses a device together with --bundle instead of ignoring the device', () => {
      const run = runCli([
        'assess',
        '/dev/sda',
        '--bundle',
        'fixtures/bundles/loop-gpt-ext4-78pct-debian12',
        '--json',
      ]);
      expect(run.status).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({
        status: 'error',
        error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('not both') },
      });
    });

    it('ui --json prints one encplan.ui envelope and exits 130 on SIGTERM', async () => {
      const assessment = path.join(
        REPO_ROOT,
        'fixtures/assessments/loop-gpt-ext4-luks2-unallocated-debian12.json',
      );
      const run = start(['ui', '--assessment', assessment, '--json']);
      expect(await until(() => run.stdout().trimEnd().endsWith('}'))).toBe(true);
      const envelope = JSON.parse(run.stdout()) as {
        schema: string;
        status: string;
        result: { url: string; port: number };
      };
      expect(envelope).toMatchObject({
        schema: 'encplan.ui',
        status: 'ok',
        schemaVersion: [1, 0],
        error: null,
      });
      expect(envelope.result.url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${String(envelope.result.port)}/\\?token=[0-9a-f]{64}$`),
      );
      run.child.kill('SIGTERM');
      const [code] = await run.exited;
      expect(code).toBe(130);
      // Still exactly one document on stdout.
      expect(JSON.parse(run.stdout())).toEqual(envelope);
    });
  },
);
