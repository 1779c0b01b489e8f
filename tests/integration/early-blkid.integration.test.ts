import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';
import { createLoopStack, loopDeviceSkipReason, type LoopStack } from './support/loop-device.js';

// Issue 28: on a disk whose devices udev has no record of, the inventory asks blkid about the disk and each
// partition (lsblk has no types then). The early start (core node/early-disk-calls.ts `blkidDevices`) lists
// them from sysfs in lsblk's order and starts that very blkid before the core is imported; the probe takes it:
// one blkid, started before the core chunk loads, and the same output as without the early start.
// tests/support/spawn-order.mjs records module loads and child processes in order; the order is asserted,
// never a time.
const loopReason = loopDeviceSkipReason();
const skipReason = noteSkip(
  import.meta.url,
  loopReason ??
    (existsSync('/run/udev/data')
      ? 'udev runs here: lsblk has the types from its records, so blkid is asked after lsblk, not early'
      : null),
);
const hook = pathToFileURL(path.join(REPO_ROOT, 'tests/support/spawn-order.mjs')).href;

/** Whether the bundle file `load` names holds the core's assessment (rolldown names each module in a comment). */
function holdsCore(file: string): boolean {
  return readFileSync(file, 'utf8').includes('// packages/core/dist/use-cases/assess.js');
}

describe.skipIf(skipReason !== null)('assess LOOP: blkid starts early and the probe takes it (root)', () => {
  let stack: LoopStack;
  const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-early-blkid-'));
  beforeAll(() => {
    stack = createLoopStack({ sizeBytes: 128 * 1024 * 1024, partitionPercent: 50, mount: false });
    // A second partition after the first: blkid is asked about three devices, in lsblk's order.
    stack.run('sgdisk', ['-n', '2:0:0', stack.device]);
    stack.run('partx', ['-u', stack.device]);
  });
  afterAll(() => {
    stack?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it('one blkid of the disk and its partitions, spawned before the core loads; output as with ENCPLAN_EARLY=0', () => {
    const trace = path.join(work, 'trace.txt');
    const env = { XDG_CACHE_HOME: path.join(work, 'cache'), NODE_ENV: 'production' };
    const early = runCli(['assess', stack.device, '--json'], {
      stdin: 'ignore',
      env: { ...env, NODE_OPTIONS: `--import ${hook}`, ENCPLAN_SPAWN_TRACE: trace },
    });
    const events = readFileSync(trace, 'utf8').split('\n');
    const late = runCli(['assess', stack.device, '--json'], {
      stdin: 'ignore',
      env: { ...env, ENCPLAN_EARLY: '0' },
    });

    // Calls about the disk; `TOOL --version` (asked once per tool version, then cached) aside.
    const calls = events.filter((event) => event.startsWith('spawn ') && !event.endsWith(' --version'));
    const blkid = calls.filter((event) => /^spawn \S*\/blkid /.test(event));
    expect(blkid).toHaveLength(1);
    expect(blkid[0]?.replace(/^spawn \S*\/blkid /, 'blkid ')).toBe(
      `blkid -p -o export -- ${stack.device} ${stack.device}p1 ${stack.device}p2`,
    );
    const coreLoaded = events.findIndex(
      (event) => event.startsWith('load file:') && holdsCore(fileURLToPath(event.slice(5))),
    );
    expect(coreLoaded).toBeGreaterThan(events.indexOf(blkid[0] ?? ''));
    // lsblk, sfdisk, smartctl, systemctl and blkid: five, as without the early start.
    expect(calls.map((event) => /^spawn \S*\/(\S+)/.exec(event)?.[1]).sort()).toEqual([
      'blkid',
      'lsblk',
      'sfdisk',
      'smartctl',
      'systemctl',
    ]);

    const comparable = (stdout: string) =>
      stdout.replaceAll(/"(generatedAt|collectedAt)": "[^"]+"/g, '"$1": ""');
    expect(early.status).toBe(late.status);
    expect(comparable(early.stdout)).toBe(comparable(late.stdout));
    expect(early.stderr).toBe(late.stderr);
  });
});
