import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunner, discardStartedEarly } from '@encplan/core/node';
import { startEarly, takeStartedEarly } from '../../src/node/process/spawn-tool.js';
import { blkidSignaturesCall, lsblkDiskCall, sfdiskCall } from '../../src/probes/linux/disk-calls.js';
import { createFakeTools, REPO_ROOT, type FakeTools } from '../../../../tests/support/fake-tools.js';

// Issue 28: calls started before the core is loaded (node/process/spawn-tool.ts `startEarly`) are taken by the
// one runner when a probe asks the very same command line, and ended when none does.
let fakes: FakeTools | undefined;
afterEach(async () => {
  await discardStartedEarly();
  await fakes?.remove();
  fakes = undefined;
});

const LSBLK_FIXTURE = 'fixtures/lsblk/loop-gpt-ext4-78pct-debian12/stdout';

/** A runner that searches the fake tools' folder, then the system directories, as the CLI's runner does. */
async function setUp(cases: Parameters<typeof createFakeTools>[0]) {
  fakes = await createFakeTools(cases);
  return { binDir: fakes.binDir, runner: createRunner({ searchPath: fakes.binDir, killGraceMs: 200 }) };
}

/** Waits until no process runs from `folder` (the started tools exited on their own). */
async function noneRunningFrom(folder: string): Promise<void> {
  const running = () =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(folder);
        } catch {
          return false;
        }
      });
  while (running()) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(process.platform !== 'linux')('calls started early', () => {
  it('the runner takes the call started early with the same command line: one process, its whole output, even after it exited', async () => {
    const spec = lsblkDiskCall('/dev/loop9');
    const { binDir, runner } = await setUp({ lsblk: [{ args: spec.args, stdoutFixture: LSBLK_FIXTURE }] });
    startEarly([spec], binDir);
    // Node drains a child's output no one listens to when it exits: the runner must still get all of it.
    await noneRunningFrom(binDir);
    const output = await runner.run(spec);
    expect(output.exitCode).toBe(0);
    expect(output.stdout).toBe(readFileSync(`${REPO_ROOT}/${LSBLK_FIXTURE}`, 'utf8'));
    expect(await fakes?.calls()).toHaveLength(1);
    expect(await discardStartedEarly()).toBe(0);
  });

  it("blkid's read-only probe of the disk's devices is started early and taken by the runner", async () => {
    const spec = blkidSignaturesCall(['/dev/loop9', '/dev/loop9p1']);
    const { binDir, runner } = await setUp({ blkid: [{ args: spec.args, stdout: 'DEVNAME=/dev/loop9\n' }] });
    startEarly([spec], binDir);
    expect((await runner.run(spec)).stdout).toBe('DEVNAME=/dev/loop9\n');
    expect((await fakes?.calls())?.map((call) => call.argv)).toEqual([spec.args]);
  });

  it('output beyond the early buffer waits in the pipe and arrives whole', async () => {
    const spec = sfdiskCall('/dev/loop9');
    const { binDir, runner } = await setUp({ sfdisk: [{ args: spec.args, floodBytes: 3 * 1024 * 1024 }] });
    startEarly([spec], binDir);
    const output = await runner.run(spec);
    expect(output.exitCode).toBe(0);
    expect(output.stdout.length).toBe(3 * 1024 * 1024);
    expect(await fakes?.calls()).toHaveLength(1);
  });

  it('a call with other arguments or another environment is started anew; the early one is killed and reaped', async () => {
    const { binDir, runner } = await setUp({
      lsblk: [{ args: null, stdout: '{"blockdevices": []}\n', sleepMs: 30_000, ignoreSigterm: true }],
    });
    startEarly([lsblkDiskCall('/dev/loop9')], binDir);
    const asked = new AbortController();
    const other = runner.run(lsblkDiskCall('/dev/loop8'), asked.signal);
    const withEnv = runner.run({ ...lsblkDiskCall('/dev/loop9'), env: { TZ: 'UTC' } }, asked.signal);
    // The two asked calls run (sleeping); the early one was not taken by either.
    expect(await discardStartedEarly()).toBe(1);
    const calls = await (async () => {
      for (;;) {
        const list = (await fakes?.calls()) ?? [];
        if (list.length >= 2) {
          return list;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    expect(calls.map((call) => call.argv.at(-1))).toContain('/dev/loop8');
    // Stop the two asked calls: a cancel ends their process groups (SIGKILL after the grace).
    asked.abort();
    const outcomes = await Promise.allSettled([other, withEnv]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await noneRunningFrom(binDir);
  });

  it('has every call started when it returns (no wait between spawns), and the runner reuses where it found each tool', async () => {
    const lsblk = lsblkDiskCall('/dev/loop9');
    const sfdisk = sfdiskCall('/dev/loop9');
    const { binDir, runner } = await setUp({
      lsblk: [{ args: lsblk.args, stdout: 'early\n' }],
      sfdisk: [{ args: sfdisk.args, stdout: 'early\n' }],
    });
    startEarly([lsblk, sfdisk], binDir);
    const key = (spec: typeof lsblk) =>
      [
        `${binDir}/${spec.tool}`,
        spec.args,
        {
          PATH: [binDir, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(
            ':',
          ),
          LC_ALL: 'C',
          LANG: 'C',
        },
      ] as const;
    // Both are running (or ran) already, nothing awaited: take sfdisk's by hand, leave lsblk's to the runner.
    const taken = takeStartedEarly(...key(sfdisk));
    expect(taken?.child.pid).toBeGreaterThan(0);
    taken?.forget();
    // Gone from the fake folder now, lsblk is still where the early start found it: the runner asks no other.
    rmSync(`${binDir}/lsblk`);
    expect(await runner.resolveTool('lsblk')).toBe(`${binDir}/lsblk`);
    expect((await runner.run(lsblk)).stdout).toBe('early\n');
    expect(await discardStartedEarly()).toBe(0);
    // A runner with another search looks the tool up itself.
    const other = createRunner({ searchPath: binDir, includeSystemDirectories: false });
    expect(await other.resolveTool('lsblk')).toBeNull();
  });

  it('starts only read-only calls on the allow-list, and none that has stdin', async () => {
    const { binDir } = await setUp({
      sfdisk: [{ args: null }],
      cryptsetup: [{ args: null }],
      blkid: [{ args: null }],
      lsblk: [{ args: null }],
      systemctl: [{ args: null }],
    });
    startEarly(
      [
        { tool: 'sfdisk', args: ['--delete', '/dev/loop9'], timeoutMs: 1000 },
        { tool: 'cryptsetup', args: ['luksDump', '/dev/loop9'], timeoutMs: 1000 },
        { tool: 'systemctl', args: ['start', 'fstrim.timer'], timeoutMs: 1000 },
        // blkid without -p reads and writes its cache; a device outside /dev is not one of the disk's.
        { tool: 'blkid', args: ['-o', 'export', '--', '/dev/loop9'], timeoutMs: 1000 },
        blkidSignaturesCall(['/dev/loop9', 'loop9p1']),
        blkidSignaturesCall([]),
        { ...lsblkDiskCall('/dev/loop9'), stdin: 'x' },
      ],
      binDir,
    );
    expect(await discardStartedEarly()).toBe(0);
    expect(await fakes?.calls()).toEqual([]);
  });
});
