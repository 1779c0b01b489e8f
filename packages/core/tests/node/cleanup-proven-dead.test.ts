import { mkdir, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupLeftovers, createNodeHost, createRunner } from '@encplan/core/node';
import { parseProcStartTime } from '../../src/parsers/proc/parse-proc-stat.js';
import { createFakeTools, type FakeCase } from '../../../../tests/support/fake-tools.js';
import { removeAfterTest, removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';

afterEach(removeTempDirs);

const LOSETUP_LIST = ['--list', '--json', '--output', 'NAME,BACK-FILE'];
const DEAD_PID = 999_998;
const onLinux = process.platform === 'linux';

async function ownNamespace(): Promise<string> {
  return readlink('/proc/self/ns/pid');
}

async function hostWith(cases: Readonly<Record<string, readonly FakeCase[]>> = {}) {
  const fakes = removeAfterTest(await createFakeTools(cases));
  return {
    fakes,
    host: createNodeHost(createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false })),
  };
}

async function writeState(
  stateDirectory: string,
  state: { pid: number; pidNamespace?: string; processStartTime?: string; resources: unknown[] },
): Promise<string> {
  const file = path.join(stateDirectory, `${state.pid}-1-abcd.json`);
  await writeFile(file, JSON.stringify({ startedAt: '2026-11-21T00:00:00.000Z', ...state }));
  return file;
}

/** The state file of a dead run of this PID namespace (its pid is free; start time 1 tick is nobody's). */
async function writeDeadState(stateDirectory: string, resources: unknown[]): Promise<string> {
  return writeState(stateDirectory, {
    pid: DEAD_PID,
    pidNamespace: await ownNamespace(),
    processStartTime: '1',
    resources,
  });
}

describe.runIf(onLinux)('encplan cleanup acts only on what proven-dead runs recorded (issue 25)', () => {
  it("never touches a folder only NAMED like a run's, even a dead pid's in the temp dir", async () => {
    expect(() => process.kill(DEAD_PID, 0)).toThrow();
    // The user's own folder, in the very place older versions scanned (the system temp dir).
    const userFolder = path.join(tmpdir(), `encplan-bench-${DEAD_PID}-userdata-${process.pid}`);
    await mkdir(userFolder);
    removeAfterTest({ remove: () => rm(userFolder, { recursive: true, force: true }) });
    await writeFile(path.join(userFolder, 'notes.txt'), 'mine\n');
    const stateDirectory = await tempDir('encplan-test-state-');
    const { host } = await hostWith();

    const report = await cleanupLeftovers(host, { stateDirectory });

    expect(report.outcomes).toEqual([]);
    expect(await readFile(path.join(userFolder, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('leaves a run of another PID namespace alone, whatever its pid, and keeps its state file', async () => {
    const work = await tempDir('encplan-test-work-');
    const key = path.join(work, 'plain.key');
    await writeFile(key, 'k');
    const stateDirectory = await tempDir('encplan-test-state-');
    const file = await writeState(stateDirectory, {
      pid: DEAD_PID,
      pidNamespace: 'pid:[4026530000]',
      processStartTime: '1',
      resources: [{ kind: 'file', path: key }],
    });
    const { host, fakes } = await hostWith({
      losetup: [{ args: LOSETUP_LIST, stdout: '{"loopdevices":[]}' }],
    });

    const report = await cleanupLeftovers(host, { stateDirectory });

    expect(report.stateFiles).toEqual([]);
    expect(report.outcomes).toEqual([]);
    expect(report.runs).toEqual([
      expect.objectContaining({ stateFile: file, pid: DEAD_PID, status: 'other-namespace' }),
    ]);
    expect(await readFile(key, 'utf8')).toBe('k');
    expect(await readdir(stateDirectory)).toEqual([path.basename(file)]);
    expect(await fakes.calls()).toEqual([]);
  });

  it('leaves a state file without a namespace (an older encplan) unproven and untouched', async () => {
    const work = await tempDir('encplan-test-work-');
    const key = path.join(work, 'plain.key');
    await writeFile(key, 'k');
    const stateDirectory = await tempDir('encplan-test-state-');
    await writeState(stateDirectory, { pid: DEAD_PID, resources: [{ kind: 'file', path: key }] });
    const { host } = await hostWith();

    const report = await cleanupLeftovers(host, { stateDirectory });

    expect(report.runs.map((run) => run.status)).toEqual(['unproven']);
    expect(await readFile(key, 'utf8')).toBe('k');
  });

  it('treats a live pid with another start time as a dead run (pid reused), and the same start time as alive', async () => {
    const parentStart = parseProcStartTime(await readFile(`/proc/${process.ppid}/stat`, 'utf8'));
    expect(parentStart).not.toBeNull();
    const work = await tempDir('encplan-test-work-');
    const stateDirectory = await tempDir('encplan-test-state-');
    const reusedKey = path.join(work, 'reused.key');
    const aliveKey = path.join(work, 'alive.key');
    await writeFile(reusedKey, 'k');
    await writeFile(aliveKey, 'k');
    const pidNamespace = await ownNamespace();
    // a.json: the parent's pid with another start time (a reused pid); b.json: the parent itself.
    for (const [name, processStartTime, key] of [
      ['a.json', `${parentStart}0`, reusedKey],
      ['b.json', parentStart, aliveKey],
    ] as const) {
      await writeFile(
        path.join(stateDirectory, name),
        JSON.stringify({
          pid: process.ppid,
          startedAt: '2026-11-21T00:00:00.000Z',
          pidNamespace,
          processStartTime,
          resources: [{ kind: 'file', path: key }],
        }),
      );
    }
    const { host } = await hostWith();

    const report = await cleanupLeftovers(host, { stateDirectory });

    expect(report.runs.map((run) => run.status)).toEqual(['dead', 'alive']);
    expect(report.outcomes).toEqual([
      { resource: { kind: 'file', path: reusedKey }, outcome: 'removed', message: null },
    ]);
    await expect(stat(reusedKey)).rejects.toThrow();
    expect(await readFile(aliveKey, 'utf8')).toBe('k');
    expect(await readdir(stateDirectory)).toEqual(['b.json']);
  });

  it("removes only what a dead run recorded inside its work folder: the user's file and the folder stay", async () => {
    const parent = await tempDir('encplan-test-work-');
    const workDir = path.join(parent, `encplan-bench-${DEAD_PID}-abcd`);
    await mkdir(path.join(workDir, 'plain'), { recursive: true });
    await writeFile(path.join(workDir, 'plain.key'), 'k');
    await writeFile(path.join(workDir, 'notes.txt'), 'mine\n');
    const stateDirectory = await tempDir('encplan-test-state-');
    const file = await writeDeadState(stateDirectory, [
      { kind: 'directory', path: workDir },
      { kind: 'file', path: path.join(workDir, 'plain.key') },
      { kind: 'directory', path: path.join(workDir, 'plain') },
    ]);
    const { host } = await hostWith({ losetup: [{ args: LOSETUP_LIST, stdout: '{"loopdevices":[]}' }] });

    const report = await cleanupLeftovers(host, { stateDirectory });

    expect(report.stateFiles).toEqual([file]);
    expect(report.outcomes.map((o) => [o.resource.kind, o.outcome])).toEqual([
      ['directory', 'removed'],
      ['file', 'removed'],
      ['directory', 'kept'],
    ]);
    expect(report.outcomes[2]?.message).toContain('notes.txt');
    expect(await readdir(workDir)).toEqual(['notes.txt']);
    // Not everything is gone: the state file stays for a later look.
    expect(await readdir(stateDirectory)).toEqual([path.basename(file)]);
  });

  it('reports a loop device that stays attached (losetup -d only set autoclear) busy, keeps its file, and again next time', async () => {
    const work = await tempDir('encplan-test-work-');
    const image = path.join(work, 'plain.img');
    await writeFile(image, 'image');
    const listed = JSON.stringify({ loopdevices: [{ name: '/dev/loop7', 'back-file': image }] });
    const { host, fakes } = await hostWith({
      losetup: [{ args: LOSETUP_LIST, stdout: listed }, { args: ['--detach', '/dev/loop7'] }],
    });
    const stateDirectory = await tempDir('encplan-test-state-');
    const file = await writeDeadState(stateDirectory, [
      { kind: 'file', path: image },
      { kind: 'loop-device', backingFile: image },
    ]);

    for (const round of [1, 2]) {
      const report = await cleanupLeftovers(host, { stateDirectory });
      expect(
        report.outcomes.map((o) => [o.resource.kind, o.outcome]),
        `round ${round}`,
      ).toEqual([
        ['loop-device', 'busy'],
        ['file', 'busy'],
      ]);
      expect(report.outcomes[0]?.message).toContain('/dev/loop7 still attached');
      expect(await readFile(image, 'utf8')).toBe('image');
      expect(await readdir(stateDirectory)).toEqual([path.basename(file)]);
    }
    expect((await fakes.calls()).filter((call) => call.argv[0] === '--detach')).toHaveLength(2);
  });
});

describe('parseProcStartTime (proc(5) field 22)', () => {
  it('counts fields from the last ")" so a command name with spaces and parentheses cannot shift them', () => {
    const rest = Array.from({ length: 50 }, (_, index) => String(index + 3)).join(' ');
    expect(parseProcStartTime(`42 (a) b (c) ${rest.replace(/^3/, 'S')}`)).toBe('22');
    expect(parseProcStartTime('42 (x) S 1')).toBeNull();
    expect(parseProcStartTime('garbage')).toBeNull();
  });
});
