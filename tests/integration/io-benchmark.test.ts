import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isEncplanError, parseLosetupList, parseMountinfo } from '@encplan/core';
import {
  cleanupLeftovers,
  createNodeHost,
  createRunner,
  defaultStateDirectory,
  runIoBenchmark,
} from '@encplan/core/node';
import { REPO_ROOT } from '../support/fake-tools.js';
import { removeAfterTest, removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { quickIoBenchmark } from '../support/io-benchmark-options.js';
import { noteSkip } from '../support/skip-reasons.js';

const CLI = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
const runner = createRunner({ searchPath: process.env.PATH ?? '' });
const host = createNodeHost(runner);
const REQUIRED_TOOLS = ['fio', 'fscrypt', 'losetup', 'mkfs.ext4', 'mount', 'umount'] as const;

async function skipReason(): Promise<string | null> {
  if (process.getuid?.() !== 0) {
    return 'not root: loop devices, mounts and fscrypt need root';
  }
  for (const tool of REQUIRED_TOOLS) {
    if ((await runner.resolveTool(tool)) === null) {
      return `${tool} is not installed`;
    }
  }
  if (!existsSync(path.join(REPO_ROOT, 'packages/cli/dist/commands/index.js'))) {
    return 'the CLI is not built (run npx tsc -b first)';
  }
  return null;
}

const reason = await skipReason();
noteSkip(import.meta.url, reason);

/** Everything under `root` a benchmark could leave: mounts, loop devices, directory entries. */
async function leftoversUnder(
  root: string,
): Promise<{ mounts: string[]; loops: string[]; entries: string[] }> {
  const mounts = parseMountinfo(await readFile('/proc/self/mountinfo', 'utf8'))
    .map((entry) => entry.mountPoint)
    .filter((point) => point.startsWith(root));
  const listed = await runner.run({
    tool: 'losetup',
    args: ['--list', '--json', '--output', 'NAME,BACK-FILE'],
    timeoutMs: 30_000,
  });
  const loops = parseLosetupList(listed.stdout)
    .filter((loop) => loop.backingFile?.startsWith(root) === true)
    .map((loop) => loop.device);
  return { mounts, loops, entries: await readdir(root) };
}

const NOTHING = { mounts: [], loops: [], entries: [] };
const fscryptGlobalBefore = existsSync('/etc/fscrypt.conf');
const fscryptRootBefore = existsSync('/.fscrypt');

function startCli(args: string[]): {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.resume();
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stderr: () => stderr, exit };
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('timed out waiting');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True once the CLI's progress shows an fscrypt fio run in flight (so mount, loop and policy exist). */
const measuringFscrypt = (stderr: string): boolean => /fscrypt: \S+ \S+ \S+ \(run 1/.test(stderr);

interface CleanupEnvelope {
  schema: string;
  result: {
    outcomes: { outcome: string; resource: Record<string, string> }[];
    runs: { stateFile: string; status: string }[];
  };
}

async function runCleanupCli(): Promise<CleanupEnvelope> {
  const cleanup = startCli(['cleanup', '--json']);
  let stdout = '';
  cleanup.child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  expect(await cleanup.exit).toBe(0);
  return JSON.parse(stdout) as CleanupEnvelope;
}

describe.skipIf(reason !== null)('I/O benchmark on real loop devices', () => {
  let children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children) {
      child.kill('SIGKILL');
    }
    children = [];
    await cleanupLeftovers(host);
    await removeTempDirs();
  });
  afterAll(async () => {
    await cleanupLeftovers(host);
  });

  it('measures plain and fscrypt on the same loop-device ext4 with fio and removes everything', async () => {
    const target = await tempDir('encplan-it-target-');
    const { result, warnings } = await runIoBenchmark(
      host,
      quickIoBenchmark(target, ['fscrypt'], ['seq1m-q8t1-read', 'rnd4k-q32t1-write']),
    );
    expect(warnings).toEqual([]);
    expect(result.plain.ioEngine).toBe('libaio');
    expect(result.encrypted.map((m) => m.backend)).toEqual(['fscrypt']);
    expect(result.overhead.map((row) => row.profileId)).toEqual(['seq1m-q8t1-read', 'rnd4k-q32t1-write']);
    for (const row of result.overhead) {
      expect(row.plainBytesPerSecond).toBeGreaterThan(0);
      expect(row.encryptedBytesPerSecond).toBeGreaterThan(0);
    }
    // fscrypt's O_DIRECT goes through the page cache: its jobs pass once over a cold file (issue 24), the plain
    // run keeps fio's time-based loop.
    for (const profile of result.encrypted[0]!.profiles) {
      expect(profile.fioArgv).toEqual(expect.arrayContaining(['--time_based=0', '--invalidate=1']));
    }
    for (const profile of result.plain.profiles) {
      expect(profile.fioArgv).toContain('--time_based=1');
    }
    expect(await leftoversUnder(target)).toEqual(NOTHING);
    expect(existsSync('/etc/fscrypt.conf')).toBe(fscryptGlobalBefore);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'removes every mount, loop device, file and key when the CLI gets %s mid-run, and exits 130',
    async (signal) => {
      const target = await tempDir('encplan-it-signal-');
      const run = startCli(['benchmark', 'io', target, '--backend', 'fscrypt']);
      children.push(run.child);
      await waitFor(() => measuringFscrypt(run.stderr()), 60_000);
      expect((await leftoversUnder(target)).mounts.length).toBeGreaterThan(0);
      run.child.kill(signal);
      expect(await run.exit).toBe(130);
      expect(await leftoversUnder(target)).toEqual(NOTHING);
      expect(existsSync('/etc/fscrypt.conf')).toBe(fscryptGlobalBefore);
      const states = (await readdir(defaultStateDirectory())).filter((name) =>
        name.startsWith(`${run.child.pid}-`),
      );
      expect(states).toEqual([]);
    },
  );

  it('leaves a state file when SIGKILLed, and encplan cleanup then removes everything', async () => {
    const target = await tempDir('encplan-it-sigkill-');
    const run = startCli(['benchmark', 'io', target, '--backend', 'fscrypt']);
    children.push(run.child);
    await waitFor(() => measuringFscrypt(run.stderr()), 60_000);
    run.child.kill('SIGKILL');
    await run.exit;
    const left = await leftoversUnder(target);
    expect(left.mounts.length).toBeGreaterThan(0);
    expect(left.loops.length).toBeGreaterThan(0);
    const states = await readdir(defaultStateDirectory());
    expect(states.some((name) => name.startsWith(`${run.child.pid}-`))).toBe(true);

    const envelope = await runCleanupCli();
    expect(envelope.schema).toBe('encplan.cleanup');
    expect(envelope.result.outcomes.some((o) => o.outcome === 'removed')).toBe(true);
    expect(await leftoversUnder(target)).toEqual(NOTHING);
    expect(existsSync('/etc/fscrypt.conf')).toBe(fscryptGlobalBefore);
  });

  // Issue 16: fscrypt state and overlapping runs.
  it("never deletes the user's fscrypt setup: SIGKILL in the fscrypt phase, a protector added, then cleanup", async () => {
    const target = await tempDir('encplan-it-fscrypt-keep-');
    const run = startCli(['benchmark', 'io', target, '--backend', 'fscrypt']);
    children.push(run.child);
    await waitFor(() => measuringFscrypt(run.stderr()), 60_000);
    // The run keeps fscrypt's config and metadata to itself: neither global path appeared.
    expect(existsSync('/etc/fscrypt.conf')).toBe(fscryptGlobalBefore);
    expect(existsSync('/.fscrypt')).toBe(fscryptRootBefore);
    run.child.kill('SIGKILL');
    await run.exit;

    // The user sets fscrypt up meanwhile. An old encplan's state file (dead pid) still lists the global paths.
    const protectors = '/.fscrypt/protectors';
    const madeRoot = !existsSync('/.fscrypt');
    const madeProtectors = !existsSync(protectors);
    await mkdir(protectors, { recursive: true, mode: 0o755 });
    const userProtector = path.join(protectors, `encplan-it-user-${process.pid}`);
    await writeFile(userProtector, 'a protector the user made\n', { flag: 'wx' });
    const legacyState = path.join(defaultStateDirectory(), `999999999-${Date.now()}.json`);
    await mkdir(defaultStateDirectory(), { recursive: true, mode: 0o700 });
    await writeFile(
      legacyState,
      JSON.stringify({
        pid: 999_999_999,
        startedAt: new Date().toISOString(),
        resources: [{ kind: 'global-path', path: '/.fscrypt' }],
      }),
      { mode: 0o600 },
    );
    try {
      const envelope = await runCleanupCli();
      expect(await readFile(userProtector, 'utf8')).toBe('a protector the user made\n');
      // An old encplan's state file names no PID namespace: its run cannot be proven dead (it may have run in a
      // container), so it is listed and left alone, with its state file (issue 25).
      expect(envelope.result.outcomes.map((o) => o.resource)).not.toContainEqual({
        kind: 'global-path',
        path: '/.fscrypt',
      });
      expect(envelope.result.runs).toContainEqual(
        expect.objectContaining({ stateFile: legacyState, status: 'unproven' }),
      );
      expect(await leftoversUnder(target)).toEqual(NOTHING);
      expect(existsSync(legacyState)).toBe(true);
    } finally {
      // Only what this test made: its file, then the directories if it created them (never recursively).
      await rm(userProtector, { force: true });
      await rm(legacyState, { force: true });
      if (madeProtectors) {
        await rmdir(protectors).catch(() => undefined);
      }
      if (madeRoot) {
        await rmdir('/.fscrypt').catch(() => undefined);
      }
    }
  });

  it('two benchmarks and a cleanup at once: both finish verified, cleanup touches neither, nothing is left', async () => {
    const targets = [await tempDir('encplan-it-overlap-a-'), await tempDir('encplan-it-overlap-b-')];
    const measuring = [false, false];
    const runs = targets.map((target, index) =>
      runIoBenchmark(
        host,
        quickIoBenchmark(target, ['fscrypt'], ['seq1m-q8t1-read'], {
          onProgress: (event) => {
            if (event.phase === 'measure') {
              measuring[index] = true;
            }
          },
        }),
      ),
    );
    await waitFor(() => measuring.every(Boolean), 60_000);
    // A third process cleans up while both runs hold mounts, loop devices and fscrypt keys.
    const envelope = await runCleanupCli();
    const touched = envelope.result.outcomes.filter((o) =>
      targets.some((target) => JSON.stringify(o.resource).includes(target)),
    );
    expect(touched).toEqual([]);
    const results = await Promise.all(runs);
    for (const { result, warnings } of results) {
      expect(warnings).toEqual([]);
      expect(result.encrypted.map((m) => m.backend)).toEqual(['fscrypt']);
      expect(result.encrypted[0]!.verification?.cipher).toBe('AES_256_XTS');
      expect(result.overhead[0]!.encryptedBytesPerSecond).toBeGreaterThan(0);
    }
    // Each run had its own policy.
    const policies = results.map(({ result }) => result.encrypted[0]!.verification?.identity);
    expect(new Set(policies).size).toBe(2);
    for (const target of targets) {
      expect(await leftoversUnder(target)).toEqual(NOTHING);
    }
    expect(existsSync('/etc/fscrypt.conf')).toBe(fscryptGlobalBefore);
    expect(existsSync('/.fscrypt')).toBe(fscryptRootBefore);
  });
});

/** Runs `encplan cleanup --json` and returns its envelope. */
/** A loop device over a 512 MiB sparse file in a private temp dir, detached after the test. */
async function scratchLoopDevice(): Promise<{ device: string; dir: string }> {
  const dir = await tempDir('encplan-it-raw-');
  const image = path.join(dir, 'disk.img');
  const handle = await open(image, 'wx', 0o600);
  await handle.truncate(512 * 1024 * 1024);
  await handle.close();
  const device = (
    await runner.run({ tool: 'losetup', args: ['--find', '--show', '--', image], timeoutMs: 30_000 })
  ).stdout.trim();
  removeAfterTest({
    remove: async () => {
      await runner.run({ tool: 'umount', args: ['--', path.join(dir, 'mnt')], timeoutMs: 30_000 });
      await runner.run({ tool: 'losetup', args: ['--detach', device], timeoutMs: 30_000 });
    },
  });
  return { device, dir };
}

describe.skipIf(reason !== null)(
  'I/O benchmark on a raw device (a loop device standing in for a disk)',
  () => {
    afterEach(removeTempDirs);
    const base = {
      backends: ['fscrypt'] as const,
      mode: 'quick' as const,
      sweep: false,
      profileIds: ['seq1m-q8t1-read'],
      cipherBytesPerSecondPerCore: null,
    };

    it('refuses without --destructive, without the typed name, and while the device is mounted', async () => {
      const { device, dir } = await scratchLoopDevice();
      const refused = async (destructive: {
        allowDestructive: boolean;
        typedDevice: string | null;
        yes: boolean;
      }) => {
        const error = await runIoBenchmark(host, { ...base, target: device, destructive }).catch(
          (e: unknown) => e,
        );
        return isEncplanError(error, 'DESTRUCTIVE_OPERATION_REFUSED');
      };
      expect(await refused({ allowDestructive: false, typedDevice: null, yes: true })).toBe(true);
      expect(await refused({ allowDestructive: true, typedDevice: '/dev/sda', yes: false })).toBe(true);
      await runner.run({ tool: 'mkfs.ext4', args: ['-q', '--', device], timeoutMs: 60_000 });
      await mkdir(path.join(dir, 'mnt'));
      await runner.run({ tool: 'mount', args: ['--', device, path.join(dir, 'mnt')], timeoutMs: 30_000 });
      expect(await refused({ allowDestructive: true, typedDevice: device, yes: false })).toBe(true);
    });

    it('measures plain and fscrypt on the confirmed device and unmounts everything', async () => {
      const { device } = await scratchLoopDevice();
      const { result } = await runIoBenchmark(host, {
        ...base,
        target: device,
        destructive: { allowDestructive: true, typedDevice: device, yes: false },
      });
      expect(result.destructive).toBe(true);
      expect(result.encrypted.map((m) => m.backend)).toEqual(['fscrypt']);
      expect(result.overhead[0]!.encryptedBytesPerSecond).toBeGreaterThan(0);
      const mounts = parseMountinfo(await readFile('/proc/self/mountinfo', 'utf8')).filter(
        (entry) => entry.source === device,
      );
      expect(mounts).toEqual([]);
      expect(existsSync('/etc/fscrypt.conf')).toBe(fscryptGlobalBefore);
    });
  },
);
