import { describe, expect, it, vi } from 'vitest';
import type { PlanCommand } from '../../src/domain/plan-command.js';
import { buildPlatformPlan } from '../../src/plan/plan-platform.js';
import { planSchema } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { resolvePlanOptions } from '../../src/rules/plan-options.js';
import { storageModelOfFacts } from '../../src/rules/storage-facts.js';
import {
  defaultTargetFor,
  ENCRYPTION_TARGETS,
  planTargetsOn,
  platformPlanOf,
} from '../../src/targets/registry.js';
import type {
  PlatformPlanHook,
  PlatformPlanInput,
  PlatformPlanKit,
  VeracryptChoice,
} from '../../src/targets/target.js';

// Issue 26 item 2: each target plans itself. A macOS or Windows plan is the target's own platform plan
// (targets/<id>/plan.ts), assembled by plan/plan-platform.ts from the part the target returns; Linux plans are
// the volume plan (plan/plan.ts), made from the target's settings rules, volumePlan and commands.

const windowsFacts: PlanFacts = {
  provenance: { platform: 'win32' },
  platformStorage: {
    platform: 'win32',
    disk: { identifier: '\\\\.\\PhysicalDrive1', source: 'Get-Disk' },
    partitions: [{ identifier: '1', mountPoint: 'E:' }],
    encryption: [{ volume: 'E:', format: 'bitlocker-off', source: 'manage-bde' }],
    trim: { driveSupports: true, osSends: false, source: 'fsutil' },
  },
};
const windowsStorage = storageModelOfFacts(windowsFacts)!;
const command = (argv: string[]): PlanCommand => ({
  id: 'fake-command',
  purpose: 'a command of the fake target',
  argv,
  stdin: null,
  risk: 'read-only',
  shell: 'powershell',
});

describe('every plan target plans itself on the platforms with a storage model', () => {
  it('has a hook for each target that exists on macOS or Windows, none on a platform it does not exist on', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      for (const id of planTargetsOn(platform)) {
        expect(platformPlanOf(id, platform), `${id} on ${platform}`).not.toBeNull();
      }
    }
    for (const target of ENCRYPTION_TARGETS) {
      for (const platform of Object.keys(target.platformPlans ?? {})) {
        expect(target.platforms, target.id).toContain(platform);
      }
    }
    // Linux has the volume plan: no target's hook replaces it.
    for (const id of planTargetsOn('linux')) {
      expect(platformPlanOf(id, 'linux')).toBeNull();
    }
  });
});

describe('buildPlatformPlan assembles the plan from the target’s part (plan/plan-platform.ts)', () => {
  const options = { ...resolvePlanOptions({ label: 'data1' }), targetTool: defaultTargetFor('win32') };

  it('puts the health gate first, then the target’s decisions, and takes its commands, settings and strategy', () => {
    let seen: PlatformPlanInput | null = null;
    const hook: PlatformPlanHook = (input, kit) => {
      seen = input;
      const trim = kit.windowsTrim();
      return {
        results: [
          {
            recommendations: [
              {
                ruleId: 'fake-method',
                value: 'fake',
                reason: 'the fake target’s choice',
                evidence: [],
                confidence: 'high',
              },
            ],
            findings: [{ ruleId: 'fake-note', severity: 'info', message: 'a note', evidence: [] }],
          },
          trim,
        ],
        commands: [command(['fake-tool', 'status', input.diskId ?? 'none'])],
        keySizeBits: 256,
        allowDiscards: false,
        veracrypt: null,
        alreadyEncrypted: { path: 'E:', format: 'bitlocker', reason: 'The fake target already protects E:.' },
      };
    };
    const plan = buildPlatformPlan(windowsFacts, windowsStorage, options, hook);
    expect(planSchema.parse(plan)).toEqual(plan);
    expect(seen).toMatchObject({
      diskId: '\\\\.\\PhysicalDrive1',
      options: { label: 'data1' },
    });
    expect(seen!.encrypts('bitlocker')).toBe(true);
    expect(seen!.encrypts('bitlocker-off')).toBe(false);
    expect(plan.recommendations.map((entry) => entry.ruleId)).toEqual([
      'health-gate',
      'fake-method',
      'windows-trim',
    ]);
    expect(plan.findings.map((entry) => entry.ruleId)).toContain('fake-note');
    expect(plan.commands.map((entry) => entry.argv)).toEqual([
      ['fake-tool', 'status', '\\\\.\\PhysicalDrive1'],
    ]);
    expect(plan.settings).toMatchObject({
      cipher: 'aes-xts',
      keySizeBits: 256,
      allowDiscards: false,
      veracrypt: null,
    });
    expect(plan.strategy).toMatchObject({ kind: 'nothing-to-do' });
    expect(plan.strategy?.reason).toBe('The fake target already protects E:.');
    expect(plan.attackerCost).toEqual([]);
  });

  it('states VeraCrypt settings and their attacker cost when the target chose them through the kit', () => {
    const hook: PlatformPlanHook = (_input, kit) => {
      const rules = kit.veracrypt();
      return {
        results: [rules],
        commands: [],
        keySizeBits: null,
        allowDiscards: false,
        veracrypt: rules.settings,
        alreadyEncrypted: null,
      };
    };
    const plan = buildPlatformPlan(windowsFacts, windowsStorage, options, hook);
    expect(plan.strategy).toBeUndefined();
    expect(plan.settings.veracrypt).not.toBeNull();
    expect(plan.settings.cipher).toBe(plan.settings.veracrypt?.encryption);
    expect(plan.recommendations.map((entry) => entry.ruleId)).toContain('veracrypt-pim');
    expect(plan.attackerCost.length).toBeGreaterThan(0);
  });
});

describe('a target’s platform plan uses only what the kit hands it (targets/veracrypt/plan.ts)', () => {
  const macStorage = (internal: boolean) =>
    storageModelOfFacts({
      provenance: { platform: 'darwin' },
      platformStorage: {
        platform: 'darwin',
        disk: { identifier: 'disk4', internal, source: 'diskutil info' },
      },
    })!;
  const settings: VeracryptChoice = { encryption: 'AES', kdf: { hash: 'sha512', pim: 485 } };
  const kit = (): PlatformPlanKit<VeracryptChoice> => ({
    veracrypt: () => ({ recommendations: [], findings: [], settings }),
    windowsTrim: () => ({ recommendations: [], findings: [], enableTrim: false }),
    macosTrim: () => ({ recommendations: [], findings: [], trimforce: false }),
    volumeCommands: vi.fn((devicePath: string) => [command(['veracrypt', '--create', devicePath])]),
  });
  const input = (internal: boolean, diskId: string | null): PlatformPlanInput => ({
    storage: macStorage(internal),
    diskId,
    ioBenchmark: null,
    options: { label: 'data1', speedOverSecurity: false },
    encrypts: () => false,
  });
  const hook = platformPlanOf('veracrypt', 'darwin')!;

  it('formats a named external drive with the kit’s volume commands, never the startup disk', () => {
    const external = kit();
    const part = hook(input(false, 'disk4'), external);
    expect(external.volumeCommands).toHaveBeenCalledWith('/dev/disk4', settings);
    expect(part.commands.map((entry) => entry.argv)).toEqual([['veracrypt', '--create', '/dev/disk4']]);
    expect(part).toMatchObject({ veracrypt: settings, allowDiscards: false, keySizeBits: null });
    const startup = kit();
    expect(hook(input(true, 'disk4'), startup).commands).toEqual([]);
    expect(hook(input(false, null), startup).commands).toEqual([]);
    expect(startup.volumeCommands).not.toHaveBeenCalled();
  });
});
