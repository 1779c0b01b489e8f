import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
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
    expect(document.warnings).toEqual([
      expect.objectContaining({ code: 'SMART_UNAVAILABLE', source: 'smartctl' }),
    ]);
  });

  it('prints a readable report with the partition, the space and the stack with --verbose', () => {
    const run = runCli(['assess', '--bundle', BUNDLE, '--verbose']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('encplan assessment of /dev/loop0');
    expect(run.stdout).toMatch(/Partition 1 \(\/dev\/loop0p1\)\s+798\.0 MiB at 1\.0 MiB, ext4/);
    expect(run.stdout).toContain('225.0 MiB (22.0 %) of the disk is in no partition.');
    expect(run.stdout).toMatch(/Space in no partition\s+225\.0 MiB \(235912704 bytes\)/);
    expect(run.stdout).toContain('└─ loop0p1 (part, 798.0 MiB) · ext4 1.0');
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
    expect(document).toMatchObject({
      status: 'error',
      result: null,
      error: { code, message: expect.stringContaining(says) },
    });
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
    const document = json(run.stdout) as {
      schema: string;
      result: { tools: { tool: string; purpose: string }[]; capabilities: { id: string }[] };
    };
    expect(document.schema).toBe('encplan.doctor');
    expect(document.result.tools.map((tool) => tool.tool)).toEqual(
      expect.arrayContaining(['lsblk', 'smartctl', 'cryptsetup', 'fio']),
    );
    expect(document.result.capabilities.map((capability) => capability.id)).toEqual(
      expect.arrayContaining(['root', 'device-mapper', 'kernel-crypto-user-api']),
    );
  });

  it('schema NAME prints the committed JSON Schema of that document', () => {
    for (const name of ['assessment', 'encplan.plan', 'benchmark-io']) {
      const run = runCli(['schema', name]);
      expect(run.status).toBe(0);
      const file = `schemas/${name.replace('encplan.', '')}.v1.json`;
      expect(json(run.stdout)).toEqual(JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')));
    }
  });

  it('schema without a name lists every document with its file', () => {
    const run = runCli(['schema']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/encplan\.assessment\s+1\.9\s+schemas\/assessment\.v1\.json/);
    expect(run.stdout).toMatch(/encplan\.doctor\s+1\.1\s+schemas\/doctor\.v1\.json/);
    expect(run.stdout).toMatch(/encplan\.machine-assessment\s+1\.7\s+schemas\/machine-assessment\.v1\.json/);
  });
});

describe('encplan --version (built binary)', () => {
  it('prints the version without loading the commands', () => {
    const run = runCli(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^encplan\/0\.1\.0 linux-x64 node-v\d+\.\d+\.\d+\n$/);
  });
});

describe('encplan assess: the plan, --commands, --html and --fail-on (built binary)', () => {
  it('leads the report with the answer and prints the commands as a script with destructive lines commented out', () => {
    // The default is the one-screen summary: the answer, what to fix first, the plan; no colour in a pipe.
    const summary = runCli(['assess', '--bundle', BUNDLE], {
      env: { COLUMNS: '80', FORCE_COLOR: undefined, NO_COLOR: undefined },
    });
    expect(summary.status, summary.stderr).toBe(0);
    expect(summary.stdout).toMatch(/^encplan: \/dev\/loop0 .*\n\nCAUTION {2}Encrypt \/dev\/loop0 with LUKS2/);
    expect(summary.stdout.split('\n').length).toBeLessThanOrEqual(40);
    expect(summary.stdout.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(summary.stdout).not.toContain('\u001b');
    const coloured = runCli(['assess', '--bundle', BUNDLE], { env: { FORCE_COLOR: '1' } });
    expect(coloured.stdout).toContain('\u001b[33mCAUTION');
    const noColour = runCli(['assess', '--bundle', BUNDLE], { env: { FORCE_COLOR: '0', NO_COLOR: '1' } });
    expect(noColour.stdout).not.toContain('\u001b');
    const report = runCli(['assess', '--bundle', BUNDLE, '--verbose']);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout.indexOf('CAUTION  ')).toBeLessThan(report.stdout.indexOf('Drive: '));
    expect(report.stdout.indexOf('\nThe plan\n')).toBeLessThan(report.stdout.indexOf('Drive: '));
    // The disk's ext4 partition holds data: the strategy is in place (shrink, reencrypt), not a fresh format.
    const script = runCli(['assess', '--bundle', BUNDLE, '--commands']);
    expect(script.status, script.stderr).toBe(0);
    expect(script.stdout).toMatch(/^#!\/bin\/sh\n/);
    expect(script.stdout).toContain(
      '# cryptsetup reencrypt --encrypt --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096',
    );
    // The lines that depend on the commented-out shrink are commented out with it; the same script is in the report.
    expect(script.stdout).toContain('\n# cryptsetup open --type luks2 --allow-discards');
    expect(script.stdout).toContain("\n# tee -a /etc/crypttab <<'ENCPLAN_EOF'");
    expect(script.stdout).not.toMatch(/^(cryptsetup|resize2fs|tee) /m);
    expect(report.stdout).toContain('# DESTROYS DATA');
    const destructive = runCli(['assess', '--bundle', BUNDLE, '--commands', '--destructive']);
    expect(destructive.stdout).toMatch(/^resize2fs \/dev\/loop0p1 \d+K$/m);
    expect(destructive.stdout).toMatch(
      /^cryptsetup reencrypt --encrypt .* --reduce-device-size 32M \/dev\/loop0p1$/m,
    );
    expect(destructive.stdout).toMatch(/^cryptsetup open /m);
    expect(destructive.stdout).not.toContain('by-partlabel');
  });

  // The hint names the way that works, never the strategy already chosen (issue 25 item 5): the running
  // root in place from a live system; a mounted disk in place once unmounted; VeraCrypt (no in-place path)
  // by encrypting in place with LUKS2.
  it.each([
    [
      'virtio-root-no-table-blkid-eperm-debian12',
      'luks2',
      /\/dev\/vda holds the running root/,
      /hint: Boot a live\/rescue system/,
    ],
    [
      'loop-ext4-mounted-benchmark-quick-debian12',
      'luks2',
      /\/dev\/loop4 is mounted on/,
      /hint: Stop using \/dev\/loop4 first \(umount \/mnt\/encplan-fixture;/,
    ],
    [
      'loop-ext4-mounted-benchmark-quick-debian12',
      'veracrypt',
      /\/dev\/loop4 is mounted on/,
      /hint: Encrypt in place instead: LUKS2 .* Plan it with --target luks2\./,
    ],
  ])(
    'refuses --destructive with exit 4, the reason and the way that works: %s --target %s',
    (bundle, target, reason, hint) => {
      const args = ['assess', '--bundle', `fixtures/bundles/${bundle}`, '--target', target, '--commands'];
      const run = runCli([...args, '--destructive']);
      expect(run.status).toBe(4);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(reason);
      expect(run.stderr).toMatch(hint);
      // Without --destructive the same disk gets a script with nothing to run, exit 0.
      const safe = runCli(args);
      expect(safe.status).toBe(0);
      expect(safe.stdout).not.toMatch(/^(sgdisk|cryptsetup|blkdiscard|mkfs)/m);
    },
  );

  it('writes a self-contained HTML report with --html', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-html-'));
    try {
      const file = path.join(directory, 'report.html');
      const run = runCli(['assess', '--bundle', BUNDLE, '--html', file]);
      expect(run.status, run.stderr).toBe(0);
      const html = readFileSync(file, 'utf8');
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain('/dev/loop0');
      expect(html).not.toMatch(/<script/i);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('exits 5 with --fail-on failing when the drive fails, and 0 without the flag', () => {
    // The real loop bundle, with smartctl answering as the captured Seagate with 304 reallocated sectors did.
    const directory = mkdtempSync(path.join(tmpdir(), 'encplan-test-failing-'));
    try {
      const bundle = JSON.parse(readFileSync(path.join(REPO_ROOT, BUNDLE, 'bundle.json'), 'utf8')) as {
        captures: Record<string, unknown>[];
      };
      const failing = path.join(REPO_ROOT, 'fixtures/smartctl/sata-hdd-seagate-st3500418as-realloc304-v7.3');
      const stdout = readFileSync(path.join(failing, 'stdout.json'), 'utf8');
      // The capture has no process exit code beside it; smartctl's own JSON records it.
      const exitCode = (JSON.parse(stdout) as { smartctl: { exit_status: number } }).smartctl.exit_status;
      for (const capture of bundle.captures) {
        if (
          capture.kind === 'command' &&
          capture.tool === 'smartctl' &&
          (capture.argv as string[]).includes('-x')
        ) {
          capture.output = { exitCode, stdout, stderr: '', durationMs: 10 };
        }
      }
      writeFileSync(path.join(directory, 'bundle.json'), JSON.stringify(bundle));
      const gated = runCli(['assess', '--bundle', directory, '--fail-on', 'failing', '--json']);
      expect(gated.status, gated.stderr).toBe(5);
      const envelope = JSON.parse(gated.stdout) as {
        status: string;
        result: { health: { verdict: string }; plan: { healthGate: { effectiveVerdict: string } } };
      };
      expect(envelope.result.health.verdict).toBe('failing');
      expect(envelope.result.plan.healthGate.effectiveVerdict).toBe('failing');
      expect(runCli(['assess', '--bundle', directory]).status).toBe(0);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
