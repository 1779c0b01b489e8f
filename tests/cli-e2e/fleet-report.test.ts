import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'encplan-e2e-fleet-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A fetched tree as the Ansible playbook leaves it: one folder per inventory host.
const fetched = path.join(scratch, 'fetched');
for (const [machine, name] of [
  ['web1', 'loop-gpt-ext4-luks2-unallocated-debian12'],
  ['db1', 'virtio-system-disk-whole-ext4-debian12'],
  ['gone', 'error-device-not-found'],
] as const) {
  mkdirSync(path.join(fetched, machine), { recursive: true });
  copyFileSync(
    path.join(REPO_ROOT, 'fixtures/assessments', `${name}.json`),
    path.join(fetched, machine, 'assessment.json'),
  );
}
mkdirSync(path.join(fetched, 'broken'));
writeFileSync(path.join(fetched, 'broken', 'assessment.json'), '{"schema": "encplan.assessment", ');
const bundle = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');

function fleetSchemaErrors(document: unknown): string | null {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  const validate = ajv.compile(
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas/fleet-report.v1.json'), 'utf8')) as object,
  );
  return validate(document) ? null : ajv.errorsText(validate.errors);
}

describe('encplan fleet report', () => {
  it('prints one fleet envelope over folders and a bundle, valid against the committed schema', () => {
    const { status, stdout } = runCli(['fleet', 'report', fetched, bundle, '--json']);
    expect(status).toBe(0);
    const envelope = JSON.parse(stdout) as {
      schema: string;
      result: {
        summary: Record<string, number>;
        rows: { machine: string; readiness: string; documentStatus: string; disk: string | null }[];
      };
    };
    expect(fleetSchemaErrors(envelope)).toBeNull();
    expect(envelope.schema).toBe('encplan.fleet-report');
    expect(envelope.result.summary).toMatchObject({
      documents: 5,
      machines: 5,
      fixFirst: 3,
      notAssessed: 2,
      unusable: 1,
    });
    const byMachine = Object.fromEntries(envelope.result.rows.map((row) => [row.machine, row]));
    expect(byMachine['loop-gpt-ext4-78pct-debian12']).toMatchObject({
      disk: '/dev/loop0',
      documentStatus: 'valid',
    });
    expect(byMachine.broken).toMatchObject({ documentStatus: 'invalid', readiness: 'not-assessed' });
    expect(byMachine.gone).toMatchObject({ readiness: 'not-assessed' });
  });

  it('prints people text with the counts first and each plan one line below its disk', () => {
    const { status, stdout } = runCli(['fleet', 'report', fetched]);
    expect(status).toBe(0);
    expect(stdout.split('\n')[0]).toBe(
      '4 documents, 4 machines, 4 disks: 0 ready, 2 must fix first, 0 already encrypted, 0 without a plan, 2 not assessed.',
    );
    const lines = stdout.split('\n');
    const web1 = lines.findIndex((line) => line.startsWith('  web1  /dev/loop2'));
    expect(lines.slice(web1 + 1).find((line) => line.trimStart().startsWith('plan:'))).toContain(
      'aes-xts-plain64 512-bit',
    );
  });

  it('prints CSV and writes a self-contained HTML report', () => {
    const html = path.join(scratch, 'fleet.html');
    const { status, stdout } = runCli(['fleet', 'report', fetched, '--csv', '--html', html]);
    expect(status).toBe(0);
    expect(stdout.split('\r\n').filter((line) => line !== '')).toHaveLength(5);
    expect(readFileSync(html, 'utf8')).toMatch(/<svg aria-label="Disks by readiness, in disks" role="img"/);
  });

  it('reports macOS and Windows bundles and a collect --all bundle one row per disk, with a method policy', () => {
    const bundles = [
      'windows-de-win10-bitlocker-in-progress',
      'darwin-intel-catalina-filevault-disk1s5',
      'machine-all-loops-and-virtio-node-missing-debian12',
    ].map((name) => path.join(REPO_ROOT, 'fixtures/bundles', name));
    const html = path.join(scratch, 'platforms.html');
    const { status, stdout } = runCli([
      'fleet',
      'report',
      ...bundles,
      '--require-method',
      'xts-aes-256',
      '--json',
      '--html',
      html,
    ]);
    expect(status).toBe(0);
    const envelope = JSON.parse(stdout) as {
      schemaVersion: number[];
      result: {
        summary: Record<string, unknown>;
        rows: { machine: string; disk: string; platform: string; readiness: string; issues: string }[];
      };
    };
    expect(fleetSchemaErrors(envelope)).toBeNull();
    expect(envelope.schemaVersion).toEqual([1, 4]);
    expect(envelope.result.summary).toMatchObject({
      documents: 3,
      machines: 3,
      disks: 6,
      // /dev/loop2 failed: a row without a platform.
      platforms: { linux: 3, darwin: 1, win32: 1 },
    });
    const windows = envelope.result.rows.find((row) => row.platform === 'win32');
    expect(windows).toMatchObject({ readiness: 'fix-first', issues: 'method-mismatch' });
    expect(envelope.result.rows.find((row) => row.platform === 'darwin')).toMatchObject({
      readiness: 'already-encrypted',
    });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('@media (prefers-color-scheme:dark)');
    expect(page).toContain('@media print');
    expect(page).toContain('Policy: encryption method xts-aes-256.');
  });

  it('refuses an HTML file it cannot write before printing any row', () => {
    const html = path.join(scratch, 'no-such-folder', 'fleet.html');
    const { status, stdout } = runCli(['fleet', 'report', fetched, '--json', '--html', html]);
    expect(status).not.toBe(0);
    // One error envelope, not rows followed by an error.
    expect(JSON.parse(stdout)).toMatchObject({
      schema: 'encplan.fleet-report',
      status: 'error',
      result: null,
    });
  });

  it('refuses a path that does not exist with INVALID_ARGUMENT', () => {
    const { status, stdout } = runCli(['fleet', 'report', path.join(scratch, 'nope'), '--json']);
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({
      schema: 'encplan.fleet-report',
      status: 'error',
      error: { code: 'INVALID_ARGUMENT' },
    });
  });
});
