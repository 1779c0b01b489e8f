import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';

// A flag that means something only with another is refused without it (oclif `dependsOn`, exit 2), never
// accepted in silence: `assess --quick` without --benchmark ran no benchmark at all. The direct path of `assess`
// leaves these lines to oclif (tests/cli-e2e/assess-direct.test.ts compares both), so the message is oclif's.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-depends-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const disk = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');

const REFUSED: readonly (readonly [readonly string[], string, string])[] = [
  [['assess', '--bundle', disk, '--quick'], '--quick', '--benchmark'],
  [['assess', '--bundle', disk, '--scratch', work, '--json'], '--scratch', '--benchmark'],
  [['collect', '--out', path.join(work, 'bundle'), '--quick'], '--quick', '--benchmark'],
  [['collect', '--out', path.join(work, 'bundle'), `--scratch=${work}`], '--scratch', '--benchmark'],
  [['assess', '--bundle', disk, '--target-spare-base', 'raw'], '--target-spare-base', '--target-spare'],
  [['plan', '--input', disk, '--target-spare-base', 'raw'], '--target-spare-base', '--target-spare'],
  [['benchmark', 'io', work, '--yes'], '--yes', '--destructive'],
];

describe.each([
  ['the direct path', {}],
  ['oclif (ENCPLAN_DIRECT=0)', { ENCPLAN_DIRECT: '0' }],
])('%s', (_, env: NodeJS.ProcessEnv) => {
  it.each(
    REFUSED.map(([args, flag, needed]) => ({
      line: args.join(' ').replaceAll(REPO_ROOT, '').replaceAll(work, 'DIR'),
      args,
      flag,
      needed,
    })),
  )('$line: exit 2, $flag needs $needed, nothing run', ({ args, flag, needed }) => {
    const run = runCli(args, { env, stdin: 'ignore' });
    expect(run.status).toBe(2);
    const message = `All of the following must be provided when using ${flag}: ${needed}`;
    if (args.includes('--json')) {
      // The error envelope, as for every usage error (exit 2, INVALID_ARGUMENT).
      expect(JSON.parse(run.stdout)).toMatchObject({
        status: 'error',
        error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining(message) },
      });
    } else {
      expect(run.stderr).toContain(message);
    }
    expect(readdirSync(work)).toEqual([]);
  });

  it('with the flag it depends on, the flag is taken', () => {
    const run = runCli(
      ['assess', '--bundle', disk, '--target-spare', '10', '--target-spare-base', 'raw', '--json'],
      { env, stdin: 'ignore' },
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: null });
  });
});
