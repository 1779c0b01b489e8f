import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';

// scripts/test-summary.mjs ends every run of scripts/test.sh: each skipped test with why, then the line CI reads.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-summary-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function report(file: string, tests: { fullName: string; title: string; status: string }[]): unknown {
  const count = (status: string): number => tests.filter((test) => test.status === status).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped'),
    numTodoTests: 0,
    testResults: [{ name: path.join(REPO_ROOT, file), assertionResults: tests }],
  };
}

function summary(): { status: number | null; lines: string[] } {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/test-summary.mjs')], {
    encoding: 'utf8',
    env: { ...process.env, ENCPLAN_TEST_ARTIFACTS: work },
  });
  return { status: result.status, lines: result.stdout.trimEnd().split('\n') };
}

describe('scripts/test-summary.mjs', () => {
  it('lists every skipped test with the reason recorded for its file or for the test itself', () => {
    writeFileSync(
      path.join(work, 'vitest-integration.json'),
      JSON.stringify(
        report('tests/integration/a.test.ts', [
          { fullName: 'suite one', title: 'one', status: 'passed' },
          { fullName: 'suite two', title: 'two', status: 'skipped' },
          { fullName: 'suite three', title: 'three', status: 'skipped' },
        ]),
      ),
    );
    writeFileSync(
      path.join(work, 'skip-reasons.jsonl'),
      [
        { file: 'tests/integration/a.test.ts', reason: 'not root' },
        { file: 'tests/integration/a.test.ts', test: 'three', reason: 'needs device-mapper' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const { status, lines } = summary();
    expect(status).toBe(0);
    expect(lines).toEqual([
      'integration: 1 passed, 0 failed, 2 skipped',
      'skipped tests (2), each with why:',
      '  integration · tests/integration/a.test.ts › suite two',
      '      why: not root',
      '  integration · tests/integration/a.test.ts › suite three',
      '      why: needs device-mapper',
      'tests: 1 passed, 0 failed, 2 skipped',
    ]);
  });

  it('says when a skipped test recorded no reason, and fails a run with a failure', () => {
    rmSync(path.join(work, 'skip-reasons.jsonl'));
    writeFileSync(
      path.join(work, 'vitest-integration.json'),
      JSON.stringify(
        report('tests/integration/a.test.ts', [
          { fullName: 'x', title: 'x', status: 'failed' },
          { fullName: 'y', title: 'y', status: 'skipped' },
        ]),
      ),
    );
    const { status, lines } = summary();
    expect(status).toBe(1);
    expect(lines.join('\n')).toContain('why: no reason recorded');
    expect(lines.at(-1)).toBe('tests: 0 passed, 1 failed, 1 skipped');
  });
});
