import { mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError, type ProgressEvent } from '@encplan/core';
import { ioBenchmarkSchema } from '../../src/domain/io-benchmark.js';
import { cleanupLeftovers, createNodeHost, createRunner, runIoBenchmark } from '@encplan/core/node';
import {
  REPO_ROOT,
  createFakeTools,
  type FakeCase,
  type FakeTools,
} from '../../../../tests/support/fake-tools.js';
import { removeAfterTest, removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';
import { quickIoBenchmark } from '../../../../tests/support/io-benchmark-options.js';
import { withFakeMounts } from '../../../../tests/support/fake-mounts.js';

const LOSETUP_LIST = ['--list', '--json', '--output', 'NAME,BACK-FILE'];
const FIO_FIXTURE = 'fixtures/fio/sata-ssd-intel-d3-s4610-randread-qd1-fio3.1/output.json';
let fakes: FakeTools | undefined;

afterEach(removeTempDirs);

function tools(fio: FakeCase): Record<string, FakeCase[]> {
  return {
    fio: [fio],
    losetup: [
      { args: LOSETUP_LIST, stdout: '' },
      { args: null, stdout: '/dev/loop9\n' },
    ],
    'mkfs.ext4': [{ args: null }],
    mount: [{ args: null }],
    umount: [{ args: null }],
    cryptsetup: [{ args: null }],
    // The mapping the fake cryptsetup "opened", as dmsetup shows a real LUKS2 mapping (captured table line).
    dmsetup: [
      {
        args: null,
        stdoutFixture: 'fixtures/dmsetup/crypt-luks2-keyring-allow-discards-sata-ssd/stdout.txt',
      },
    ],
  };
}

async function setup(fio: FakeCase) {
  fakes = removeAfterTest(await createFakeTools(tools(fio)));
  const host = withFakeMounts(
    createNodeHost(
      createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false, killGraceMs: 200 }),
    ),
    fakes,
  );
  const target = await tempDir('encplan-test-target-');
  const stateDirectory = await tempDir('encplan-test-state-');
  const events: ProgressEvent[] = [];
  const options = quickIoBenchmark(target, ['luks2'], ['rnd4k-q1t1-read', 'seq1m-q8t1-read'], {
    stateDirectory,
    onProgress: (event) => events.push(event),
  });
  return { host, target, stateDirectory, events, options };
}

describe('runIoBenchmark with fake tools', () => {
  it('measures plain and LUKS2 with identical fio jobs, reports progress, and leaves nothing behind', async () => {
    const { host, target, stateDirectory, events, options } = await setup({
      args: null,
      writeFiles: { '--output': FIO_FIXTURE },
    });
    const { result, warnings } = await runIoBenchmark(host, options);

    expect(ioBenchmarkSchema.parse(result)).toEqual(result);
    expect(warnings).toEqual([]);
    expect(result.encrypted.map((m) => m.variant)).toEqual(['luks2 sector 4096, no workqueues']);
    expect(result.encrypted[0]!.verification).toMatchObject({
      method: expect.stringMatching(/^dmsetup table encplan-bench-/),
      cipher: 'aes-xts-plain64',
    });
    expect(result.plain.verification).toBeUndefined();
    expect(result.overhead).toHaveLength(2);
    expect(result.overhead.every((row) => row.throughputRatio === 1 && row.bound === 'device')).toBe(true);
    const calls = await fakes!.calls();
    const fioCalls = calls.filter((call) => call.tool === 'fio');
    expect(fioCalls).toHaveLength(4);
    // Same job on both targets except for the directory and the output file.
    const normalise = (argv: string[]) =>
      argv.filter((arg) => !arg.startsWith('--filename=') && !arg.startsWith('--output='));
    expect(normalise(fioCalls[0]!.argv)).toEqual(normalise(fioCalls[2]!.argv));
    expect(fioCalls[0]!.argv).toContain('--output-format=json');
    expect(calls.filter((call) => call.tool === 'cryptsetup').map((call) => call.argv[0])).toEqual([
      'luksFormat',
      'open',
    ]);

    // Phases: prepare plain, 2 fio runs, prepare LUKS2, 2 fio runs, remove LUKS2, remove the scratch filesystem.
    expect(events.at(-1)).toMatchObject({ phase: 'done', fraction: 1, runCount: 8, etaMs: 0 });
    // Each fio run names its test; each finished profile is an event with its median and spread, as it ends
    // (the wizard's live chart applies the page-cache rule to them).
    const starts = events.filter((event) => event.phase === 'measure' && event.result === undefined);
    expect(starts.map((event) => event.test)).toEqual([
      { profile: 'SEQ1M Q8T1', direction: 'read', backend: 'plain', variant: 'plain' },
      { profile: 'RND4K Q1T1', direction: 'read', backend: 'plain', variant: 'plain' },
      expect.objectContaining({ profile: 'SEQ1M Q8T1', backend: 'luks2' }),
      expect.objectContaining({ profile: 'RND4K Q1T1', backend: 'luks2' }),
    ]);
    const finished = events.flatMap((event) => (event.result === undefined ? [] : [event.result]));
    expect(finished).toEqual(
      [result.plain, ...result.encrypted].flatMap((measured) =>
        measured.profiles.map((profile) => ({
          profile: profile.profile.label,
          direction: profile.profile.direction,
          backend: measured.backend,
          variant: measured.variant,
          bytesPerSecond: profile.summary.medianBytesPerSecond,
          minBytesPerSecond: profile.summary.minBytesPerSecond,
          maxBytesPerSecond: profile.summary.maxBytesPerSecond,
        })),
      ),
    );
    expect(events.every((event) => event.etaMs !== null)).toBe(true);
    expect(result.settings).toEqual({
      runtimeSeconds: 1,
      repeats: 1,
      fileSizeBytes: 64 * 2 ** 20,
      profileIds: ['seq1m-q8t1-read', 'rnd4k-q1t1-read'],
      quickRevision: 6,
      reductions: [
        expect.stringMatching(/^fio: 1 run of 1 s per profile/),
        'LUKS2: one variant (sector 4096, no workqueues) instead of four.',
      ],
    });
    expect(await readdir(target)).toEqual([]);
    expect(await readdir(stateDirectory)).toEqual([]);
  });

  it('stops fio and removes everything when aborted mid-run, then says CANCELLED', async () => {
    const { host, target, stateDirectory, options } = await setup({ args: null, sleepMs: 20_000 });
    const controller = new AbortController();
    const started = performance.now();
    const error = await runIoBenchmark(host, {
      ...options,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.phase === 'measure') {
          setTimeout(() => controller.abort(), 200);
        }
      },
    }).catch((e: unknown) => e);
    expect(isEncplanError(error, 'CANCELLED')).toBe(true);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await readdir(target)).toEqual([]);
    expect(await readdir(stateDirectory)).toEqual([]);
  });

  it('skips a backend whose setup fails with a warning in auto mode, and fails when it was the only backend asked for', async () => {
    fakes = removeAfterTest(
      await createFakeTools({
        ...tools({ args: null, writeFiles: { '--output': FIO_FIXTURE } }),
        cryptsetup: [
          {
            args: null,
            stderr: 'Cannot initialize device-mapper. Is dm_mod kernel module loaded?\n',
            exitCode: 1,
          },
        ],
      }),
    );
    const host = createNodeHost(createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false }));
    const target = await tempDir('encplan-test-target-');
    const stateDirectory = await tempDir('encplan-test-state-');
    const base = quickIoBenchmark(target, ['luks2'], ['rnd4k-q1t1-read'], { stateDirectory });
    const error = await runIoBenchmark(host, base).catch((e: unknown) => e);
    expect(isEncplanError(error, 'TOOL_FAILED')).toBe(true);
    const { result, warnings } = await runIoBenchmark(host, { ...base, backends: 'auto' });
    expect(result.skipped.map((s) => s.backend)).toEqual(['luks2']);
    expect(warnings[0]!.code).toBe('TOOL_FAILED');
    expect(await readdir(target)).toEqual([]);
  });

  it('refuses a target that is neither a directory nor a block device', async () => {
    const { host, target, options } = await setup({ args: null });
    const file = path.join(target, 'file');
    await writeFile(file, '');
    const error = await runIoBenchmark(host, { ...options, target: file }).catch((e: unknown) => e);
    expect(isEncplanError(error, 'INVALID_ARGUMENT')).toBe(true);
  });
});

describe('cleanupLeftovers', () => {
  it('removes what a killed run listed in its state file, detaching its loop device, and nothing merely named like it', async () => {
    const deadPid = 999_999;
    expect(() => process.kill(deadPid, 0)).toThrow();
    const stateDirectory = await tempDir('encplan-test-state-');
    const scan = await tempDir('encplan-test-scan-');
    // The work folder and image the captured losetup output names.
    const workDir = path.join(scan, `encplan-bench-${deadPid}-KJdS`);
    const image = path.join(workDir, 'image');
    let attached = true;
    // The captured losetup output, with its /tmp paths moved into this test's directory.
    const captured = (
      await readFile(
        path.join(REPO_ROOT, 'fixtures/losetup/list-json-encplan-loop-debian12-util-linux2.38/stdout.json'),
        'utf8',
      )
    ).replaceAll('"/tmp/', `"${scan}/`);
    fakes = removeAfterTest(
      await createFakeTools({
        losetup: [{ args: LOSETUP_LIST, stdout: captured }, { args: ['--detach', '/dev/loop1'] }],
      }),
    );
    const runner = createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false });
    const base = createNodeHost(runner);
    // After the detach the device is gone from the list, as on a real system.
    const host = {
      ...base,
      run: async (...args: Parameters<typeof base.run>) => {
        const output = await base.run(...args);
        if (args[0].args[0] === '--detach') {
          attached = false;
        }
        return args[0].args[0] === '--list' && !attached
          ? { ...output, stdout: '{"loopdevices":[]}' }
          : output;
      },
    };
    await mkdir(path.join(workDir, 'plain'), { recursive: true });
    await writeFile(path.join(workDir, 'plain.key'), 'k', { mode: 0o600 });
    await writeFile(image, '');
    const stray = path.join(scan, `encplan-bench-${deadPid}-stray`);
    await mkdir(stray);
    await writeFile(
      path.join(stateDirectory, `${deadPid}-1.json`),
      JSON.stringify({
        pid: deadPid,
        startedAt: '2026-11-21T00:00:00.000Z',
        pidNamespace: await readlink('/proc/self/ns/pid'),
        processStartTime: '1',
        resources: [
          { kind: 'directory', path: workDir },
          { kind: 'file', path: path.join(workDir, 'plain.key') },
          { kind: 'directory', path: path.join(workDir, 'plain') },
          { kind: 'file', path: image },
          { kind: 'loop-device', backingFile: image },
        ],
      }),
    );
    const report = await cleanupLeftovers(host, { stateDirectory });
    expect(report.stateFiles).toEqual([path.join(stateDirectory, `${deadPid}-1.json`)]);
    expect(report.outcomes.map((o) => [o.resource.kind, o.outcome])).toEqual([
      ['loop-device', 'removed'],
      ['file', 'removed'],
      ['directory', 'removed'],
      ['file', 'removed'],
      ['directory', 'removed'],
    ]);
    expect((await fakes.calls()).map((call) => call.argv)).toContainEqual(['--detach', '/dev/loop1']);
    expect(await readdir(scan)).toEqual([path.basename(stray)]);
    expect(await readdir(stateDirectory)).toEqual([]);
    await expect(stat(workDir)).rejects.toThrow();
  });
});
