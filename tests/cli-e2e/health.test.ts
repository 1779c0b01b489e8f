import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { driveSummarySchema, healthSchema } from '@encplan/core';
import { REPO_ROOT } from '../support/fake-tools.js';

const BIN = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'encplan-e2e-health-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function encplan(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function fixture(caseName: string): string {
  return path.join(REPO_ROOT, 'fixtures/smartctl', caseName, 'stdout.json');
}

describe('encplan health FILE.json', () => {
  it('prints the failing verdict first and cites the attribute and threshold of the finding', () => {
    const { code, stdout } = encplan('health', fixture('sata-hdd-seagate-st3500418as-realloc304-v7.3'));
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    // The health section of `encplan assess`, under a line naming the drive.
    expect(lines[0]).toBe('encplan health: ST3500418AS (ATA, smartctl 7.3)');
    expect(lines[2]).toBe('Drive health: failing (PROBLEM)');
    expect(stdout).toContain('304 sectors were reallocated');
    expect(stdout).toContain('[smartctl: ata_smart_attributes.table[id=5].raw; rule raw >= 16');
  });

  it('prints one JSON envelope whose result validates against the health schema', () => {
    const { code, stdout } = encplan(
      'health',
      fixture('nvme-intel-dc-p4500-2tb-ssdpe2kx020t7-worn75pct-v7.3'),
      '--json',
    );
    expect(code).toBe(0);
    const envelope = JSON.parse(stdout);
    expect(envelope).toMatchObject({
      schema: 'encplan.health',
      schemaVersion: [1, 2],
      status: 'ok',
      error: null,
    });
    expect(healthSchema.parse(envelope.result)).toMatchObject({ verdict: 'healthy', percentageUsed: 75 });
    expect(driveSummarySchema.parse(envelope.result.drive)).toMatchObject({
      media: 'ssd',
      mediaReason: 'NVMe',
      trim: { supported: null, mechanism: 'unknown' },
    });
  });

  it('reports an open failure as partial with a SMART_UNAVAILABLE warning and exit 0', () => {
    const { code, stdout } = encplan('health', fixture('error-open-failed-windows-exit2-v7.0'), '--json');
    expect(code).toBe(0);
    const envelope = JSON.parse(stdout);
    expect(envelope.status).toBe('partial');
    expect(envelope.result.verdict).toBe('unknown');
    expect(envelope.warnings[0].code).toBe('SMART_UNAVAILABLE');
  });

  it('gives a usage error for a missing file and TOOL_OUTPUT_UNRECOGNIZED for JSON that is not smartctl', () => {
    const missing = encplan('health', path.join(scratch, 'nope.json'), '--json');
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe('INVALID_ARGUMENT');
    const other = path.join(scratch, 'other.json');
    writeFileSync(other, '{"json_format_version":[2,0]}');
    const unknown = encplan('health', other);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('format version 2.0 is not supported');
    expect(unknown.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('lists the devices of a smartctl --scan output and says to run health per device', () => {
    const scan = path.join(REPO_ROOT, 'fixtures/smartctl-scan/linux-three-devices-v7.4/stdout.json');
    const { code, stderr } = encplan('health', scan);
    expect(code).toBe(3);
    expect(stderr).toContain('lists 3 devices (/dev/sda (sat), /dev/nvme0 (nvme), /dev/nvme1 (nvme))');
    expect(stderr).toContain(
      'smartctl --json=v -x -d nvme /dev/nvme0 > nvme0.json; encplan health nvme0.json',
    );
    const json = encplan('health', scan, '--json');
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'TOOL_OUTPUT_UNRECOGNIZED',
      details: { scan: true, devices: [{ name: '/dev/sda', type: 'sat', protocol: 'ATA' }, {}, {}] },
    });
  });

  it('refuses a directory with a clear message', () => {
    const { code, stderr } = encplan('health', scratch);
    expect(code).toBe(2);
    expect(stderr).toContain('is a directory, not a regular file');
  });

  it('says whether the drive is an SSD or an HDD and whether it can TRIM', () => {
    const ssd = encplan('health', fixture('sata-ssd-samsung-pm883-1.9tb-v7.3'));
    expect(ssd.stdout).toMatch(/^ {2}Media +SSD \(rotation rate 0 \(Solid State Device\)\)/m);
    expect(ssd.stdout).toMatch(/^ {2}TRIM +supported \(deterministic reads after TRIM/m);
    const hdd = encplan('health', fixture('sata-hdd-wdc-red-wd20efrx-v7.3'));
    expect(hdd.stdout).toMatch(/^ {2}Media +HDD \(spinning disk\) \(rotation rate 5400 rpm\)/m);
  });

  // A drive the health judges failing (304 reallocated sectors), one it judges healthy, one it cannot judge.
  const VERDICT_FIXTURES = {
    failing: 'sata-hdd-seagate-st3500418as-realloc304-v7.3',
    healthy: 'nvme-sabrent-rocket4-1tb-v7.4',
    unknown: 'error-open-failed-windows-exit2-v7.0',
  } as const;
  it.each([
    { verdict: 'failing', flags: '--fail-on warning', code: 5 },
    { verdict: 'failing', flags: '--fail-on failing', code: 5 },
    { verdict: 'healthy', flags: '--fail-on warning', code: 0 },
    { verdict: 'unknown', flags: '--fail-on warning', code: 0 },
    { verdict: 'unknown', flags: '--fail-on-unknown', code: 5 },
    { verdict: 'healthy', flags: '--fail-on-unknown', code: 0 },
  ] as const)('a $verdict drive with $flags exits $code', ({ verdict, flags, code }) => {
    const run = encplan('health', fixture(VERDICT_FIXTURES[verdict]), '--json', ...flags.split(' '));
    expect(run.code).toBe(code);
    expect(JSON.parse(run.stdout).schema).toBe('encplan.health');
    if (code === 5) {
      expect(run.stderr).toMatch(/encplan: health: the drive is (failing|unknown) \(--fail-on/);
    }
  });
});
