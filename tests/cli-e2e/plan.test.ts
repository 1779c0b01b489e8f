import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planDocument } from '@encplan/core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'packages/cli/bin/run.js');
const fixture = (name: string) => path.join(ROOT, 'fixtures/plan-inputs', `${name}.json`);

function encplan(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The laptop's plan with extra flags, as a parsed envelope. */
function laptopPlan(...flags: string[]) {
  const run = encplan('plan', '--input', fixture('x64-aesni-laptop-nvme'), ...flags, '--json');
  expect(run.status).toBe(0);
  return planDocument.envelope.parse(JSON.parse(run.stdout));
}

describe('encplan plan (built binary)', () => {
  it('prints one valid plan envelope with --json', () => {
    const run = encplan('plan', '--input', fixture('x64-aesni-laptop-nvme'), '--json');
    expect(run.status).toBe(0);
    const envelope = planDocument.envelope.parse(JSON.parse(run.stdout));
    expect(envelope).toMatchObject({
      schema: 'encplan.plan',
      status: 'ok',
      result: { settings: { cipher: 'aes-xts-plain64', sectorSizeBytes: 4096 } },
    });
  });

  it('leads the human report with the verdict of the health gate and ends with the script', () => {
    const run = encplan('plan', '--input', fixture('sata-failing-realloc304-seagate'));
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^encplan plan for \/dev\/sda/);
    // The plan part of the assessment report: the same verdict line as `encplan assess`.
    expect(run.stdout.indexOf('STOP  Back up first')).toBeGreaterThan(-1);
    expect(run.stdout.indexOf('STOP  Back up first')).toBeLessThan(
      run.stdout.indexOf('Why: each recommendation and its evidence'),
    );
    expect(run.stdout).toContain('#!/bin/sh');
  });

  it('marks data-destroying commands in the text and leaves them commented out unless --destructive', () => {
    const input = path.join(ROOT, 'fixtures/assessments/loop-empty-debian12.json');
    const safe = encplan('plan', '--input', input);
    expect(safe.status).toBe(0);
    expect(safe.stdout).toMatch(/^ {2}# DESTROYS DATA$/m);
    expect(safe.stdout).toMatch(/^ {2}# cryptsetup luksFormat /m);
    expect(safe.stdout).not.toMatch(/^ {2}(sgdisk|cryptsetup|mkfs\S*) /m);
    const live = encplan('plan', '--input', input, '--destructive');
    expect(live.stdout).toMatch(/^ {2}# DESTROYS DATA: this line runs \(--destructive was given\)\.$/m);
    expect(live.stdout).toMatch(/^ {2}cryptsetup luksFormat /m);
  });

  it.each([
    {
      name: 'exits 5 for a failing drive with --fail-on failing',
      input: 'sata-failing-realloc304-seagate',
      threshold: 'failing',
      status: 5,
    },
    {
      name: 'exits 5 for a failing drive with --fail-on warning',
      input: 'sata-failing-realloc304-seagate',
      threshold: 'warning',
      status: 5,
    },
    {
      name: 'exits 0 for a healthy drive with --fail-on warning',
      input: 'x64-aesni-laptop-nvme',
      threshold: 'warning',
      status: 0,
    },
    { name: 'exits 0 when health is unknown', input: 'arm64-aes-rpi5', threshold: 'warning', status: 0 },
    {
      name: 'exits 5 when health is unknown and --fail-on-unknown is given',
      input: 'arm64-aes-rpi5',
      threshold: 'warning',
      status: 5,
      unknownFails: true,
    },
  ])('$name', ({ input, threshold, status, unknownFails }) => {
    const run = encplan(
      'plan',
      '--input',
      fixture(input),
      '--fail-on',
      threshold,
      '--json',
      ...(unknownFails === true ? ['--fail-on-unknown'] : []),
    );
    expect(run.status).toBe(status);
    expect(planDocument.envelope.safeParse(JSON.parse(run.stdout)).success).toBe(true);
  });

  it('prints only the script with --commands, destructive lines commented out unless --destructive', () => {
    // A bundle states the disk's usage and free space: a partial input without them gets no format command.
    const bundle = 'fixtures/bundles/loop-gpt-ext4-78pct-debian12';
    const safe = encplan('plan', '--bundle', bundle, '--commands');
    const full = encplan('plan', '--bundle', bundle, '--commands', '--destructive');
    expect(safe.stdout.startsWith('#!/bin/sh\n')).toBe(true);
    // Its ext4 partition holds data: the in-place strategy's reencrypt, commented out without --destructive.
    expect(safe.stdout).toMatch(/^# cryptsetup reencrypt --encrypt /m);
    expect(safe.stdout).not.toMatch(/^cryptsetup /m);
    expect(full.stdout).toMatch(/^cryptsetup reencrypt --encrypt /m);
  });

  it('plans for a weaker unlocking machine given by flags', () => {
    const envelope = laptopPlan('--unlock-memory', '1GiB', '--unlock-cores', '2');
    // A quarter of the 1 GiB unlocking machine (issue 11: half of RAM got luksFormat OOM-killed).
    expect(envelope.result?.settings.luks2Pbkdf).toMatchObject({ memoryKiB: 262_144, parallel: 2 });
  });

  it('plans VeraCrypt with --target and a PIM honouring the password length', () => {
    const envelope = laptopPlan('--target', 'veracrypt', '--unlock-time', '100');
    expect(envelope.result?.settings.veracrypt?.pim).toBe(485);
  });

  it('accepts --target luks2-opal and, with no sedutil reading of the drive, plans no command and says why', () => {
    const envelope = laptopPlan('--target', 'luks2-opal');
    expect(envelope.result?.targetTool).toBe('luks2-opal');
    expect(envelope.result?.commands).toEqual([]);
    expect(envelope.result?.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'target-admission', severity: 'critical' }),
    );
  });

  it.each([
    { name: 'a missing input file', args: ['--input', '/nonexistent/plan-input.json'] },
    {
      name: 'an unknown threat model',
      args: ['--input', fixture('arm64-aes-rpi5'), '--threat-model', 'aliens'],
    },
    {
      name: 'an unreadable memory size',
      args: ['--input', fixture('arm64-aes-rpi5'), '--unlock-memory', 'lots'],
    },
  ])('answers $name with exit 2 and an error envelope', ({ args }) => {
    const run = encplan('plan', ...args, '--json');
    expect(run.status).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
  });

  it('plans from a bundle, a saved assess report, the same file as --input and its bare result alike', () => {
    const bundle = path.join(ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
    const fromBundle = encplan('plan', '--bundle', bundle, '--json');
    expect(fromBundle.status).toBe(0);
    const report = encplan('assess', '--bundle', bundle, '--json');
    const directory = mkdtempSync(path.join(tmpdir(), 'encplan-plan-e2e-'));
    try {
      const file = path.join(directory, 'report.json');
      writeFileSync(file, report.stdout);
      const fromReport = encplan('plan', '--report', file, '--json');
      expect(fromReport.status).toBe(0);
      const bare = path.join(directory, 'result.json');
      const assessed = JSON.parse(report.stdout) as { result: { plan: unknown } };
      writeFileSync(bare, JSON.stringify(assessed.result));
      const fromInput = encplan('plan', '--input', file, '--json');
      const fromBare = encplan('plan', '--input', bare, '--json');
      const a = planDocument.envelope.parse(JSON.parse(fromBundle.stdout)).result;
      const b = planDocument.envelope.parse(JSON.parse(fromReport.stdout)).result;
      expect(a?.devicePath).toBe('/dev/loop0');
      expect(b).toEqual(a);
      expect(planDocument.envelope.parse(JSON.parse(fromInput.stdout)).result).toEqual(a);
      expect(planDocument.envelope.parse(JSON.parse(fromBare.stdout)).result).toEqual(a);
      // assess plans its own result through the same path (default options both ways).
      expect(assessed.result.plan).toEqual(a);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('prices the passwords given with --entropy-bits', () => {
    const envelope = laptopPlan('--target', 'veracrypt', '--entropy-bits', '80');
    expect(new Set(envelope.result?.attackerCost.map((row) => row.entropyBits))).toEqual(new Set([80]));
  });

  it('needs exactly one source of facts', () => {
    const none = encplan('plan', '--json');
    const two = encplan('plan', '--input', fixture('arm64-aes-rpi5'), '--bundle', ROOT, '--json');
    expect(none.status).toBe(2);
    expect(two.status).toBe(2);
  });
});
