import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';

// A disk, a file or a folder is taken from the command line only. oclif reads an argument not given from stdin
// (@oclif/core 5 parser/parse.js `tryStdin`): `echo /dev/sdb | encplan assess` assessed /dev/sdb, a disk the
// command line never named. Every argument now has `ignoreStdin` (packages/cli/src/disk-command.ts), and the
// direct path (packages/cli/src/direct.ts) reads the same from the manifest. Both paths: ENCPLAN_DIRECT=0 is oclif.
const disk = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
const piped = '/dev/encplan-test-no-such-disk';
const smartctl = path.join(
  REPO_ROOT,
  'fixtures/smartctl/sata-hdd-seagate-st3500418as-realloc304-v7.3/stdout.json',
);

// oclif waits 10 ms for stdin to end (parse.js `readStdin`, OCLIF_STDIN_TIMEOUT_MS): on a busy machine it may give
// up before the pipe's end arrives, so these runs give it 5 s, and a read of stdin would certainly find the name.
const waitForStdin = { OCLIF_STDIN_TIMEOUT_MS: '5000' };

describe.each([
  ['the direct path', waitForStdin],
  ['oclif (ENCPLAN_DIRECT=0)', { ...waitForStdin, ENCPLAN_DIRECT: '0' }],
])('%s', (_, env: NodeJS.ProcessEnv) => {
  it('assess: a device name on stdin is not the device; the bundle the command line names is assessed', () => {
    const run = runCli(['assess', '--bundle', disk, '--json'], { env, input: `${piped}\n` });
    // Before: the piped name was the device, refused next to --bundle (exit 2).
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).not.toContain(piped);
    expect(JSON.parse(run.stdout)).toMatchObject({ schema: 'encplan.assessment', error: null });
  });

  it('health: a file name on stdin is no file given (exit 2, the argument it needs)', () => {
    const run = runCli(['health'], { env, input: `${smartctl}\n` });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Missing 1 required arg');
    expect(run.stderr).toContain('file');
    expect(run.stdout).toBe('');
  });
});
