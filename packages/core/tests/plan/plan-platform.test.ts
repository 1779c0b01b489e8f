import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import type { AssessmentEnvelope } from '../../src/contract/assessment.js';
import type { PlatformStorage } from '../../src/domain/platform-storage.js';
import { buildPlan, planSchema, type Plan } from '../../src/plan/plan.js';
import { renderPowerShellCommand } from '../../src/plan/shell-quote.js';
import { renderPlanScript } from '../../src/report/command-script.js';
import type { DeepPartial, PlanFacts } from '../../src/rules/facts.js';
import type { PlanOptions, TargetTool } from '../../src/rules/plan-options.js';
import { refuseForeignTarget } from '../../src/targets/registry.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-23T00:00:00Z') };

async function assessed(name: string, options: PlanOptions = {}): Promise<AssessmentEnvelope> {
  const bundle = parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`)));
  return assessBundle(bundle, clock, { planOptions: options });
}

/** A macOS/Windows plan from hand-built platform facts (rule tests may build domain values). */
function planFor(
  platform: 'darwin' | 'win32',
  storage: DeepPartial<PlatformStorage>,
  options: PlanOptions = {},
): Plan {
  const facts: PlanFacts = { provenance: { platform }, platformStorage: { platform, ...storage } };
  const plan = buildPlan(facts, options);
  expect(planSchema.parse(plan)).toEqual(plan);
  return plan;
}
const argvs = (plan: Plan) => plan.commands.map((command) => command.argv);
const rule = (plan: Plan, id: string) => plan.recommendations.find((entry) => entry.ruleId === id);

/** No command carries a secret: nothing after a password switch, no --password/-p value. */
function expectNoSecretInArgv(plan: Plan): void {
  for (const command of plan.commands) {
    expect(command.argv).not.toContain('/password');
    expect(command.argv).not.toContain('/p');
    expect(command.argv.some((word) => /^--password=/.test(word))).toBe(false);
  }
}

describe('plans from the real macOS and Windows bundles', () => {
  it('Apple-silicon Mac: FileVault at no measurable cost; its state unknown, so only fdesetup status runs', async () => {
    const envelope = await assessed('darwin-apple-silicon-ap0256z-system-profiler');
    const plan = envelope.result?.plan ?? null;
    expect(plan).not.toBeNull();
    expect(plan?.targetTool).toBe('apfs');
    expect(rule(plan!, 'macos-encryption')?.value).toBe('FileVault (state unknown)');
    // The iBoot System Container partition (Apple_APFS_ISC) proves Apple silicon without sysctl.
    expect(rule(plan!, 'macos-encryption-cost')?.value).toBe('no measurable cost');
    expect(argvs(plan!)).toEqual([['fdesetup', 'status']]);
  });

  it('Intel Catalina Mac with FileVault on: nothing to change, software encryption has a measured cost', async () => {
    const plan = (await assessed('darwin-intel-catalina-filevault-disk1s5')).result!.plan!;
    expect(plan.findings.map((finding) => finding.message)).toContainEqual(
      expect.stringMatching(/FileVault already protects disk1s5/),
    );
    expect(rule(plan, 'macos-encryption-cost')?.value).toBe('measured cost');
    expect(argvs(plan)).toEqual([['fdesetup', 'status']]);
  });

  it('Windows 11 with BitLocker XTS-AES 128 in software: keeps it, says what differs, PowerShell status only', async () => {
    const plan = (await assessed('windows-win11-bc901-bitlocker-xtsaes128')).result!.plan!;
    expect(plan.targetTool).toBe('bitlocker');
    expect(plan.settings).toMatchObject({ cipher: 'aes-xts', keySizeBits: 512 });
    const existing = plan.findings.find((finding) => finding.ruleId === 'bitlocker-existing');
    expect(existing?.message).toMatch(/XTS-AES 128/);
    expect(existing?.message).toMatch(/would choose XTS-AES 256.*full rewrite/);
    // "Used Space Only Encrypted": the free space is wiped so deleted data is encrypted too, nothing else runs.
    expect(existing?.message).toMatch(/Only used space was encrypted.*manage-bde -wipefreespace C:/);
    expect(plan.strategy?.kind).toBe('nothing-to-do');
    expect(plan.commands).toEqual([
      expect.objectContaining({ argv: ['manage-bde', '-status', 'C:'], shell: 'powershell' }),
      expect.objectContaining({ argv: ['manage-bde', '-wipefreespace', 'C:'], shell: 'powershell' }),
    ]);
  });

  it('German Windows 10 still encrypting (100 %, protection on): says so with the percentage, never "nothing to do"', async () => {
    const plan = (await assessed('windows-de-win10-bitlocker-in-progress')).result!.plan!;
    const unfinished = plan.findings.find((finding) => finding.ruleId === 'encryption-unfinished');
    expect(unfinished?.message).toMatch(/still encrypting C: \(100 % encrypted\)\. Keep the PC on/);
    expect(unfinished?.message).not.toMatch(/protection is off/);
    expect(plan.strategy).toBeUndefined();
    expect(argvs(plan)).toEqual([['manage-bde', '-status', 'C:']]);
  });

  it('German Windows 10 at 3,5 % with "Der Schutz ist deaktiviert": not protected, says how to finish (issue 25)', async () => {
    const plan = (await assessed('windows-de-win10-bitlocker-3pct-protection-off')).result!.plan!;
    const unfinished = plan.findings.find((finding) => finding.ruleId === 'encryption-unfinished');
    expect(unfinished).toMatchObject({ severity: 'warning' });
    expect(unfinished?.message).toMatch(
      /still encrypting C: \(3\.5 % encrypted\) and its protection is off.*manage-bde -protectors -enable C:/,
    );
    expect(plan.findings.some((finding) => finding.ruleId === 'bitlocker-existing')).toBe(false);
    expect(plan.strategy?.kind).not.toBe('nothing-to-do');
    expect(argvs(plan)).toEqual([
      ['manage-bde', '-status', 'C:'],
      ['manage-bde', '-protectors', '-enable', 'C:'],
    ]);
  });

  it('GitHub runner without manage-bde output: BitLocker state unknown, so no manage-bde -on', async () => {
    const plan = (await assessed('windows-github-runner-virtual-disks')).result!.plan!;
    expect(argvs(plan)).toEqual([['manage-bde', '-status', 'C:']]);
    expect(plan.findings.map((finding) => finding.message)).toContainEqual(
      expect.stringMatching(/Whether BitLocker is already on is unknown/),
    );
  });

  it('VeraCrypt on the Windows runner: VeraCrypt Format.exe /create in Windows syntax, never a password', async () => {
    const plan = (await assessed('windows-github-runner-virtual-disks', { targetTool: 'veracrypt' })).result!
      .plan!;
    const create = plan.commands.find((command) => command.id === 'veracrypt-create');
    expect(create?.argv.slice(0, 3)).toEqual([
      'C:\\Program Files\\VeraCrypt\\VeraCrypt Format.exe',
      '/create',
      'C:\\encplan.hc',
    ]);
    expect(create?.argv).toEqual(
      expect.arrayContaining(['/dynamic', '/encryption', 'AES', '/filesystem', 'NTFS']),
    );
    // The planned PIM reaches the command, and the dynamic container is bounded to half of C:.
    const argv = create?.argv ?? [];
    expect(argv[argv.indexOf('/pim') + 1]).toBe(String(plan.settings.veracrypt?.pim));
    expect(argv[argv.indexOf('/size') + 1]).toMatch(/^\d+M$/);
    expectNoSecretInArgv(plan);
    expect(plan.findings.map((finding) => finding.ruleId)).toContain('veracrypt-windows-scope');
    expect(plan.settings.allowDiscards).toBe(false);
    const script = renderPlanScript(plan.commands, false);
    expect(script).toContain("& 'C:\\Program Files\\VeraCrypt\\VeraCrypt Format.exe' /create C:\\encplan.hc");
    expect(script).not.toContain('#!/bin/sh');
    expect(script).toContain("$ErrorActionPreference = 'Stop'");
  });
});

describe('BitLocker rules', () => {
  const off = (volume: string) => ({
    disk: { identifier: '\\\\.\\PhysicalDrive0', source: 'Get-Disk' as const },
    partitions: [{ identifier: '1', mountPoint: volume }],
    encryption: [{ volume, format: 'bitlocker-off' as const, source: 'manage-bde' as const }],
  });

  it('turns BitLocker on for the OS volume in software with XTS-AES 256, the TPM unlocking it', () => {
    const plan = planFor('win32', off('C:'));
    expect(argvs(plan)).toEqual([
      ['manage-bde', '-on', 'C:', '-EncryptionMethod', 'xts_aes256', '-UsedSpaceOnly', '-RecoveryPassword'],
      ['manage-bde', '-status', 'C:'],
    ]);
    expect(plan.commands[0]).toMatchObject({ stdin: null, risk: 'changes-settings', shell: 'powershell' });
    expect(rule(plan, 'bitlocker-method')?.reason).toMatch(/Meijer and van Gastel/);
  });

  it('uses Windows’ default XTS-AES 128 when speed over security is asked; a data volume prompts for its password', () => {
    const plan = planFor('win32', off('D:'), { speedOverSecurity: true });
    expect(plan.commands[0]?.argv).toEqual([
      'manage-bde',
      '-on',
      'D:',
      '-EncryptionMethod',
      'xts_aes128',
      '-UsedSpaceOnly',
      '-Password',
      '-RecoveryPassword',
    ]);
    expect(plan.commands[0]?.stdin).toBe('passphrase');
    expect(plan.settings.keySizeBits).toBe(256);
  });

  it('hardware (eDrive) BitLocker is critical: decrypt first, never re-enabled in the same script', () => {
    const plan = planFor('win32', {
      encryption: [
        { volume: 'C:', format: 'bitlocker', method: 'hardware', hardware: true, source: 'manage-bde' },
      ],
    });
    expect(plan.findings[0]).toMatchObject({ ruleId: 'bitlocker-hardware-encryption', severity: 'critical' });
    expect(plan.findings[0]?.message).toMatch(/ADV180028.*KB4516071/);
    expect(argvs(plan)).toEqual([
      ['manage-bde', '-off', 'C:'],
      ['manage-bde', '-status', 'C:'],
    ]);
  });

  it('turns TRIM on only when Windows says it does not send it (DisableDeleteNotify = 1)', () => {
    const withoutTrim = planFor('win32', {
      ...off('C:'),
      trim: { driveSupports: true, osSends: false, source: 'fsutil' },
    });
    expect(argvs(withoutTrim)).toContainEqual(['fsutil', 'behavior', 'set', 'DisableDeleteNotify', '0']);
    const withTrim = planFor('win32', {
      ...off('C:'),
      trim: { driveSupports: true, osSends: true, source: 'fsutil' },
    });
    expect(argvs(withTrim).some((command) => command[0] === 'fsutil')).toBe(false);
    expect(rule(withTrim, 'windows-trim')?.reason).toMatch(/BitLocker passes TRIM/);
  });

  it('a fully encrypted volume with protection off is suspended: protectors back on, never "already protected"', () => {
    const plan = planFor('win32', {
      partitions: [{ identifier: '0:3', mountPoint: 'C:' }],
      encryption: [
        {
          volume: 'C:',
          format: 'bitlocker',
          method: 'xts-aes',
          keyBits: 128,
          hardware: false,
          conversion: 'FullyEncrypted',
          percentEncrypted: 100,
          protectionOn: false,
          source: 'Get-BitLockerVolume',
        },
      ],
    });
    expect(plan.findings.find((finding) => finding.ruleId === 'encryption-unfinished')?.message).toMatch(
      /C: is encrypted with BitLocker but protection is suspended: the volume key is stored in the clear/,
    );
    expect(plan.strategy).toBeUndefined();
    expect(argvs(plan)).toEqual([
      ['manage-bde', '-protectors', '-enable', 'C:'],
      ['manage-bde', '-status', 'C:'],
    ]);
  });

  it('paused encryption is resumed (manage-bde -resume); running decryption is followed, never re-enabled blindly', () => {
    const entry = (conversion: string) => ({
      volume: 'D:',
      format: 'bitlocker' as const,
      method: 'xts-aes' as const,
      keyBits: 256,
      conversion,
      percentEncrypted: 40,
      protectionOn: false,
    });
    const paused = planFor('win32', {
      partitions: [{ mountPoint: 'D:' }],
      encryption: [entry('EncryptionPaused')],
    });
    expect(argvs(paused)).toEqual([
      ['manage-bde', '-resume', 'D:'],
      ['manage-bde', '-status', 'D:'],
    ]);
    const decrypting = planFor('win32', {
      partitions: [{ mountPoint: 'D:' }],
      encryption: [entry('DecryptionInProgress')],
    });
    expect(
      decrypting.findings.find((finding) => finding.ruleId === 'encryption-unfinished')?.message,
    ).toMatch(/BitLocker is being turned off on D: \(40 % encrypted\)/);
    expect(argvs(decrypting)).toEqual([['manage-bde', '-status', 'D:']]);
  });

  it('gives no enable command without a drive letter', () => {
    const plan = planFor('win32', {
      encryption: [{ volume: 'C:', format: 'bitlocker-off', source: 'manage-bde' }],
      partitions: [],
    });
    expect(plan.commands[0]?.argv.slice(0, 3)).toEqual(['manage-bde', '-on', 'C:']);
    expect(argvs(planFor('win32', {}))).toEqual([]);
  });
});

describe('macOS rules', () => {
  it('FileVault off on the startup disk: fdesetup enable, which prompts (no secret in argv)', () => {
    const plan = planFor('darwin', { disk: { identifier: 'disk0', internal: true }, fileVault: 'off' });
    expect(argvs(plan)).toEqual([
      ['fdesetup', 'enable'],
      ['fdesetup', 'status'],
    ]);
    expect(plan.commands[0]?.stdin).toBe('passphrase');
  });

  it('an unencrypted APFS volume on an external drive is encrypted in place with -passprompt', () => {
    const plan = planFor('darwin', {
      disk: { identifier: 'disk4', internal: false },
      encryption: [
        { volume: 'disk5s1', format: 'apfs-unencrypted', roles: [], source: 'diskutil apfs list' },
      ],
    });
    expect(plan.commands[0]?.argv).toEqual([
      'diskutil',
      'apfs',
      'encryptVolume',
      'disk5s1',
      '-user',
      'disk',
      '-passprompt',
    ]);
    expect(rule(plan, 'macos-encryption-cost')?.value).toBe('measured cost');
  });

  it('an external drive with an APFS partition and no volume in it gets a new encrypted volume in that container', () => {
    const plan = planFor('darwin', {
      disk: { identifier: 'disk4', internal: false },
      partitions: [{ identifier: 'disk4s2', type: 'Apple_APFS' }],
      encryption: [],
    });
    expect(plan.commands[0]?.argv).toEqual([
      'diskutil',
      'apfs',
      'addVolume',
      'disk4',
      'APFS',
      'encplan',
      '-passprompt',
    ]);
  });

  it('an external drive whose volumes were not listed gets no command that assumes they are unencrypted', () => {
    const plan = planFor('darwin', {
      disk: { identifier: 'disk4', internal: false },
      partitions: [{ identifier: 'disk4s2', type: 'Apple_APFS' }],
    });
    expect(argvs(plan).some((argv) => argv.includes('addVolume'))).toBe(false);
    expect(rule(plan, 'macos-encryption')?.value).toBe('encryption state unknown');
  });

  it('trimforce only for a TRIM-capable drive macOS does not trim', () => {
    const plan = planFor('darwin', {
      disk: { identifier: 'disk4', internal: false },
      trim: { driveSupports: true, osSends: false, source: 'system_profiler' },
    });
    expect(argvs(plan)).toContainEqual(['trimforce', 'enable']);
    expect(rule(plan, 'macos-trim')?.reason).toMatch(/trimforce\(8\)/);
  });

  it('VeraCrypt formats an external drive in Unix syntax with exFAT, and refuses the startup disk', () => {
    const external = planFor(
      'darwin',
      { disk: { identifier: 'disk4', internal: false } },
      { targetTool: 'veracrypt' },
    );
    expect(external.commands[0]?.argv).toEqual(
      expect.arrayContaining(['veracrypt', '--filesystem=exfat', '--stdin', '/dev/disk4']),
    );
    const startup = planFor(
      'darwin',
      { disk: { identifier: 'disk0', internal: true } },
      { targetTool: 'veracrypt' },
    );
    expect(startup.commands).toEqual([]);
    expect(startup.findings.map((finding) => finding.message)).toContainEqual(
      expect.stringMatching(/cannot encrypt the Mac’s startup disk/),
    );
  });
});

describe('a target foreign to the platform is refused (issue 10 item 3)', () => {
  const all: TargetTool[] = ['luks2', 'veracrypt', 'apfs', 'bitlocker', 'luks2-opal'];
  // Written out here, not read from the registry, so a target registered on the wrong platform fails.
  const exists: Readonly<Record<'linux' | 'darwin' | 'win32', readonly TargetTool[]>> = {
    linux: ['luks2', 'veracrypt', 'luks2-opal'],
    darwin: ['apfs', 'veracrypt'],
    win32: ['bitlocker', 'veracrypt'],
  };
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    for (const tool of all) {
      const allowed = exists[platform].includes(tool);
      it(`${tool} on ${platform}: ${allowed ? 'planned' : 'refused'}`, () => {
        const attempt = () => refuseForeignTarget(platform, tool);
        if (allowed) {
          expect(attempt).not.toThrow();
        } else {
          expect(attempt).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
        }
      });
    }
  }

  it('buildPlan refuses before planning, so nothing is rendered', () => {
    expect(() => buildPlan({ provenance: { platform: 'win32' } }, { targetTool: 'luks2' })).toThrow(
      /does not exist on Windows/,
    );
    expect(() => buildPlan({ provenance: { platform: 'darwin' } }, { targetTool: 'bitlocker' })).toThrow(
      /does not exist on macOS/,
    );
  });
});

describe('PowerShell quoting', () => {
  it('leaves plain words bare, single-quotes the rest with doubled quotes, and calls a quoted program with &', () => {
    expect(renderPowerShellCommand(['manage-bde', '-on', 'C:'])).toBe('manage-bde -on C:');
    expect(renderPowerShellCommand(['tool', "it's", 'a,b', '$x'])).toBe("tool 'it''s' 'a,b' '$x'");
    expect(renderPowerShellCommand(['C:\\Program Files\\x.exe', '/create'])).toBe(
      "& 'C:\\Program Files\\x.exe' /create",
    );
  });
});
