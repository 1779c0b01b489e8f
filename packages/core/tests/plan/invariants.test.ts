import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessBundle, type Plan } from '@encplan/core';
import { parseBundle } from '../../src/capture/bundle.js';
import { assertDestructiveAllowed, buildPlan } from '../../src/plan/plan.js';
import { checkCommandInvariants } from '../../src/plan/invariants.js';
import { diskUsageOf } from '../../src/plan/disk-usage.js';
import type { CommandSettings, PlanCommand } from '../../src/plan/commands.js';
import { renderPlanScript, toScriptCommands } from '../../src/report/command-script.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { fixture } from '../support/fixtures.js';
import { emptyDisk, facts } from '../rules/facts-builder.js';
import { diskArbitrary } from './disk-arbitrary.js';

const workloads = fc.constantFrom('desktop', 'server', 'write-heavy');
const targetTools = fc.constantFrom('luks2', 'veracrypt');

const clock = { now: () => new Date('2026-11-23T00:00:00Z') };
const MIB = 1_048_576;

async function bundlePlan(
  name: string,
  options: Parameters<typeof buildPlan>[1] = {},
): Promise<{ facts: PlanFacts; plan: Plan }> {
  const envelope = await assessBundle(parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`))), clock);
  const result = envelope.result as unknown as PlanFacts;
  return { facts: result, plan: buildPlan(result, options) };
}

/**
 * The in-place strategy writes to the filesystem it encrypts by design: only to that one device, and only
 * after the plan has unmounted every mount point of it (set -eu stops the script when an unmount fails).
 */
function expectInPlaceUnmountsFirst(plan: Plan, input: PlanFacts): void {
  const target = plan.strategy?.target ?? null;
  expect(target).not.toBeNull();
  const path = target?.path ?? '';
  const firstUse = plan.commands.findIndex(
    (command) => command.id !== 'in-place-unmount' && command.argv.includes(path),
  );
  const unmounted = plan.commands
    .slice(0, firstUse === -1 ? plan.commands.length : firstUse)
    .filter((command) => command.id === 'in-place-unmount')
    .map((command) => command.argv.at(-1));
  for (const mountpoint of (target?.mountpoints ?? []).filter((point) => point !== '/')) {
    expect(unmounted).toContain(mountpoint);
  }
  // The running root is never encrypted from the running system: its commands are for a live/rescue system.
  if ((target?.mountpoints ?? []).includes('/')) {
    expect(plan.strategy?.offline).toBe(true);
  }
  // No other partition of the disk is ever named.
  for (const partition of input.partitions ?? []) {
    if (partition.path !== path) {
      expect(plan.commands.flatMap((command) => command.argv)).not.toContain(partition.path);
    }
  }
}

describe('the "tried as a new user" cases of issue 10', () => {
  it('never wipes the virtio system disk that holds / (whole-disk ext4, no table); --destructive is refused', async () => {
    const { facts: input, plan } = await bundlePlan('virtio-root-no-table-blkid-eperm-debian12');
    // blkid is denied, but the mount table says ext4 (issue 25 item 6): in place, from a live/rescue system.
    expect(plan.strategy?.kind).toBe('in-place');
    expectInPlaceUnmountsFirst(plan, input);
    expect(plan.commands.map((command) => command.id)).not.toContain('luks-format');
    expect(plan.destructiveRefusal?.inUse.map((item) => item.detail)).toContain('/dev/vda is mounted on /');
    expect(plan.destructiveRefusal?.alternative).toMatch(/live\/rescue system/);
  });

  it('never writes to a loop disk whose whole-disk ext4 is mounted, for any target', async () => {
    for (const targetTool of ['luks2', 'veracrypt'] as const) {
      const { facts: input, plan } = await bundlePlan('loop-ext4-mounted-benchmark-quick-debian12', {
        targetTool,
      });
      if (plan.strategy?.kind === 'in-place') {
        expectInPlaceUnmountsFirst(plan, input);
        continue;
      }
      expect(plan.commands).toEqual([]);
      expect(plan.destructiveRefusal?.inUse.map((item) => item.kind)).toEqual([
        'mounted',
        'whole-disk-signature',
      ]);
    }
  });

  it('on the GPT loop disk with a mounted ext4 partition, writes nothing live and refuses --destructive with the way that works', async () => {
    const { facts: base } = await bundlePlan('loop-gpt-ext4-78pct-debian12');
    const mounted = facts(base, {
      disk: { mountpoints: ['/mnt/data'] },
      partitions: (base.partitions ?? []).map((partition) => ({ ...partition, mountpoints: ['/mnt/data'] })),
    });
    for (const targetTool of ['luks2', 'veracrypt'] as const) {
      const plan = buildPlan(mounted, { targetTool, workload: 'desktop' });
      // No flag enables a write to a disk in use (issue 25 item 5): not the GPT, not a discard of its tail.
      expect(plan.destructiveRefusal?.reason).toMatch(/never writes to a disk in use/);
      if (plan.strategy?.kind === 'in-place') {
        expectInPlaceUnmountsFirst(plan, mounted);
        expect(plan.destructiveRefusal?.alternative).toMatch(
          /^Stop using \/dev\/loop0 first \(umount \/mnt\/data;/,
        );
        continue;
      }
      expect(plan.commands).toEqual([]);
      expect(plan.findings.map((finding) => finding.message).join(' ')).toMatch(/never writes a disk in use/);
      expect(plan.destructiveRefusal?.alternative).toMatch(/^Encrypt in place instead/);
    }
  });

  it('writes no partition whose start lies after its end when the disk has no free space', () => {
    const size = 2048 * MIB;
    const full = facts(emptyDisk(size), {
      disk: { partitionTable: 'gpt' },
      partitions: [
        { path: '/dev/sdz1', number: 1, startBytes: MIB, sizeBytes: size - 2 * MIB, mountpoints: [] },
      ],
      space: { regions: [] },
    });
    const plan = buildPlan(full, { workload: 'write-heavy' });
    expect(plan.commands).toEqual([]);
    expect(plan.findings.some((finding) => finding.ruleId === 'partition-first')).toBe(true);
  });

  it('comments out open, mkfs and the crypttab line with a commented-out luksFormat', () => {
    const plan = buildPlan(emptyDisk(64 * 1024 * MIB), {});
    const script = renderPlanScript(plan.commands, false);
    const live = script.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    // The first step (a new GPT) destroys data: nothing after it is live.
    expect(live).toEqual(['set -eu']);
  });

  it('never formats the whole disk when the plan leaves space unpartitioned', () => {
    const plan = buildPlan(emptyDisk(512 * 1024 * MIB), { workload: 'write-heavy' });
    expect(plan.settings.space?.unallocatedBytes).toBeGreaterThan(0);
    expect(plan.commands.find((command) => command.id === 'luks-format')?.argv.at(-1)).toBe('/dev/sdz1');
  });

  it('splits the script at the Host Protected Area: stage 1 stops before the partition table is written', () => {
    const noTrim = facts(emptyDisk(256 * 1024 * MIB), {
      disk: { transport: 'sata' },
      media: { kind: 'ssd' },
      trim: { deviceSupportsTrim: false },
      space: {
        hostProtectedArea: { visibleSectors: 1, nativeMaxSectors: 1, enabled: false, hiddenBytes: 0 },
      },
      sed: { ataSecurity: { supported: true, enabled: false, locked: false, frozen: false } },
    });
    const plan = buildPlan(noTrim, { workload: 'write-heavy' });
    expect(plan.settings.space?.method).toBe('hpa');
    const script = renderPlanScript(plan.commands, true);
    const stop = script.indexOf('exit 0');
    expect(script.indexOf('hdparm -N')).toBeLessThan(stop);
    expect(script.indexOf('hdparm --user-master u --security-erase')).toBeLessThan(
      script.indexOf('hdparm -N'),
    );
    expect(script.indexOf('sgdisk')).toBeGreaterThan(stop);
    expect(script).toMatch(/Power-cycle the drive/);
  });
});

/** Settings of a LUKS2 plan on /dev/sdz with no discards, workqueue bypass or space plan. */
const checkerSettings: CommandSettings = {
  targetTool: 'luks2',
  devicePath: '/dev/sdz',
  cipherSpec: 'aes-xts-plain64',
  keyBits: 512,
  sectorSizeBytes: 4096,
  luks2Pbkdf: null,
  workqueueBypass: false,
  allowDiscards: false,
  space: null,
  veracrypt: null,
};

describe('checkCommandInvariants catches what a broken builder could emit', () => {
  const size = 16 * 1024 * MIB;
  const endSector = (size - 1024 * MIB) / 512 - 1;
  const settings: CommandSettings = {
    ...checkerSettings,
    workqueueBypass: true,
    allowDiscards: true,
    space: {
      unallocatedBytes: 1024 * MIB,
      unallocatedPercent: 6.3,
      partitionEndSector: endSector,
      logicalSectorBytes: 512,
      discardRange: { offsetBytes: (endSector + 1) * 512, lengthBytes: 1024 * MIB - 34 * 512 },
      method: 'discarded-tail',
      trimReachesDrive: true,
    },
    veracrypt: null,
  };
  const command = (id: string, argv: string[], extra: Partial<PlanCommand> = {}): PlanCommand => ({
    id,
    purpose: id,
    argv,
    risk: 'destroys-data',
    stdin: null,
    ...extra,
  });
  const inUse = facts(emptyDisk(size), {
    disk: { mountpoints: ['/'], isSystemDisk: true },
    space: { regions: [] },
  });
  const rules = (input: PlanFacts, commands: PlanCommand[]) =>
    checkCommandInvariants(input, settings, commands).map((violation) => violation.rule);

  it('a relabel of a disk in use', () => {
    expect(
      rules(inUse, [command('x', ['sgdisk', '--clear', `--new=1:2048:${String(endSector)}`, '/dev/sdz'])]),
    ).toContain('relabels-used-disk');
  });
  it('a new partition or a discard in never-allocated space of a disk in use (a GPT change is a write)', () => {
    const mounted = facts(emptyDisk(size), {
      disk: { partitionTable: 'gpt', mountpoints: ['/srv'] },
      partitions: [{ path: '/dev/sdz1', number: 1, startBytes: MIB, sizeBytes: MIB, mountpoints: ['/srv'] }],
      space: { regions: [{ startBytes: 2 * MIB, sizeBytes: size - 4 * MIB, location: 'tail' }] },
    });
    const tail = settings.space?.discardRange ?? { offsetBytes: 0, lengthBytes: 0 };
    expect(
      rules(mounted, [
        command('x', ['sgdisk', `--new=2:4096:${String(endSector)}`, '/dev/sdz'], {
          risk: 'changes-settings',
        }),
      ]),
    ).toContain('writes-in-use');
    expect(
      rules(mounted, [
        command('y', [
          'blkdiscard',
          '--offset',
          String(tail.offsetBytes),
          '--length',
          String(tail.lengthBytes),
          '/dev/sdz',
        ]),
      ]),
    ).toContain('writes-in-use');
  });
  it('a start after the end, and a partition outside the disk', () => {
    expect(
      rules(emptyDisk(size), [command('x', ['sgdisk', '--clear', '--new=1:4194304:4192255', '/dev/sdz'])]),
    ).toContain('partition-range');
    expect(
      rules(emptyDisk(size), [
        command('x', ['sgdisk', '--clear', `--new=1:2048:${String(size / 512)}`, '/dev/sdz']),
      ]),
    ).toContain('partition-range');
  });
  it('a discard inside an existing partition', () => {
    const gpt = facts(emptyDisk(size), {
      disk: { partitionTable: 'gpt' },
      partitions: [{ path: '/dev/sdz1', number: 1, startBytes: MIB, sizeBytes: size - 2 * MIB }],
      space: { regions: [] },
    });
    expect(
      rules(gpt, [
        command('x', ['blkdiscard', '--offset', String(size / 2), '--length', String(MIB), '/dev/sdz']),
      ]),
    ).toContain('discard-range');
  });
  it('a whole-disk format while the plan leaves a spare tail', () => {
    expect(rules(emptyDisk(size), [command('x', ['cryptsetup', 'luksFormat', '/dev/sdz'])])).toContain(
      'layout-disagrees',
    );
  });
  it('an open without the planned workqueue flags', () => {
    const commands = [
      command('a', ['sgdisk', '--clear', `--new=1:2048:${String(endSector)}`, '/dev/sdz']),
      command('b', ['cryptsetup', 'luksFormat', '/dev/sdz1']),
      command('c', ['cryptsetup', 'open', '--allow-discards', '--persistent', '/dev/sdz1', 'cryptdata'], {
        risk: 'changes-settings',
      }),
    ];
    expect(rules(emptyDisk(size), commands)).toEqual(['activation-flags', 'activation-flags']);
  });
  it('a command in the same stage after a Host Protected Area change', () => {
    const commands = [
      command('hpa-set', [
        'hdparm',
        '-N',
        `p${String(endSector + 35)}`,
        '--yes-i-know-what-i-am-doing',
        '/dev/sdz',
      ]),
      command('a', ['sgdisk', '--clear', `--new=1:2048:${String(endSector)}`, '/dev/sdz']),
    ];
    expect(rules(emptyDisk(size), commands)).toContain('power-cycle-stop');
  });
  it('a tool it cannot interpret, and a shell string', () => {
    expect(
      rules(emptyDisk(size), [
        command('x', ['sh', '-c', 'echo >> /etc/crypttab'], { risk: 'changes-settings' }),
      ]),
    ).toEqual(['uninterpreted-write']);
  });
});

describe('properties over random disk layouts, mounts, swap and holders', () => {
  it('every generated command list passes the invariants, and nothing in use is ever written', () => {
    fc.assert(
      fc.property(diskArbitrary, workloads, targetTools, (input, workload, targetTool) => {
        const plan = buildPlan(input, { workload, targetTool });
        expect(plan.findings.filter((finding) => finding.ruleId === 'commands-withheld')).toEqual([]);
        if (plan.strategy?.kind === 'in-place') {
          expectInPlaceUnmountsFirst(plan, input);
          return;
        }
        const usage = diskUsageOf(input);
        const words = plan.commands.flatMap((command) => command.argv);
        for (const partition of input.partitions ?? []) {
          expect(words).not.toContain(partition.path);
        }
        if (!usage.wholeDiskFree) {
          expect(words).not.toContain('--clear');
          expect(
            plan.commands.some(
              (command) => command.argv.at(-1) === '/dev/sdz' && command.argv[1] === 'luksFormat',
            ),
          ).toBe(false);
        }
        for (const command of plan.commands) {
          const created = /^--new=\d+:(\d+):(\d+)$/.exec(
            command.argv.find((word) => word.startsWith('--new=')) ?? '',
          );
          if (created !== null) {
            const [start, end] = [Number(created[1]), Number(created[2])];
            expect(start).toBeLessThan(end);
            expect((start * 512) % MIB).toBe(0);
            expect((end + 1) * 512).toBeLessThanOrEqual((input.disk?.sizeBytes ?? 0) - 34 * 512);
            expect(end).toBe(plan.settings.space?.partitionEndSector);
          }
        }
        if (usage.inUse.length > 0) {
          // --destructive is refused unless the plan's destructive steps stay in never-allocated space.
          expect(plan.destructiveRefusal === null).toBe(
            plan.commands.some((command) => command.risk === 'destroys-data'),
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it('without --destructive, nothing after a commented-out destructive step is live', () => {
    fc.assert(
      fc.property(diskArbitrary, (input) => {
        const plan = buildPlan(input, { workload: 'write-heavy' });
        const script = renderPlanScript(plan.commands, false);
        const live = script.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
        const firstDestructive = plan.commands.findIndex((command) => command.risk === 'destroys-data');
        const liveAllowed = new Set([
          'set -eu',
          'stage="${1:-1}"',
          ':',
          'fi',
          'exit 0',
          ...plan.commands
            .slice(0, Math.max(0, firstDestructive === -1 ? plan.commands.length : firstDestructive))
            .map((c) => c.argv.join(' ')),
        ]);
        for (const line of live) {
          if (!line.startsWith('if [') && !line.startsWith('echo ')) {
            expect(
              liveAllowed.has(line) ||
                plan.commands
                  .slice(0, firstDestructive === -1 ? undefined : firstDestructive)
                  .some((c) => line.startsWith(c.argv[0] ?? '\0')),
            ).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

/** Tools that write a disk: its table, its space, a volume on it, or its filesystem in place. */
const DISK_WRITERS = new Set([
  'sgdisk',
  'partx',
  'blkdiscard',
  'hdparm',
  'veracrypt',
  'mkfs.ext4',
  'e2fsck',
  'resize2fs',
  'umount',
  'tee',
]);
const writes = (argv: readonly string[]): boolean =>
  DISK_WRITERS.has(argv[0] ?? '') || (argv[0] === 'cryptsetup' && argv[1] !== 'refresh');

describe('a disk with something mounted, for every target and strategy (issue 25 item 5)', () => {
  const mountedDisk = diskArbitrary.filter((input) => (input.disk?.mountpoints ?? []).length > 0);
  it('the script without --destructive writes nothing live, and --destructive is refused with another way', () => {
    fc.assert(
      fc.property(mountedDisk, workloads, targetTools, (input, workload, targetTool) => {
        const plan = buildPlan(input, { workload, targetTool });
        const live = toScriptCommands(plan.commands, false).filter((command) => command.live);
        expect(live.filter((command) => writes(command.argv)).map((command) => command.line)).toEqual([]);
        expect(() => {
          assertDestructiveAllowed(plan);
        }).toThrow(expect.objectContaining({ code: 'DESTRUCTIVE_OPERATION_REFUSED' }) as Error);
        const hint = plan.destructiveRefusal?.alternative ?? '';
        // The hint names a way that works, never the strategy already chosen.
        const current: Record<string, RegExp> = {
          'in-place': /^Encrypt in place/,
          reinstall: /^Reinstall|^Back up, reinstall/,
          'fresh-format': /^Format fresh|format it fresh/i,
          undetermined: /^$/,
          'nothing-to-do': /^$/,
        };
        expect(hint).not.toMatch(current[plan.strategy?.kind ?? 'undetermined'] ?? /^$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('in-place steps (the in-place strategy builds them)', () => {
  const size = 16 * 1024 * MIB;
  const withPartition = (mountpoints: string[]): PlanFacts =>
    facts(emptyDisk(size), {
      disk: { partitionTable: 'gpt', mountpoints },
      partitions: [
        {
          path: '/dev/sdz1',
          number: 1,
          startBytes: MIB,
          sizeBytes: size - 2 * MIB,
          filesystem: { type: 'ext4' },
          mountpoints,
        },
      ],
      space: { regions: [] },
    });
  const settings = checkerSettings;
  const inPlace: PlanCommand[] = [
    { id: 'fsck', purpose: '', argv: ['e2fsck', '-f', '/dev/sdz1'], risk: 'changes-settings', stdin: null },
    {
      id: 'shrink',
      purpose: '',
      argv: ['resize2fs', '/dev/sdz1', '1000M'],
      risk: 'destroys-data',
      stdin: null,
    },
    {
      id: 'reencrypt',
      purpose: '',
      argv: ['cryptsetup', 'reencrypt', '--encrypt', '--reduce-device-size', '32M', '/dev/sdz1'],
      risk: 'destroys-data',
      stdin: 'passphrase',
    },
  ];

  it('may act on an existing partition nothing uses', () => {
    expect(checkCommandInvariants(withPartition([]), settings, inPlace)).toEqual([]);
  });

  it('never on a mounted one (the root filesystem goes through the offline path)', () => {
    const rules = checkCommandInvariants(withPartition(['/srv']), settings, inPlace).map((v) => v.rule);
    expect(rules).toContain('writes-in-use');
    expect(new Set(rules)).toEqual(new Set(['writes-in-use']));
  });
});
