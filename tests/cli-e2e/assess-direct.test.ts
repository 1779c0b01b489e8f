import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bothPaths } from '../support/direct-compare.js';
import { REPO_ROOT } from '../support/fake-tools.js';

// Issue 28: `encplan assess …` runs without oclif where packages/cli/src/direct.ts is sure oclif would do the
// same, and prints exactly what oclif prints (timestamps aside), with the same exit code; everything else is
// oclif's. Each command line runs both ways (ENCPLAN_DIRECT=0 is oclif always). The live loop-device runs are
// in tests/integration/assess-direct.integration.test.ts.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-direct-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const disk = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
const machine = path.join(REPO_ROOT, 'fixtures/bundles/machine-all-loops-and-virtio-node-missing-debian12');
const missing = '/dev/encplan-test-no-such-disk';

/** [command line, whether the direct path runs it]. */
const CASES: readonly (readonly [readonly string[], boolean])[] = [
  [['assess', '--bundle', disk, '--json'], true],
  [['assess', '--bundle', disk], true],
  [['assess', `--bundle=${disk}`, '--commands', '--destructive'], true],
  [['assess', '--bundle', disk, '--fail-on', 'warning', '--fail-on-unknown', '--json'], true],
  [['assess', '--bundle', disk, '-v', '--target', 'veracrypt', '--threat-model', 'targeted'], true],
  [['assess', '--bundle', disk, '--entropy-bits', '40', '50', '--json'], true],
  // oclif hands the words after a multiple flag to it: the device is an entropy value (exit 2 both ways).
  [['assess', '--bundle', disk, '--entropy-bits', '40', missing, '--json'], true],
  [['assess', '--bundle', disk, '--unlock-time', 'abc', '--json'], true],
  [['assess', '--bundle', disk, '--target-spare', '10', '--target-spare-base', 'raw', '--json'], true],
  [['assess', missing, '--bundle', disk, '--json'], true],
  [['assess', '--all', '--bundle', machine, '--json'], true],
  [['assess', '--all', '--bundle', machine], true],
  [['assess', missing, '--json'], true],
  [['assess', missing], true],
  // What only oclif answers: its messages and exit codes.
  [['assess', '--jsno', missing], false],
  [['assess', missing, '--bogus', '--json'], false],
  [['assess', '--html'], false],
  [['assess', missing, '--html'], false],
  [['assess', '--fail-on', 'bad', missing], false],
  [['assess', '--fail-on', 'bad', '--json'], false],
  [['assess', '--target', 'luks2', '--target', 'veracrypt', missing], false],
  [['asses', missing], false],
  [['assess', missing, 'extra'], false],
  [['assess', '--json=true', missing], false],
  [['assess', missing, '--', '--json'], false],
  [['assess', missing, '--no-json'], false],
  [['assess', '-vx', missing], false],
  [['assess', '--label', '-x', missing, '--json'], false],
  [['assess', missing, '-h'], false],
  // A flag without the one it depends on (--benchmark has no default, which oclif would count as given).
  [['assess', '--bundle', disk, '--quick', '--json'], false],
  [['assess', '--bundle', disk, '--scratch', '.'], false],
  [['assess', '--bundle', disk, '--target-spare-base', 'raw', '--json'], false],
];

describe('encplan assess: the direct path prints what oclif prints', () => {
  it.each(
    CASES.map(([args, direct]) => ({
      line: args.map((arg) => (arg.startsWith(REPO_ROOT) ? path.basename(arg) : arg)).join(' '),
      args,
      direct,
    })),
  )('$line: same status, stdout and stderr', ({ args, direct }) => {
    const runs = bothPaths(args, path.join(work, 'trace.txt'));
    expect({ args, direct: runs.direct }).toEqual({ args, direct });
    expect(runs.user).toEqual(runs.oclif);
  });

  it('oclif answers what the direct path cannot be sure of: user plugins, DEBUG', () => {
    const trace = path.join(work, 'trace.txt');
    const data = path.join(work, 'data');
    mkdirSync(data);
    writeFileSync(path.join(data, 'package.json'), '{"private":true,"oclif":{"plugins":[]}}\n');
    const args = ['assess', '--bundle', disk, '--json'];
    for (const runs of [
      bothPaths(args, trace, { ENCPLAN_DATA_DIR: data }),
      bothPaths(args, trace, { DEBUG: 'nothing-that-matches' }),
    ]) {
      expect(runs.direct).toBe(false);
      expect(runs.user).toEqual(runs.oclif);
    }
    // stdin is never read for the device (ignoreStdin), so a pipe changes nothing, with a device or without.
    expect(bothPaths(['assess', missing, '--json'], trace, {}, 'pipe').direct).toBe(true);
    const piped = bothPaths(args, trace, {}, 'pipe');
    expect(piped.direct).toBe(true);
    expect(piped.user).toEqual(piped.oclif);
  });
});
