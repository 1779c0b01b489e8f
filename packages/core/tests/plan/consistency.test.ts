import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan, type Plan } from '../../src/plan/plan.js';
import { checkPlanConsistency } from '../../src/plan/consistency.js';
import { renderPlanCommandsScript, toPlanView } from '../../src/report/report-view.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { GIB, MIB } from '../../src/domain/units.js';
import { cipherMiB, emptyDisk, facts, gptDisk, machine } from '../rules/facts-builder.js';
import { diskArbitrary } from './disk-arbitrary.js';

const verdictArbitrary = fc.constantFrom('healthy', 'warning', 'failing', 'unknown', undefined);

/**
 * One argon2id benchmark row, as a busy or idle CPU leaves it (cryptsetup lowers memory, not time), or stopped at
 * cryptsetup's minimum cost (4 iterations, 64 MiB) by a CPU too loaded to meet the time asked.
 */
const argon2Arbitrary = fc.record({
  variant: fc.constant('argon2id' as const),
  timeCost: fc.integer({ min: 4, max: 12 }),
  memoryKibibytes: fc.oneof(fc.integer({ min: 65_536, max: 1_048_576 }), fc.constant(65_536)),
  threads: fc.integer({ min: 1, max: 4 }),
  derivedKeyBits: fc.constant(256),
  requestedDurationMs: fc.constantFrom(500, 1000, 2000),
});

/** A LUKS2 fio variant with or without the workqueue bypass, summarised from 1 or 3 runs. */
const variantArbitrary = fc.record({
  bypass: fc.boolean(),
  mib: fc.integer({ min: 20, max: 3000 }),
  runCount: fc.constantFrom(1, 3),
  spreadPercent: fc.integer({ min: 0, max: 30 }),
});

/** Everything else an assessment may know or not: health, machine, cipher and KDF speed, encrypted runs. */
const machineArbitrary = fc.record({
  verdict: verdictArbitrary,
  cores: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }),
  memoryGiB: fc.option(fc.constantFrom(1, 2, 4, 8, 16, 64), { nil: undefined }),
  kernel: fc.constantFrom('6.1.0-27-amd64', '5.4.0', undefined),
  aes256MiB: fc.option(fc.integer({ min: 20, max: 6000 }), { nil: undefined }),
  aes512Share: fc.double({ min: 0.5, max: 1, noNaN: true }),
  argon2: fc.array(argon2Arbitrary, { maxLength: 3 }),
  pbkdf2Sha512: fc.option(fc.integer({ min: 100_000, max: 3_000_000 }), { nil: undefined }),
  variants: fc.array(variantArbitrary, { maxLength: 2 }),
  logicalSector: fc.constantFrom(512, 4096),
});

type MachineShape = typeof machineArbitrary extends fc.Arbitrary<infer T> ? T : never;

function assessmentOf(disk: PlanFacts, shape: MachineShape): PlanFacts {
  const aes256 = shape.aes256MiB;
  return facts(
    disk,
    machine({
      aes: true,
      ...(shape.cores === undefined ? {} : { cores: shape.cores }),
      ...(shape.memoryGiB === undefined ? {} : { memoryBytes: shape.memoryGiB * GIB }),
      ...(shape.kernel === undefined ? {} : { kernel: shape.kernel }),
    }),
    shape.verdict === undefined ? {} : { health: { verdict: shape.verdict } },
    {
      disk: { logicalSectorBytes: shape.logicalSector, physicalSectorBytes: shape.logicalSector },
      cipherBenchmark: {
        cipherSpeed: {
          measurements:
            aes256 === undefined
              ? []
              : [cipherMiB('aes-xts', 256, aes256), cipherMiB('aes-xts', 512, aes256 * shape.aes512Share)],
        },
        kdfSpeed: {
          argon2: shape.argon2,
          pbkdf2:
            shape.pbkdf2Sha512 === undefined
              ? []
              : [{ hash: 'sha512', iterationsPerSecond: shape.pbkdf2Sha512, derivedKeyBits: 256 }],
        },
      },
      ioBenchmark: {
        encrypted: shape.variants.map((variant) => ({
          backend: 'luks2' as const,
          variant: `luks2 sector 4096${variant.bypass ? ', no workqueues' : ''}`,
          profiles: [
            {
              profile: {
                id: 'rnd4k-q32t1-read',
                pattern: 'random' as const,
                direction: 'read' as const,
                blockSizeBytes: 4096,
                queueDepth: 32,
                threads: 1,
              },
              summary: {
                medianBytesPerSecond: variant.mib * MIB,
                runCount: variant.runCount,
                spreadPercent: variant.spreadPercent,
              },
            },
          ],
        })),
      },
    },
  );
}

const optionsArbitrary = fc.record({
  targetTool: fc.constantFrom('luks2' as const, 'veracrypt' as const),
  workload: fc.constantFrom('desktop' as const, 'server' as const, 'write-heavy' as const),
  speedOverSecurity: fc.boolean(),
  passwordLength: fc.option(fc.integer({ min: 8, max: 40 }), { nil: undefined }),
  unlockMachine: fc.option(
    fc.record({
      memoryBytes: fc.option(fc.constantFrom(GIB, 2 * GIB, 8 * GIB), { nil: null }),
      cores: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
    }),
    { nil: undefined },
  ),
});

/** Windows and macOS assessments: the platform's own storage facts, with a health verdict. */
const platformArbitrary = fc.record({
  platform: fc.constantFrom('win32' as const, 'darwin' as const),
  verdict: fc.constantFrom('healthy' as const, 'warning' as const, 'failing' as const, 'unknown' as const),
  targetTool: fc.constantFrom('default', 'veracrypt'),
  partitionGiB: fc.integer({ min: 1, max: 2000 }),
  pbkdf2Sha512: fc.option(fc.integer({ min: 100_000, max: 3_000_000 }), { nil: undefined }),
});

describe('checkPlanConsistency: every plan tells one story (issue 24 item 5)', () => {
  it('finds no contradiction in any plan built from generated Linux assessments', () => {
    fc.assert(
      fc.property(diskArbitrary, machineArbitrary, optionsArbitrary, (disk, shape, options) => {
        const plan = buildPlan(assessmentOf(disk, shape), options);
        expect(plan.findings.filter((finding) => finding.ruleId === 'plan-inconsistent')).toEqual([]);
        if (plan.healthGate.effectiveVerdict === 'failing') {
          expect(plan.strategy?.kind).toBe('replace-first');
          expect(plan.commands).toEqual([]);
          expect(plan.destructiveRefusal?.reason).toContain('failing');
        } else {
          expect(plan.strategy?.kind).not.toBe('replace-first');
        }
        const pbkdf = plan.settings.luks2Pbkdf;
        if (pbkdf !== null && pbkdf.kdf !== 'pbkdf2') {
          // The header gets what the plan says: memory, lanes and iterations are all pinned.
          expect(pbkdf.iterations).not.toBeNull();
          expect(pbkdf.iterTimeMs).toBeNull();
        } else if (pbkdf !== null) {
          // GRUB's PBKDF2 keyslot: pinned iterations where PBKDF2 was measured, else cryptsetup's --iter-time.
          expect(pbkdf.iterations === null).toBe(pbkdf.iterTimeMs !== null);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds no contradiction in any Windows or macOS plan, and a failing drive gets no command there either', () => {
    fc.assert(
      fc.property(platformArbitrary, (shape) => {
        const plan = buildPlan(
          {
            provenance: { platform: shape.platform },
            platformStorage: {
              platform: shape.platform,
              disk: {
                identifier: shape.platform === 'win32' ? '\\\\.\\PhysicalDrive0' : 'disk0',
                internal: true,
                source: shape.platform === 'win32' ? 'Get-Disk' : 'diskutil',
              },
              partitions: [
                {
                  identifier: '1',
                  mountPoint: shape.platform === 'win32' ? 'C:' : '/',
                  sizeBytes: shape.partitionGiB * GIB,
                },
              ],
              encryption: [
                {
                  volume: shape.platform === 'win32' ? 'C:' : 'disk1s1',
                  format: shape.platform === 'win32' ? 'bitlocker-off' : 'apfs-unencrypted',
                  source: shape.platform === 'win32' ? 'manage-bde' : 'diskutil',
                },
              ],
              health: { verdict: shape.verdict, statusOnly: true },
            },
            ...(shape.pbkdf2Sha512 === undefined
              ? {}
              : {
                  cipherBenchmark: {
                    kdfSpeed: {
                      pbkdf2: [
                        { hash: 'sha512', iterationsPerSecond: shape.pbkdf2Sha512, derivedKeyBits: 256 },
                      ],
                    },
                  },
                }),
          } as PlanFacts,
          shape.targetTool === 'veracrypt' ? { targetTool: 'veracrypt' } : {},
        );
        expect(plan.findings.filter((finding) => finding.ruleId === 'plan-inconsistent')).toEqual([]);
        if (shape.verdict === 'failing') {
          expect(plan.strategy?.kind).toBe('replace-first');
          expect(plan.commands).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('gives a failing drive "back up and replace first", no live command under --destructive, and says why in the script', () => {
    const failing = facts(emptyDisk(64 * GIB), { health: { verdict: 'failing' } });
    const plan = buildPlan(failing);
    expect(plan.strategy?.kind).toBe('replace-first');
    expect(plan.recommendations.find((entry) => entry.ruleId === 'strategy')?.value).toBe('replace-first');
    expect(plan.commands).toEqual([]);
    expect(plan.destructiveRefusal?.reason).toMatch(/failing.*under any flag/);
    // The same disk when healthy gets a fresh format with commands: only the verdict changed the plan.
    expect(buildPlan(facts(emptyDisk(64 * GIB), { health: { verdict: 'healthy' } })).commands).not.toEqual(
      [],
    );
    const script = renderPlanCommandsScript(toPlanView(plan, null, { includeDestructive: true }));
    expect(script).toContain('# No command, under any flag (--destructive included): The drive is failing');
    expect(script).not.toContain('cryptsetup');
  });

  /** A healthy fresh-format LUKS2 plan with commands, to break one piece at a time. */
  const healthy = (): Plan => buildPlan(facts(emptyDisk(64 * GIB), { health: { verdict: 'healthy' } }));
  const contradictionsOf = (plan: Plan): string => {
    const checked = checkPlanConsistency(plan);
    return checked.findings.find((finding) => finding.ruleId === 'plan-inconsistent')?.message ?? '';
  };

  /** The plan with its LUKS2 keyslot KDF settings changed (the commands left as they were). */
  const withPbkdf =
    (change: Partial<NonNullable<Plan['settings']['luks2Pbkdf']>>) =>
    (plan: Plan): Plan => ({
      ...plan,
      settings: {
        ...plan.settings,
        luks2Pbkdf: plan.settings.luks2Pbkdf === null ? null : { ...plan.settings.luks2Pbkdf, ...change },
      },
    });

  it.each([
    {
      name: 'a luksFormat whose --pbkdf-memory is not the Argon2 memory the plan shows (1 GiB shown, 141 MiB written)',
      edit: withPbkdf({ memoryKiB: 1_048_576 + 1 }),
      says: '--pbkdf-memory',
    },
    {
      name: 'iterations sized from an unlock time that is only a lower bound (argon2id benchmark at its minimum)',
      edit: withPbkdf({ iterations: 16, predictedUnlockLowerBound: true }),
      says: 'only a lower bound',
    },
    {
      name: 'a key size recommendation that is not the key size setting',
      edit: (plan: Plan): Plan => ({ ...plan, settings: { ...plan.settings, keySizeBits: 256 } }),
      says: 'cipher-key-size',
    },
    {
      name: 'an open line that passes discards the plan turned off',
      edit: (plan: Plan): Plan => ({
        ...plan,
        settings: { ...plan.settings, allowDiscards: !plan.settings.allowDiscards },
      }),
      says: 'discards',
    },
    {
      name: 'a replace-first strategy on a healthy drive',
      edit: (plan: Plan): Plan => ({
        ...plan,
        strategy: plan.strategy === undefined ? undefined : { ...plan.strategy, kind: 'replace-first' },
      }),
      says: 'not failing',
    },
    {
      name: 'a spare-area method the commands do not make (HPA stated, no hdparm -N)',
      edit: (plan: Plan): Plan => ({
        ...plan,
        settings: {
          ...plan.settings,
          space: plan.settings.space === null ? null : { ...plan.settings.space, method: 'hpa' },
        },
      }),
      says: 'Host Protected Area',
    },
    {
      name: 'an unknown TRIM reach stated as yes',
      edit: (plan: Plan): Plan => ({
        ...plan,
        settings: {
          ...plan.settings,
          space:
            plan.settings.space === null
              ? null
              : {
                  ...plan.settings.space,
                  trimReachesDrive: true,
                  trim: { reachesDrive: null, reason: 'the drive did not say whether it supports TRIM' },
                },
        },
      }),
      says: 'whether it does is unknown',
    },
  ])('withholds every command of $name', ({ edit, says }) => {
    const plan = healthy();
    expect(contradictionsOf(plan)).toBe('');
    const broken = edit(plan);
    expect(contradictionsOf(broken)).toContain(says);
    expect(checkPlanConsistency(broken).commands).toEqual([]);
  });

  it('states a tail discard range only where a command discards it (an in-place plan discards nothing)', () => {
    // A flash disk the kernel sends discards to (discard_max_bytes > 0): the fresh path discards the tail.
    const discarding = { media: { kind: 'ssd' as const }, trim: { kernelDiscardMaxBytes: 2_147_450_880 } };
    const fresh = buildPlan(facts(emptyDisk(64 * GIB), discarding), { workload: 'server' });
    expect(fresh.settings.space?.discardRange).not.toBeNull();
    expect(fresh.commands.map((command) => command.id)).toContain('blkdiscard-tail');
    const withoutDiscard: Plan = {
      ...fresh,
      commands: fresh.commands.filter((command) => command.id !== 'blkdiscard-tail'),
    };
    expect(contradictionsOf(withoutDiscard)).toContain(
      'the plan states a tail discard range, but no command discards it',
    );
    // In place the partition table stays: no discard range, and the method says who discards the tail.
    const inPlace = buildPlan(
      facts(
        gptDisk([{ path: '/dev/nvme0n1p1', sizeBytes: 100 * GIB, type: 'ext4', availableBytes: 50 * GIB }]),
        discarding,
      ),
      { workload: 'server' },
    );
    expect(inPlace.strategy?.kind).toBe('in-place');
    expect(inPlace.commands.map((command) => command.id)).not.toContain('blkdiscard-tail');
    expect(inPlace.settings.space?.method).toBe('discarded-tail');
    expect(inPlace.settings.space?.discardRange).toBeNull();
    expect(inPlace.recommendations.find((entry) => entry.ruleId === 'spare-area-method')?.reason).toContain(
      'No command of this plan discards it: they keep the partition table as it is',
    );
    expect(contradictionsOf(inPlace)).toBe('');
  });

  it('withholds a VeraCrypt line without the planned PIM (the Windows command left it out)', () => {
    const plan = buildPlan(facts(emptyDisk(64 * GIB), { health: { verdict: 'healthy' } }), {
      targetTool: 'veracrypt',
    });
    expect(contradictionsOf(plan)).toBe('');
    const withoutPim: Plan = {
      ...plan,
      commands: plan.commands.map((command) =>
        command.id === 'veracrypt-create'
          ? { ...command, argv: command.argv.filter((word) => !word.startsWith('--pim=')) }
          : command,
      ),
    };
    expect(contradictionsOf(withoutPim)).toContain('PIM');
  });

  it('turns a failing drive on any plan into back up and replace first, with no command', () => {
    const plan = healthy();
    const failing: Plan = {
      ...plan,
      healthGate: { status: 'back-up-first', effectiveVerdict: 'failing', reason: 'The drive is failing.' },
    };
    const checked = checkPlanConsistency(failing);
    expect(checked.strategy?.kind).toBe('replace-first');
    expect(checked.commands).toEqual([]);
    expect(checked.destructiveRefusal?.reason).toContain('failing');
    expect(checked.findings.map((finding) => finding.ruleId)).not.toContain('plan-inconsistent');
  });
});
