import { describe, expect, it } from 'vitest';
import { planFromAssessment } from '@encplan/core';
import { BTRFS_SHRINK_MOUNTPOINT } from '../../src/plan/commands-in-place.js';
import { buildPlan } from '../../src/plan/plan.js';
import { renderPlanScript, toScriptCommands } from '../../src/report/command-script.js';
import { type PlanFacts } from '../../src/rules/facts.js';
import { GIB, MIB } from '../../src/domain/units.js';
import { fixture } from '../support/fixtures.js';

function btrfsDisk(mountpoints: string[]): PlanFacts {
  return {
    provenance: { platform: 'linux 6.1.0' },
    media: { kind: 'ssd' },
    disk: { path: '/dev/sdb', sizeBytes: 64 * GIB, logicalSectorBytes: 512, partitionTable: 'gpt' },
    partitions: [
      { path: '/dev/sdb1', startBytes: MIB, sizeBytes: 32 * GIB, filesystem: { type: 'btrfs' }, mountpoints },
    ],
    encryption: { found: [] },
  };
}

describe('the in-place command set', () => {
  it('shrinks ext4 by the reduction, then reencrypts with exactly the planned LUKS2 settings', () => {
    const plan = planFromAssessment(JSON.parse(fixture('assessments/loop-gpt-ext4-78pct-bundle.json')));
    const byId = Object.fromEntries(plan.commands.map((command) => [command.id, command]));
    expect(byId['in-place-fsck']).toMatchObject({
      argv: ['e2fsck', '-f', '-p', '/dev/loop0p1'],
      stdin: null,
    });
    // 836763648 bytes (798 MiB) less 32 MiB = 766 MiB = 784384 KiB.
    expect(byId['in-place-shrink']).toMatchObject({
      argv: ['resize2fs', '/dev/loop0p1', '784384K'],
      risk: 'destroys-data',
    });
    const pbkdf = plan.settings.luks2Pbkdf;
    expect(byId['in-place-reencrypt']).toEqual({
      id: 'in-place-reencrypt',
      purpose: expect.stringContaining('in place') as string,
      argv: [
        'cryptsetup',
        'reencrypt',
        '--encrypt',
        '--type',
        'luks2',
        '--cipher',
        plan.settings.cipher,
        '--key-size',
        String(plan.settings.keySizeBits),
        '--sector-size',
        String(plan.settings.sectorSizeBytes),
        '--pbkdf',
        'argon2id',
        '--pbkdf-memory',
        String(pbkdf?.memoryKiB),
        '--pbkdf-parallel',
        String(pbkdf?.parallel),
        ...(pbkdf?.iterations === null
          ? ['--iter-time', String(pbkdf.iterTimeMs)]
          : ['--pbkdf-force-iterations', String(pbkdf?.iterations)]),
        '--label',
        'encplan',
        // The UUID the crypttab line names (plan/volume-uuid.ts), set by the reencrypt as by luksFormat.
        '--uuid',
        expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) as string,
        '--reduce-device-size',
        '32M',
        '/dev/loop0p1',
      ],
      risk: 'destroys-data',
      // The passphrase is typed at the prompt or piped on stdin, never in argv.
      stdin: 'passphrase',
    });
    expect(byId['luks-open']?.argv.slice(-2)).toEqual(['/dev/loop0p1', 'cryptdata']);
    expect(byId['in-place-grow']?.argv).toEqual(['resize2fs', '/dev/mapper/cryptdata']);
    for (const command of plan.commands) {
      expect(command.argv.join(' ')).not.toMatch(/passphrase|password/i);
    }
  });

  it('shrinks a mounted btrfs where it is mounted, then unmounts it', () => {
    const plan = buildPlan(btrfsDisk(['/data']));
    expect(plan.commands.slice(0, 2).map((c) => c.argv)).toEqual([
      ['btrfs', 'filesystem', 'resize', '-32m', '/data'],
      ['umount', '/data'],
    ]);
    // btrfs grows into the volume only while mounted: no resize2fs after open.
    expect(plan.commands.map((c) => c.id)).not.toContain('in-place-grow');
  });

  it('mounts an unmounted btrfs to shrink it (btrfs shrinks only while mounted)', () => {
    const plan = buildPlan(btrfsDisk([]));
    expect(plan.commands[0]?.argv.slice(-2)).toEqual([BTRFS_SHRINK_MOUNTPOINT, '/dev/sdb1']);
    expect(plan.commands[1]?.argv).toEqual([
      'btrfs',
      'filesystem',
      'resize',
      '-32m',
      BTRFS_SHRINK_MOUNTPOINT,
    ]);
    expect(plan.commands[2]?.argv).toEqual(['umount', BTRFS_SHRINK_MOUNTPOINT]);
  });
});

describe('the in-place script without --destructive', () => {
  const ext4Mounted: PlanFacts = {
    ...btrfsDisk(['/data']),
    partitions: [
      {
        path: '/dev/sdb1',
        startBytes: MIB,
        sizeBytes: 32 * GIB,
        filesystem: { type: 'ext4' },
        mountpoints: ['/data'],
      },
    ],
  };

  it('leaves the filesystem mounted: umount and e2fsck only prepare the shrink and are commented out with it', () => {
    const commands = buildPlan(ext4Mounted).commands;
    expect(commands.slice(0, 3).map((command) => [command.id, command.prepares ?? null])).toEqual([
      ['in-place-unmount', 'in-place-shrink'],
      ['in-place-fsck', 'in-place-shrink'],
      ['in-place-shrink', null],
    ]);
    const safe = toScriptCommands(commands, false);
    expect(safe.filter((command) => command.live)).toEqual([]);
    expect(safe[0]?.commentedOutBecause).toBe(
      'Only prepares "in-place-shrink", which is commented out: commented out with it.',
    );
    const script = renderPlanScript(commands, false);
    expect(script).toContain('# umount /data');
    expect(script).not.toMatch(/^umount /m);
    expect(script).not.toMatch(/^e2fsck /m);
    expect(toScriptCommands(commands, true).every((command) => command.live)).toBe(true);
  });

  it('keeps a preparing command live when the step it prepares is not commented out', () => {
    const commands = buildPlan(ext4Mounted).commands;
    const withoutShrink = commands.filter((command) => command.risk !== 'destroys-data');
    expect(toScriptCommands(withoutShrink, false)[0]).toMatchObject({ id: 'in-place-unmount', live: true });
  });
});
