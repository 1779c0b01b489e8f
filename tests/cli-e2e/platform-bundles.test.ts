import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { assessmentSchemaErrors, envelopeSchemaErrors } from '../support/schema.js';

/**
 * `encplan assess --bundle` and `encplan plan --bundle` over the macOS and Windows bundles built from real
 * captures (fixtures/bundles/PROVENANCE-platforms.md): valid envelopes against the committed schemas, the
 * platform's facts in the report and the HTML, commands in the platform's syntax, and foreign targets refused.
 */

interface Case {
  readonly bundle: string;
  readonly platform: 'darwin' | 'win32';
  readonly identifier: string;
  readonly target: 'apfs' | 'bitlocker';
  /** Something the text report must say about this machine. */
  readonly says: RegExp;
  readonly commands: readonly (readonly string[])[];
}

const CASES: readonly Case[] = [
  {
    bundle: 'darwin-intel-catalina-filevault-disk1s5',
    platform: 'darwin',
    identifier: 'disk0',
    target: 'apfs',
    says: /FileVault already protects disk1s5/,
    commands: [['fdesetup', 'status']],
  },
  {
    bundle: 'darwin-apple-silicon-ap0256z-system-profiler',
    platform: 'darwin',
    identifier: 'disk0',
    target: 'apfs',
    says: /no measurable cost/,
    commands: [['fdesetup', 'status']],
  },
  {
    bundle: 'windows-github-runner-virtual-disks',
    platform: 'win32',
    identifier: '\\\\.\\PhysicalDrive0',
    target: 'bitlocker',
    says: /Whether BitLocker is already on is unknown/,
    commands: [['manage-bde', '-status', 'C:']],
  },
  {
    bundle: 'windows-win11-bc901-bitlocker-xtsaes128',
    platform: 'win32',
    identifier: '\\\\.\\PhysicalDrive0',
    target: 'bitlocker',
    says: /BitLocker already protects C: in software \(XTS-AES 128\)/,
    // Used Space Only Encrypted: the free space is wiped so data deleted before BitLocker is encrypted too.
    commands: [
      ['manage-bde', '-status', 'C:'],
      ['manage-bde', '-wipefreespace', 'C:'],
    ],
  },
  {
    bundle: 'windows-de-win10-bitlocker-in-progress',
    platform: 'win32',
    identifier: '\\\\.\\PhysicalDrive0',
    target: 'bitlocker',
    says: /BitLocker is still encrypting C: \(100 % encrypted\)/,
    commands: [['manage-bde', '-status', 'C:']],
  },
  {
    bundle: 'windows-de-win10-bitlocker-3pct-protection-off',
    platform: 'win32',
    identifier: '\\\\.\\PhysicalDrive0',
    target: 'bitlocker',
    says: /Not protected yet: finish the encryption already started on/,
    commands: [
      ['manage-bde', '-status', 'C:'],
      ['manage-bde', '-protectors', '-enable', 'C:'],
    ],
  },
  {
    bundle: 'windows-diskspd-benchmark-composed',
    platform: 'win32',
    identifier: '\\\\.\\PhysicalDrive1',
    target: 'bitlocker',
    says: /BitLocker XTS-AES 256 \(VHDX\)/,
    commands: [['manage-bde', '-status', 'D:']],
  },
];

const bundlePath = (name: string) => `fixtures/bundles/${name}`;

describe('a benchmarked Windows bundle (DiskSpd, plain versus a BitLocker VHDX)', () => {
  it('assess --bundle --json: valid, plain and BitLocker measured with DiskSpd, the overhead of every profile', () => {
    const run = runCli(['assess', '--bundle', bundlePath('windows-diskspd-benchmark-composed'), '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      result: {
        ioBenchmark: {
          plain: {
            backend: string;
            ioEngine: string;
            profiles: { summary: { medianBytesPerSecond: number } }[];
          };
          encrypted: { backend: string; verification: { cipher: string } }[];
          overhead: { profileId: string; plainBytesPerSecond: number; encryptedBytesPerSecond: number }[];
        };
      };
      warnings: { code: string }[];
    };
    expect(assessmentSchemaErrors(document)).toBeNull();
    const io = document.result.ioBenchmark;
    expect(io.plain).toMatchObject({ backend: 'plain', ioEngine: 'diskspd' });
    expect(io.plain.profiles).toHaveLength(8);
    expect(io.encrypted.map((target) => [target.backend, target.verification.cipher])).toEqual([
      ['bitlocker', 'XtsAes256'],
    ]);
    expect(io.overhead).toHaveLength(8);
    // The Azure D1 v2 capture's read total (plain) against the Micron M600 capture's (encrypted side).
    const read = io.overhead.find((row) => row.profileId === 'rnd4k-q32t1-read');
    expect(read?.plainBytesPerSecond).toBeGreaterThan(read?.encryptedBytesPerSecond ?? Infinity);
    expect(document.warnings.map((warning) => warning.code)).not.toContain('PLATFORM_LIMITED');
  });
});

describe.each(CASES)('$bundle (built binary)', (testCase) => {
  const bundle = bundlePath(testCase.bundle);

  it('assess --json: a valid 1.5 envelope with the storage model only (no platformStorage), the Linux sections null, a plan for the platform', () => {
    const run = runCli(['assess', '--bundle', bundle, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      schemaVersion: number[];
      result: Record<string, unknown> & {
        storage: { platform: string; disk: { id: string } };
        plan: { targetTool: string; commands: { argv: string[] }[] };
      };
    };
    expect(assessmentSchemaErrors(document)).toBeNull();
    expect(document.schemaVersion).toEqual([1, 9]);
    expect(document.result.storage.platform).toBe(testCase.platform);
    expect(document.result.storage.disk.id).toBe(testCase.identifier);
    // Deprecated since assessment 1.4: read from older documents, no longer written.
    expect(document.result).not.toHaveProperty('platformStorage');
    for (const section of ['disk', 'stack', 'space', 'health', 'trim', 'overProvisioning']) {
      expect(document.result[section]).toBeNull();
    }
    expect(document.result.plan.targetTool).toBe(testCase.target);
    expect(document.result.plan.commands.map((command) => command.argv)).toEqual(testCase.commands);
  });

  it('assess: the text report names the drive and says what the plan found', () => {
    const run = runCli(['assess', '--bundle', bundle, '--verbose']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(testCase.identifier);
    expect(run.stdout).toMatch(testCase.says);
    expect(run.stdout).toMatch(/Existing encryption/);
    expect(run.stdout).toMatch(/Drive health/);
    // Commands in the platform's own syntax.
    if (testCase.platform === 'win32') {
      expect(run.stdout).toContain("$ErrorActionPreference = 'Stop'");
      expect(run.stdout).not.toContain('#!/bin/sh');
    } else {
      expect(run.stdout).toContain('#!/bin/sh');
    }
    expect(run.stdout).not.toMatch(/cryptsetup|sgdisk|blkdiscard/);
  });

  it('assess --html: the report carries the platform facts', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'encplan-platform-html-'));
    try {
      const file = path.join(directory, 'report.html');
      expect(runCli(['assess', '--bundle', bundle, '--html', file]).status).toBe(0);
      const html = readFileSync(file, 'utf8');
      expect(html).toContain('Existing encryption');
      expect(html).toContain(testCase.platform === 'darwin' ? 'fdesetup' : 'manage-bde');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('plan --bundle --json: a valid plan envelope', () => {
    const run = runCli(['plan', '--bundle', bundle, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as { result: { targetTool: string } };
    expect(envelopeSchemaErrors(document)).toBeNull();
    expect(document.result.targetTool).toBe(testCase.target);
  });

  it('refuses a target the platform does not have with the usage exit code, rendering nothing', () => {
    for (const args of [
      ['assess', '--bundle', bundle, '--target', 'luks2'],
      ['plan', '--bundle', bundle, '--target', 'luks2'],
      ['assess', '--bundle', bundle, '--target', testCase.platform === 'darwin' ? 'bitlocker' : 'apfs'],
    ]) {
      const run = runCli(args);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/does not exist on (macOS|Windows)/);
      expect(run.stdout).toBe('');
    }
    const json = runCli(['assess', '--bundle', bundle, '--target', 'luks2', '--json']);
    expect(json.status).toBe(2);
    const envelope = JSON.parse(json.stdout) as { result: unknown; error: { code: string } };
    expect(assessmentSchemaErrors(envelope)).toBeNull();
    expect(envelope).toMatchObject({ result: null, error: { code: 'INVALID_ARGUMENT' } });
  });

  it('plans VeraCrypt in the platform’s syntax, never with a password in the command', () => {
    const run = runCli(['plan', '--bundle', bundle, '--target', 'veracrypt', '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as { result: { commands: { argv: string[] }[] } };
    expect(envelopeSchemaErrors(document)).toBeNull();
    for (const command of document.result.commands) {
      expect(command.argv).not.toContain('/password');
      expect(command.argv.some((word) => word.startsWith('--password'))).toBe(false);
      if (testCase.platform === 'win32') {
        expect(command.argv[0]).toMatch(/VeraCrypt Format\.exe$|^manage-bde$|^fsutil$/);
      }
    }
  });
});

describe('platform bundles that cannot be assessed, and Linux targets', () => {
  it('a Mac asked about a network path: DEVICE_NOT_FOUND, exit 4, a valid error envelope', () => {
    const run = runCli(['assess', '--bundle', bundlePath('darwin-network-path-diskutil-error'), '--json']);
    expect(run.status).toBe(4);
    const envelope = JSON.parse(run.stdout) as { error: { code: string } };
    expect(assessmentSchemaErrors(envelope)).toBeNull();
    expect(envelope.error.code).toBe('DEVICE_NOT_FOUND');
  });

  it('--target apfs or bitlocker on a Linux bundle is refused (exit 2), never rendered as diskutil/manage-bde', () => {
    for (const target of ['apfs', 'bitlocker']) {
      const run = runCli([
        'assess',
        '--bundle',
        bundlePath('loop-gpt-ext4-78pct-debian12'),
        '--target',
        target,
        '--commands',
      ]);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/does not exist on Linux/);
      expect(run.stderr).toMatch(/--target luks2 or --target veracrypt/);
    }
    const plan = runCli([
      'plan',
      '--input',
      'fixtures/plan-inputs/x64-aesni-laptop-nvme.json',
      '--target',
      'apfs',
    ]);
    expect(plan.status).toBe(2);
    expect(plan.stdout).not.toContain('diskutil');
  });
});
