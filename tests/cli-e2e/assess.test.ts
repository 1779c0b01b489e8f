import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { assessmentSchemaErrors } from '../support/schema.js';

const BUNDLE = 'fixtures/bundles/loop-gpt-ext4-78pct-debian12';

function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('encplan assess --bundle (built binary)', () => {
  it('prints exactly one JSON document that validates against the committed schema', () => {
    const run = runCli(['assess', '--bundle', BUNDLE, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const document = json(run.stdout);
    expect(assessmentSchemaErrors(document)).toBeNull();
    expect(document).toMatchObject({ schema: 'encplan.assessment', status: 'partial', error: null });
    expect(document.warnings).toEqual([expect.objectContaining({ code: 'SMART_UNAVAILABLE', source: 'smartctl' })]);
  });

  it('prints a readable report with the partition, the space and the stack', () => {
    const run = runCli(['assess', '--bundle', BUNDLE]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('encplan assessment of /dev/loop0');
    expect(run.stdout).toMatch(/1\s+\/dev\/loop0p1\s+1\.00 MiB\s+798 MiB\s+ext4/);
    expect(run.stdout).toContain('Never-allocated space: 225 MiB (21.97 % of the disk)');
    expect(run.stdout).toContain('└─ loop0p1 (part, 798 MiB) · ext4 1.0');
    expect(run.stdout).toContain('VeraCrypt and TrueCrypt volumes have no header signature');
  });

  it('refuses a bundle path that does not exist with a usage error envelope', () => {
    const run = runCli(['assess', '--bundle', 'fixtures/no-such-bundle', '--json']);
    expect(run.status).toBe(2);
    const document = json(run.stdout);
    expect(assessmentSchemaErrors(document)).toBeNull();
    expect(document).toMatchObject({ status: 'error', result: null, error: { code: 'INVALID_ARGUMENT' } });
  });
});

describe('encplan assess with bad input (built binary)', () => {
  it.each([
    { args: ['/no/such/device'], code: 'DEVICE_NOT_FOUND', exit: 4, says: 'does not exist' },
    { args: ['/etc/hostname'], code: 'DEVICE_UNSUPPORTED', exit: 4, says: 'is a regular file' },
    { args: ['/tmp'], code: 'DEVICE_UNSUPPORTED', exit: 4, says: 'is a directory' },
    { args: ['/dev/null'], code: 'DEVICE_UNSUPPORTED', exit: 4, says: 'is a character device' },
    { args: ['/dev/sda;reboot'], code: 'INVALID_ARGUMENT', exit: 2, says: 'characters that never appear' },
    { args: ['$(id)'], code: 'INVALID_ARGUMENT', exit: 2, says: 'characters that never appear' },
    { args: ['--', '-rf'], code: 'INVALID_ARGUMENT', exit: 2, says: 'starts with a dash' },
    { args: ['sda'], code: 'INVALID_ARGUMENT', exit: 2, says: 'not an absolute path' },
  ])('$args gives $code, exit $exit, a clear message and no stack trace', ({ args, code, exit, says }) => {
    const human = runCli(['assess', ...args]);
    expect(human.status).toBe(exit);
    expect(human.stderr).toContain(says);
    expect(human.stderr).not.toMatch(/\n\s+at /);
    expect(human.stdout).toBe('');

    const machine = runCli(['assess', '--json', ...args]);
    expect(machine.status).toBe(exit);
    const document = json(machine.stdout);
    expect(assessmentSchemaErrors(document)).toBeNull();
    expect(document).toMatchObject({ status: 'error', result: null, error: { code, message: expect.stringContaining(says) } });
  });

  it('an unknown flag is a usage error (exit 2) with an error envelope under --json', () => {
    const run = runCli(['assess', '--no-such-flag', '--json']);
    expect(run.status).toBe(2);
    expect(json(run.stdout)).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
  });
});

describe('encplan doctor and schema (built binary)', () => {
  it('doctor --json lists every tool with its purpose and the kernel capabilities', () => {
    const run = runCli(['doctor', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const document = json(run.stdout) as { schema: string; result: { tools: { tool: string; purpose: string }[]; capabilities: { id: string }[] } };
    expect(document.schema).toBe('encplan.doctor');
    expect(document.result.tools.map((tool) => tool.tool)).toEqual(expect.arrayContaining(['lsblk', 'smartctl', 'cryptsetup', 'fio']));
    expect(document.result.capabilities.map((capability) => capability.id)).toEqual(expect.arrayContaining(['root', 'device-mapper', 'kernel-crypto-user-api']));
  });

  it('schema prints the committed JSON Schema', () => {
    const run = runCli(['schema']);
    expect(run.status).toBe(0);
    expect(json(run.stdout)).toMatchObject({ $id: 'https://encplan.dev/schemas/assessment.v1.json' });
  });
});

describe('encplan --version (built binary)', () => {
  it('prints the version without loading the commands', () => {
    const run = runCli(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^encplan\/0\.1\.0 linux-x64 node-v\d+\.\d+\.\d+\n$/);
  });
});
