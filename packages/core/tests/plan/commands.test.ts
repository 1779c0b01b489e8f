import { describe, expect, it } from 'vitest';
import { type PlanFacts } from '../../src/rules/facts.js';
import { buildCommands, type CommandSettings } from '../../src/plan/commands.js';
import { checkCommandInvariants } from '../../src/plan/invariants.js';
import { type SpacePlan } from '../../src/rules/space.js';
import { emptyDisk, facts, optionsWith } from '../rules/facts-builder.js';
import { words } from '../support/argv.js';

const space: SpacePlan = {
  unallocatedBytes: 100 * 1_048_576,
  unallocatedPercent: 10,
  partitionEndSector: 1_843_199,
  logicalSectorBytes: 512,
  discardRange: { offsetBytes: 1_843_200 * 512, lengthBytes: 100 * 1_048_576 - 34 * 512 },
  method: 'discarded-tail',
  trimReachesDrive: true,
};
/** The disk `space` was planned for: 1,843,200 sectors of partition area plus the 100 MiB tail. */
const DISK_BYTES = 1_843_200 * 512 + 100 * 1_048_576;
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
/** A GPT disk whose one partition (number 1, from 1 MiB) ends at this sector, with the rest free. */
const gptDisk = (lastEndSector: number, mountpoints: string[] = []): PlanFacts => {
  const partitionEnd = (lastEndSector + 1) * 512;
  return {
    disk: {
      path: '/dev/sdz',
      sizeBytes: DISK_BYTES,
      logicalSectorBytes: 512,
      partitionTable: 'gpt',
      mountpoints,
      isSystemDisk: false,
    },
    partitions: [
      {
        path: '/dev/sdz1',
        number: 1,
        startBytes: 1_048_576,
        sizeBytes: partitionEnd - 1_048_576,
        mountpoints,
      },
    ],
    stack: {
      path: '/dev/sdz',
      type: 'disk',
      filesystem: null,
      mountpoints: [],
      children: [{ path: '/dev/sdz1', type: 'part', mountpoints, children: [] }],
    },
    space: {
      regions:
        partitionEnd < DISK_BYTES - 34 * 512
          ? [{ startBytes: partitionEnd, sizeBytes: DISK_BYTES - 34 * 512 - partitionEnd, location: 'tail' }]
          : [],
    },
  };
};
/** An open LUKS volume: the inventory found it and its dm-crypt mapping is in the holder stack. */
const openLuks = (kind: 'luks1' | 'luks2'): PlanFacts => ({
  encryption: { found: [{ format: kind }] },
  stack: { type: 'disk', children: [{ type: 'crypt', mapperName: 'cryptroot' }] },
});
const build = (input: PlanFacts, commandSettings = settings(), options = optionsWith()) => {
  const built = buildCommands(input, options, commandSettings);
  // Whatever the builder emits passes the invariants.
  expect(checkCommandInvariants(input, commandSettings, built.commands)).toEqual([]);
  return built;
};

describe('buildCommands', () => {
  it('on an empty disk: new GPT, re-read, tail discard, format, open with the planned flags, mkfs, crypttab', () => {
    const { commands } = build(emptyDisk(DISK_BYTES));
    expect(commands.map((c) => [c.id, c.risk])).toEqual([
      ['partition-layout', 'destroys-data'],
      ['partition-table-reread', 'changes-settings'],
      ['blkdiscard-tail', 'destroys-data'],
      ['luks-format', 'destroys-data'],
      ['luks-open', 'changes-settings'],
      ['mkfs', 'destroys-data'],
      ['crypttab-entry', 'changes-settings'],
    ]);
    expect(commands[0]?.argv).toEqual([
      'sgdisk',
      '--clear',
      '--new=1:2048:1843199',
      '--typecode=1:8309',
      '--change-name=1:encplan',
      '/dev/sdz',
    ]);
    expect(commands[1]?.argv).toEqual(['partx', '--update', '--nr', '1', '/dev/sdz']);
    expect(commands[2]?.argv).toEqual([
      'blkdiscard',
      '--offset',
      String(1_843_200 * 512),
      '--length',
      String(100 * 1_048_576 - 34 * 512),
      '/dev/sdz',
    ]);
    // The partition is addressed by its kernel name after the re-read, never /dev/disk/by-partlabel.
    expect(commands[3]?.argv.at(-1)).toBe('/dev/sdz1');
    expect(commands[4]?.argv).toEqual([
      'cryptsetup',
      'open',
      '--type',
      'luks2',
      '--allow-discards',
      '--perf-no_read_workqueue',
      '--perf-no_write_workqueue',
      '--persistent',
      '/dev/sdz1',
      'cryptdata',
    ]);
    expect(commands[5]?.argv).toEqual(['mkfs.ext4', '-L', 'encplan', '/dev/mapper/cryptdata']);
    // crypttab: no shell string; the line is fixed text on stdin, naming the UUID luksFormat sets.
    const uuid = commands[3]?.argv[commands[3].argv.indexOf('--uuid') + 1];
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(commands[6]).toMatchObject({
      argv: ['tee', '-a', '/etc/crypttab'],
      stdin: 'text',
      stdinText: `cryptdata UUID=${String(uuid)} none luks,discard,no-read-workqueue,no-write-workqueue\n`,
    });
    expect(commands.flatMap((c) => c.argv)).not.toContain('sh');
  });

  it('names nvme and loop partitions with the kernel p separator', () => {
    const { commands } = build(
      emptyDisk(DISK_BYTES, '/dev/nvme0n1'),
      settings({ devicePath: '/dev/nvme0n1' }),
    );
    expect(commands.find((c) => c.id === 'luks-format')?.argv.at(-1)).toBe('/dev/nvme0n1p1');
  });

  it('adds a partition in the free tail of a GPT disk, aligned to 1 MiB, without clearing the table', () => {
    const { commands } = build(gptDisk(1_000_000));
    // Sector 1,000,001 rounded up to the next 2048-sector (1 MiB) boundary; number 2 is the first free one.
    expect(commands[0]?.argv).toEqual([
      'sgdisk',
      '--new=2:1001472:1843199',
      '--typecode=2:8309',
      '--change-name=2:encplan',
      '/dev/sdz',
    ]);
    expect(commands[0]?.risk).toBe('changes-settings');
    expect(commands.find((c) => c.id === 'luks-format')?.argv.at(-1)).toBe('/dev/sdz2');
  });

  it('on a disk in use, writes nothing: not its partition table, not a discard of its tail (issue 25 item 5)', () => {
    const built = build(gptDisk(1_000_000, ['/srv']));
    expect(built.commands).toEqual([]);
    expect(built.findings[0]?.message).toMatch(/never writes a disk in use .*mounted on \/srv/);
  });

  it('writes nothing when the last partition reaches past the planned end (no start after end)', () => {
    const built = build(gptDisk(1_900_000));
    expect(built.commands).toEqual([]);
    expect(built.findings[0]?.message).toMatch(
      /no never-allocated region holds a partition ending at sector 1843199/,
    );
  });

  it('formats the stand-in device as given when the input names no device and no size', () => {
    const { commands } = build(
      {},
      settings({ devicePath: '/dev/DEVICE', devicePlaceholder: true, space: null }),
    );
    expect(commands.map((c) => c.id)).toEqual(['luks-format', 'luks-open', 'mkfs', 'crypttab-entry']);
    expect(commands[0]?.argv.at(-1)).toBe('/dev/DEVICE');
  });

  it.each([
    {
      name: 'a GPT disk whose partitions are unknown',
      input: { disk: { path: '/dev/sdz', partitionTable: 'gpt' } },
    },
    {
      name: 'an MBR disk, which sgdisk would convert to GPT',
      input: facts(gptDisk(1_000_000), { disk: { partitionTable: 'dos' } }),
    },
    {
      name: 'a disk whose table type is unknown',
      input: facts(gptDisk(1_000_000), { disk: { partitionTable: 'unknown' } }),
    },
    {
      name: 'a table-less disk whose free space is unknown',
      input: facts(emptyDisk(DISK_BYTES), { space: { regions: [] } }),
    },
    {
      name: 'a table-less disk whose stack is unknown',
      input: { disk: emptyDisk(DISK_BYTES).disk, space: emptyDisk(DISK_BYTES).space },
    },
  ] as const)('writes nothing to $name', ({ input }) => {
    const built = build(input as PlanFacts);
    expect(built.commands).toEqual([]);
    expect(built.findings[0]?.ruleId).toBe('partition-first');
  });

  it('says why a full GPT gets no commands and how to free an entry, free space or not', () => {
    // 128 small partitions at the front, never-allocated space after them.
    const base = gptDisk(1_000_000);
    const partitions = Array.from({ length: 128 }, (_, index) => ({
      path: `/dev/sdz${String(index + 1)}`,
      number: index + 1,
      startBytes: 1_048_576 * (index + 1),
      sizeBytes: 1_048_576,
      mountpoints: [],
    }));
    const full: PlanFacts = { ...base, partitions };
    const built = build(full);
    expect(built.commands).toEqual([]);
    expect(built.findings).toEqual([
      expect.objectContaining({
        ruleId: 'gpt-full',
        severity: 'warning',
        message: expect.stringMatching(
          /all 128 entries .* even in the never-allocated space left.*sgdisk --delete=N \/dev\/sdz.*sgdisk --resize-table=256 \/dev\/sdz/s,
        ) as unknown,
      }),
    ]);
    // One entry free: the same disk gets its partition (number 128) and the volume commands.
    const oneFree = build({ ...full, partitions: partitions.slice(0, 127) });
    expect(oneFree.findings.map((finding) => finding.ruleId)).not.toContain('gpt-full');
    expect(oneFree.commands[0]?.argv).toContain('--new=128:1001472:1843199');
  });

  it('hides the tail in a Host Protected Area only after a secure erase, and stops for the power cycle', () => {
    const ataReady = facts(emptyDisk(DISK_BYTES), {
      disk: { transport: 'sata' },
      sed: { ataSecurity: { supported: true, enabled: false, locked: false, frozen: false } },
    });
    const hpaSettings = settings({ space: { ...space, method: 'hpa', discardRange: null } });
    const { commands } = build(ataReady, hpaSettings);
    expect(commands.map((c) => [c.id, c.stage])).toEqual([
      ['ata-security-set-pass', 1],
      ['ata-security-erase', 1],
      ['hpa-set', 1],
      ['partition-layout', 2],
      ['partition-table-reread', 2],
      ['luks-format', 2],
      ['luks-open', 2],
      ['mkfs', 2],
      ['crypttab-entry', 2],
    ]);
    // partition end 1,843,199 + 1 + 34 backup sectors
    expect(commands[2]?.argv).toEqual([
      'hdparm',
      '-N',
      'p1843234',
      '--yes-i-know-what-i-am-doing',
      '/dev/sdz',
    ]);
    expect(commands[2]?.purpose).toMatch(/10\.0 % of the .* user capacity/);
  });

  it('leaves the HPA out, saying why, when secure erase is not known to be available', () => {
    const built = build(
      emptyDisk(DISK_BYTES),
      settings({ space: { ...space, method: 'hpa', discardRange: null } }),
    );
    expect(built.commands.some((c) => c.argv[0] === 'hdparm')).toBe(false);
    expect(built.findings[0]?.message).toMatch(/erased before it is hidden/);
  });

  const refresh =
    'cryptsetup refresh cryptroot --allow-discards --perf-no_read_workqueue --perf-no_write_workqueue';
  it.each([
    // Only LUKS2 can store the flags in its header (cryptsetup(8) refresh --persistent).
    { kind: 'luks2', argv: words(`${refresh} --persistent`) },
    { kind: 'luks1', argv: words(refresh) },
  ] as const)('tunes an open $kind volume in place instead of formatting', ({ kind, argv }) => {
    expect(build(openLuks(kind)).commands.map((c) => c.argv)).toEqual([argv]);
  });

  it('never refreshes an open LUKS2 volume with no dm-crypt layer (--hw-opal-only); one with dm-crypt on OPAL it does', () => {
    const opal = (segmentType: 'hw-opal' | 'hw-opal-crypt'): PlanFacts => ({
      ...openLuks('luks2'),
      encryption: { found: [{ format: 'luks2', opal: { segmentType } }] },
    });
    expect(build(opal('hw-opal')).commands.some((c) => c.argv[1] === 'refresh')).toBe(false);
    expect(build(opal('hw-opal-crypt')).commands.map((c) => c.argv)).toEqual([
      words(`${refresh} --persistent`),
    ]);
  });

  it('has nothing to run on an open volume when no flag changes', () => {
    expect(
      build(openLuks('luks2'), settings({ allowDiscards: false, workqueueBypass: false })).commands,
    ).toEqual([]);
  });

  it('lets cryptsetup time the KDF with --iter-time when no iteration count was computed', () => {
    const { commands } = build(
      emptyDisk(DISK_BYTES),
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
    const { commands } = build(
      emptyDisk(DISK_BYTES),
      veracryptSettings,
      optionsWith({ targetTool: 'veracrypt' }),
    );
    expect(commands[0]?.argv).toContain('--typecode=1:8300');
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
      '/dev/sdz1',
    ]);
  });

  it('leaves partitioning to the OS tools outside Linux', () => {
    const input = facts(emptyDisk(DISK_BYTES), { provenance: { platform: 'win32' } });
    const { commands } = build(input, veracryptSettings, optionsWith({ targetTool: 'veracrypt' }));
    expect(commands.map((c) => c.id)).toEqual(['veracrypt-create']);
    expect(commands[0]?.argv).toContain('--filesystem=ntfs');
  });
});
