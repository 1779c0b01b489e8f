import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';

/*
 * Issue 26 item 7, "docs/fleet.md works as written": the page's `encplan fleet report` block (CSV into SQLite,
 * JSON into jq) is extracted and run by bash as written, in a folder holding a fetched tree of real documents
 * (Linux, a failing drive, Windows, macOS), with encplan on the PATH as an installed release puts it. The
 * Ansible blocks of the page run in tests/integration/fleet/ansible-fleet.integration.test.ts.
 */

const MARKER = '<!-- tests/cli-e2e/fleet-docs.test.ts runs the next block as written';

/** The `sh` block right after this test's marker in docs/fleet.md. */
function documentedBlock(): string {
  const text = readFileSync(path.join(REPO_ROOT, 'docs/fleet.md'), 'utf8');
  const marker = text.indexOf(MARKER);
  expect(marker).toBeGreaterThan(0);
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(text.slice(marker));
  expect(block).not.toBeNull();
  return block?.[1] ?? '';
}

const missing = ['bash', 'sqlite3', 'jq'].filter(
  (tool) => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool]).status !== 0,
);
const reason = noteSkip(
  import.meta.url,
  missing.length === 0 ? null : `needs ${missing.join(', ')} (apt-get install sqlite3 jq)`,
);

describe.skipIf(reason !== null)("docs/fleet.md's fleet report block, run as written", () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'encplan-fleet-docs-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('writes the CSV SQLite counts, and jq names the machine whose drive is failing', () => {
    // The fetched tree the collection leaves: one folder per host.
    for (const [machine, source] of [
      ['web1', 'assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'],
      ['db1', 'bundles/loop-gpt-ext4-78pct-smart-realloc304-composed'],
      ['win1', 'bundles/windows-win11-bc901-bitlocker-xtsaes128'],
      ['mac1', 'assessments-1.3/darwin-intel-catalina-filevault-disk1s5-assessment-1.3.json'],
    ] as const) {
      mkdirSync(path.join(folder, 'fetched', machine), { recursive: true });
      cpSync(
        path.join(REPO_ROOT, 'fixtures', source),
        path.join(folder, 'fetched', machine, path.basename(source)),
        {
          recursive: true,
        },
      );
    }
    // `encplan` on the PATH, as the release's bin/encplan is once installed: the built CLI with this Node.
    const bin = path.join(folder, 'bin');
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, 'encplan'),
      `#!/bin/sh\nexec '${process.execPath}' '${path.join(REPO_ROOT, 'packages/cli/bin/run.js')}' "$@"\n`,
    );
    chmodSync(path.join(bin, 'encplan'), 0o755);
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', documentedBlock()], {
      cwd: folder,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    // sqlite3's counts per readiness, then jq's machines with a failing drive.
    expect(run.stdout.trim().split('\n')).toEqual(['already-encrypted|2', 'fix-first|2', 'db1']);
    const csv = readFileSync(path.join(folder, 'fleet.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/^source,machine,disk,platform,/);
    expect(csv.filter((line) => line !== '')).toHaveLength(5);
  });
});
