import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createFakeTools, REPO_ROOT, type FakeCase } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';
import { assessWithFakeTools, NO_READABLE_WHOLE_DISK, readableWholeDisk } from '../support/whole-disk.js';

// Issue 28: `assess DEVICE` starts the disk's first read-only calls (lsblk, sfdisk, smartctl, systemctl) before
// the core is imported (packages/cli/src/direct.ts, core node/early-disk-calls.ts); the runner hands each to the
// probe that asks it. tests/support/spawn-order.mjs records module loads and child processes in the order they
// happened: the order is asserted, never a time. The device only has to be a whole disk this user may read (an
// unattached loop device will do): the fake tools answer for it.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-early-start-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const hook = pathToFileURL(path.join(REPO_ROOT, 'tests/support/spawn-order.mjs')).href;

const disk = readableWholeDisk();
const skipReason = noteSkip(import.meta.url, disk === undefined ? NO_READABLE_WHOLE_DISK : null);

/** Whether the bundle file `load` names holds the core's assessment (rolldown names each module in a comment). */
function holdsCore(file: string): boolean {
  return readFileSync(file, 'utf8').includes('// packages/core/dist/use-cases/assess.js');
}

/** What the processes whose command line names `folder` are (none once every fake tool was reaped). */
function processesOf(folder: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return line.includes(folder) ? [line] : [];
      } catch {
        return [];
      }
    });
}

async function assessWith(
  args: readonly string[],
  cases: Record<string, readonly FakeCase[]>,
  env: NodeJS.ProcessEnv,
) {
  const { run, lines, fakes } = await assessWithFakeTools(
    args,
    cases,
    { work, hook, variable: 'ENCPLAN_SPAWN_TRACE' },
    env,
  );
  const left = processesOf(fakes.binDir);
  await fakes.remove();
  return { run, events: lines, left, binDir: fakes.binDir };
}

describe.skipIf(skipReason !== null)(
  'assess DEVICE: the first calls start before the core is imported',
  () => {
    const device = disk ?? '';
    const lsblkArgs = ['--json', '--bytes', '-O', '--', device];
    // lsblk refuses the disk: the run ends after it, and never asks sfdisk, smartctl nor systemctl, which would
    // run for 30 s if they were not ended.
    const cases: Record<string, readonly FakeCase[]> = {
      lsblk: [
        { args: lsblkArgs, stderr: `lsblk: ${device}: not a block device\n`, exitCode: 32 },
        { args: null, stdout: 'lsblk from util-linux 2.38.1\n' },
      ],
      // Deaf to SIGTERM: only the early start's SIGKILL ends them (encplan's exit hook sends SIGTERM).
      sfdisk: [{ args: null, sleepMs: 30_000, ignoreSigterm: true }],
      smartctl: [{ args: null, sleepMs: 30_000, ignoreSigterm: true }],
      systemctl: [{ args: null, sleepMs: 30_000, ignoreSigterm: true }],
    };

    it('spawns lsblk before the core chunk loads, hands it to the probe (one lsblk), kills and reaps the calls never asked; prints what a run without the early start prints', async () => {
      const early = await assessWith([device], cases, {});
      const late = await assessWith([device], cases, { ENCPLAN_EARLY: '0' });
      const spawns = (events: string[], binDir: string) =>
        events
          .filter((event) => event.startsWith(`spawn ${binDir}/`))
          .map((event) => event.slice(`spawn ${binDir}/`.length));
      const coreLoaded = (events: string[]) =>
        events.findIndex(
          (event) => event.startsWith('load file:') && holdsCore(fileURLToPath(event.slice(5))),
        );

      const started = spawns(early.events, early.binDir);
      expect(started).toEqual([
        `lsblk ${lsblkArgs.join(' ')}`,
        `sfdisk --json -- ${device}`,
        `smartctl --json=v -x --nocheck=standby -- ${device}`,
        expect.stringMatching(/^systemctl (is-enabled|show) fstrim\.timer/),
      ]);
      const firstSpawn = early.events.findIndex((event) => event.startsWith(`spawn ${early.binDir}/lsblk`));
      expect(coreLoaded(early.events)).toBeGreaterThan(firstSpawn);
      expect(early.left).toEqual([]);

      // Without the early start: lsblk alone, once the core is loaded.
      expect(spawns(late.events, late.binDir)).toEqual([`lsblk ${lsblkArgs.join(' ')}`]);
      const lateSpawn = late.events.findIndex((event) => event.startsWith(`spawn ${late.binDir}/lsblk`));
      expect(lateSpawn).toBeGreaterThan(coreLoaded(late.events));

      const comparable = (stdout: string) => stdout.replace(/"generatedAt": "[^"]+"/, '"generatedAt": ""');
      expect(early.run.status).toBe(late.run.status);
      expect(comparable(early.run.stdout)).toBe(comparable(late.run.stdout));
      expect(early.run.stderr).toBe(late.run.stderr);
      expect(JSON.parse(early.run.stdout)).toMatchObject({ status: 'error', error: { code: 'TOOL_FAILED' } });
    });

    it('starts nothing early for a path that is not a readable whole disk with data, nor for a bundle', async () => {
      const bundle = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
      // An unbound loop device (size 0) is refused before any call.
      const empty = readdirSync('/sys/block').find(
        (name) => /^loop\d+$/.test(name) && readFileSync(`/sys/block/${name}/size`, 'utf8').trim() === '0',
      );
      const lines = [['/dev/encplan-test-no-such-disk'], [device, '--bundle', bundle]];
      for (const args of empty === undefined ? lines : [...lines, [`/dev/${empty}`]]) {
        const run = await assessWith(args, cases, {});
        expect({
          args,
          spawned: run.events.filter((event) => event.startsWith(`spawn ${run.binDir}/`)),
        }).toEqual({
          args,
          spawned: [],
        });
        expect(run.left).toEqual([]);
      }
    });

    it('Ctrl-C while the early calls run: exit 130, every one of them ended', async () => {
      const sleeping: FakeCase[] = [{ args: null, sleepMs: 30_000 }];
      const fakes = await createFakeTools({
        lsblk: sleeping,
        sfdisk: sleeping,
        smartctl: sleeping,
        systemctl: sleeping,
      });
      const child = spawn(
        process.execPath,
        [path.join(REPO_ROOT, 'packages/cli/bin/run.js'), 'assess', device],
        {
          stdio: ['ignore', 'ignore', 'ignore'],
          env: { ...process.env, PATH: `${fakes.binDir}${path.delimiter}${process.env.PATH ?? ''}` },
        },
      );
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      // Once the four have started (each records its call first), the user presses Ctrl-C.
      while ((await fakes.calls()).length < 4) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGINT');
      expect(await exited).toEqual([130, null]);
      while (processesOf(fakes.binDir).length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(processesOf(fakes.binDir)).toEqual([]);
      await fakes.remove();
    });
  },
);
