import { describe, expect, it } from 'vitest';
import { type PlanFacts } from '../../src/rules/facts.js';
import { buildCommands, partitionPathFor, type CommandSettings } from '../../src/plan/commands.js';
import { type SpacePlan } from '../../src/rules/space.js';
import { facts, optionsWith } from '../rules/facts-builder.js';

const space: SpacePlan = {
  unallocatedBytes: 100 * 1_048_576,
  unallocatedPercent: 10,
  partitionEndSector: 1_843_199,
  logicalSectorBytes: 512,
  discardRange: { offsetBytes: 1_843_200 * 512, lengthBytes: 100 * 1_048_576 - 34 * 512 },
  method: 'discarded-tail',
  trimReachesDrive: true,
};
const settings = (overrides: Partial<CommandSettings> = {}): CommandSettings => ({
  targetTool: 'luks2',
  devicePath: '/dev/sdz',
  cipherSpec: 'aes-xts-plain64',
  keyBits: 512,
  sectorSizeBytes: 4096,
  luks2Pbkdf: { memoryKiB: 65_536, parallel: 2, iterations: 4, iterTimeMs: null, predictedUnlockMs: 2000 },
  workqueueBypass: true,
  allowDiscards: true,
  space,
  veracrypt: null,
  ...overrides,
});
const veracryptSettings = settings({
  targetTool: 'veracrypt',
  veracrypt: {
    encryption: 'AES',
    kdf: {
      hash: 'sha512',
      pim: 485,
      iterations: 500_000,
      derivationsPerSecond: null,
      predictedUnlockMs: null,
    },
  },
});
/** A disk with this partition table whose last partition ends at this sector (inclusive, 512-byte sectors). */
const table = (
  partitionTable: 'gpt' | 'dos' | 'none' | 'unknown' | null,
  lastPartitionEndSector: number | null,
): PlanFacts =>
  facts({
    disk: { ...(partitionTable === null ? {} : { partitionTable }), logicalSectorBytes: 512 },
    partitions:
      lastPartitionEndSector === null
        ? []
        : [{ startBytes: 1_048_576, sizeBytes: (lastPartitionEndSector + 1) * 512 - 1_048_576 }],
  });
/** An open LUKS volume: the inventory found it and its dm-crypt mapping is in the holder stack. */
const openLuks = (kind: 'luks1' | 'luks2'): PlanFacts => ({
  encryption: { found: [{ format: kind }] },
  stack: { type: 'disk', children: [{ type: 'crypt', mapperName: 'cryptroot' }] },
});

describe('buildCommands', () => {
  it('writes a fresh GPT, discards the tail, formats, opens with persistent flags and adds crypttab, in that order', () => {
    const commands = buildCommands(table('none', null), optionsWith(), settings());
    expect(commands.map((c) => [c.id, c.risk])).toEqual([
      ['partition-layout', 'destroys-data'],
      ['blkdiscard-tail', 'destroys-data'],
      ['luks-format', 'destroys-data'],
      ['luks-open', 'changes-settings'],
      ['crypttab-entry', 'changes-settings'],
    ]);
    expect(commands[0]?.argv).toEqual([
      'sgdisk',
      '--clear',
      '--new=0:2048:1843199',
      '--typecode=0:8309',
      '--change-name=0:encplan',
      '/dev/sdz',
    ]);
    expect(commands[1]?.argv).toEqual([
      'blkdiscard',
      '--offset',
      String(1_843_200 * 512),
      '--length',
      String(100 * 1_048_576 - 34 * 512),
      '/dev/sdz',
    ]);
    expect(commands[3]?.argv).toEqual([
      'cryptsetup',
      'open',
      '--allow-discards',
      '--perf-no_read_workqueue',
      '--perf-no_write_workqueue',
      '--persistent',
      partitionPathFor('encplan'),
      'cryptdata',
    ]);
    expect(commands[4]?.argv.at(-1)).toBe('luks,discard,no-read-workqueue,no-write-workqueue');
  });

  it('adds a partition after the last one, aligned to 1 MiB, without clearing the table', () => {
    const commands = buildCommands(table('gpt', 1_000_000), optionsWith(), settings());
    // Sector 1,000,001 rounded up to the next 2048-sector (1 MiB) boundary.
    expect(commands[0]?.argv).toEqual([
      'sgdisk',
      '--new=0:1001472:1843199',
      '--typecode=0:8309',
      '--change-name=0:encplan',
      '/dev/sdz',
    ]);
    expect(commands[0]?.risk).toBe('changes-settings');
  });

  it('formats the stand-in device as given when the input names no device or partitions', () => {
    const commands = buildCommands(table(null, null), optionsWith(), settings());
    expect(commands.map((c) => c.id)).toEqual(['luks-format', 'luks-open', 'crypttab-entry']);
    expect(commands[0]?.argv.at(-1)).toBe('/dev/sdz');
  });

  it.each([
    { name: 'a GPT disk whose partition ends are unknown', partitionTable: 'gpt', lastEnd: null },
    { name: 'an MBR disk, which sgdisk would convert to GPT', partitionTable: 'dos', lastEnd: 1_000_000 },
    { name: 'a disk whose table type is unknown', partitionTable: 'unknown', lastEnd: 1_000_000 },
  ] as const)('never formats the whole of $name', ({ partitionTable, lastEnd }) => {
    const input = facts(table(partitionTable, lastEnd), { disk: { path: '/dev/sdz' } });
    expect(buildCommands(input, optionsWith(), settings())).toEqual([]);
  });

  it('hides the tail in a Host Protected Area before partitioning when that is the spare method', () => {
    const commands = buildCommands(
      table('none', null),
      optionsWith(),
      settings({ space: { ...space, method: 'hpa', discardRange: null } }),
    );
    expect(commands.map((c) => c.id).slice(0, 2)).toEqual(['hpa-set', 'partition-layout']);
    // partition end 1,843,199 + 1 + 34 backup sectors
    expect(commands[0]).toMatchObject({
      argv: ['hdparm', '-N', 'p1843234', '--yes-i-know-what-i-am-doing', '/dev/sdz'],
      risk: 'destroys-data',
    });
  });

  it.each([
    {
      kind: 'luks2',
      argv: [
        'cryptsetup',
        'refresh',
        'cryptroot',
        '--allow-discards',
        '--perf-no_read_workqueue',
        '--perf-no_write_workqueue',
        '--persistent',
      ],
    },
    {
      kind: 'luks1',
      argv: [
        'cryptsetup',
        'refresh',
        'cryptroot',
        '--allow-discards',
        '--perf-no_read_workqueue',
        '--perf-no_write_workqueue',
      ],
    },
  ] as const)('tunes an open $kind volume in place instead of formatting', ({ kind, argv }) => {
    const input = openLuks(kind);
    expect(buildCommands(input, optionsWith(), settings()).map((c) => c.argv)).toEqual([argv]);
  });

  it('has nothing to run on an open volume when no flag changes', () => {
    const input = openLuks('luks2');
    expect(
      buildCommands(input, optionsWith(), settings({ allowDiscards: false, workqueueBypass: false })),
    ).toEqual([]);
  });

  it('lets cryptsetup time the KDF with --iter-time when no iteration count was computed', () => {
    const commands = buildCommands(
      table('none', null),
      optionsWith(),
      settings({
        luks2Pbkdf: {
          memoryKiB: 1_048_576,
          parallel: 4,
          iterations: null,
          iterTimeMs: 2000,
          predictedUnlockMs: 2000,
        },
      }),
    );
    const format = commands.find((c) => c.id === 'luks-format')?.argv ?? [];
    expect(format).toEqual(expect.arrayContaining(['--iter-time', '2000']));
    expect(format).not.toContain('--pbkdf-force-iterations');
  });

  it('creates a VeraCrypt volume on the new partition with a Linux filesystem type code', () => {
    const commands = buildCommands(
      table('none', null),
      optionsWith({ targetTool: 'veracrypt' }),
      veracryptSettings,
    );
    expect(commands[0]?.argv).toContain('--typecode=0:8300');
    expect(commands.at(-1)?.argv).toEqual([
      'veracrypt',
      '-t',
      '-c',
      '--volume-type=normal',
      '--encryption=AES',
      '--hash=sha512',
      '--pim=485',
      '--filesystem=ext4',
      '-k',
      '',
      '--random-source=/dev/urandom',
      '--non-interactive',
      '--stdin',
      partitionPathFor('encplan'),
    ]);
  });

  it('leaves partitioning to the OS tools outside Linux', () => {
    const input = facts(table('none', null), { provenance: { platform: 'win32' } });
    const commands = buildCommands(input, optionsWith({ targetTool: 'veracrypt' }), veracryptSettings);
    expect(commands.map((c) => c.id)).toEqual(['veracrypt-create']);
    expect(commands[0]?.argv).toContain('--filesystem=ntfs');
  });
});
