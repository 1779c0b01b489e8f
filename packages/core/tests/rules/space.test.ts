import { describe, expect, it } from 'vitest';
import { type PlanFacts } from '../../src/rules/facts.js';
import { GIB } from '../../src/domain/units.js';
import { recommendSpace, spareFactorFor } from '../../src/rules/space.js';
import { facts, optionsWith } from './facts-builder.js';

const TB = 1_000_204_886_016;
/** hdparm -N read a Host Protected Area (the values do not matter to the rule, only that it was read). */
const HPA_READ = { visibleSectors: 1953525168, nativeMaxSectors: 1953525168, enabled: false, hiddenBytes: 0 };

function ssd(
  overrides: {
    blocking?: { kind: 'usb-bridge' | 'dm-crypt'; name: string };
    trim?: boolean | null;
    wear?: number | null;
    factory?: number | null;
    known?: boolean;
  } = {},
): PlanFacts {
  const bridge = overrides.blocking?.kind === 'usb-bridge';
  const layer = overrides.blocking?.kind === 'dm-crypt' ? overrides.blocking : null;
  return facts({
    disk: {
      sizeBytes: TB,
      logicalSectorBytes: 512,
      transport: 'nvme',
      partitionTable: 'none',
      kernelName: 'sdb',
    },
    media: { kind: 'ssd' },
    // discard_max_bytes of the disk's queue: 0 behind a bridge that passes no TRIM, else a real non-zero value
    // (2199023255040, zram0 in fixtures/lsblk/all-devices-virtio-zram-loops-debian12).
    trim: {
      deviceSupportsTrim: overrides.trim ?? true,
      kernelDiscardMaxBytes: bridge || overrides.trim === false ? 0 : 2_199_023_255_040,
      ...(bridge ? { status: 'blocked-by-bridge' } : {}),
    },
    ...(overrides.known === false
      ? {}
      : {
          discardPassthrough: {
            paths: [
              {
                passesToDisk: layer === null,
                layers: layer === null ? [] : [{ kind: 'dm-crypt', name: layer.name, blocksHere: true }],
              },
            ],
          },
        }),
    health: { percentageUsed: overrides.wear ?? null },
    overProvisioning: { factorySpareBytes: overrides.factory ?? null },
  });
}

describe('recommendSpace', () => {
  it.each([
    {
      name: 'leaves nothing on a desktop SSD when TRIM reaches the drive',
      input: ssd(),
      workload: 'desktop',
      discards: true,
      percent: 0,
    },
    {
      name: 'leaves ≈ 10.8 % when a USB bridge blocks TRIM (WA 3, ρ 0.2, 7 % factory)',
      input: ssd({ blocking: { kind: 'usb-bridge', name: 'sdb' } }),
      workload: 'desktop',
      discards: true,
      percent: 10.8,
    },
    {
      name: 'leaves ≈ 10.8 % when discards stay off by choice',
      input: ssd(),
      workload: 'desktop',
      discards: false,
      percent: 10.8,
    },
    {
      name: 'leaves ≈ 10.8 % for a server even with TRIM',
      input: ssd(),
      workload: 'server',
      discards: true,
      percent: 10.8,
    },
    {
      name: 'leaves ≈ 19.8 % for write-heavy use with TRIM (WA 2, ρ 1/3: (1/3 − 0.07) / (4/3))',
      input: ssd(),
      workload: 'write-heavy',
      discards: true,
      percent: 19.8,
    },
    {
      name: 'leaves ≈ 28.7 % for write-heavy use without TRIM (WA 1.5, ρ 0.5)',
      input: ssd({ trim: false }),
      workload: 'write-heavy',
      discards: true,
      percent: 28.7,
    },
    {
      name: 'adds a tier for a drive past half its wear',
      input: ssd({ wear: 75 }),
      workload: 'desktop',
      discards: true,
      percent: 10.8,
    },
    {
      name: 'counts a large factory spare (42 %) against the target',
      input: ssd({ factory: Math.round(TB * 0.42) }),
      workload: 'server',
      discards: true,
      percent: 0,
    },
    {
      name: 'leaves nothing on a rotational disk',
      input: facts({ disk: { sizeBytes: TB }, media: { kind: 'hdd' } }),
      workload: 'write-heavy',
      discards: false,
      percent: 0,
    },
  ] as const)('$name', ({ input, workload, discards, percent }) => {
    const result = recommendSpace(input, optionsWith({ workload }), discards);
    expect(result.space?.unallocatedPercent).toBeCloseTo(percent, 1);
    expect(result.recommendations[0]).toMatchObject({ ruleId: 'unallocated-space' });
  });

  it('gives a larger tail when the stack blocks discards than when it passes them', () => {
    const blocked = recommendSpace(
      ssd({ blocking: { kind: 'dm-crypt', name: 'cryptroot' } }),
      optionsWith(),
      true,
    );
    const passing = recommendSpace(ssd(), optionsWith(), true);
    expect(blocked.space?.unallocatedBytes ?? 0).toBeGreaterThan(passing.space?.unallocatedBytes ?? 0);
    expect(blocked.recommendations[0]?.reason).toContain(
      'once the refresh below lets discards through, 0 B is enough',
    );
  });

  it('treats unknown passthrough as passing only on a blank disk the plan partitions itself', () => {
    const blank = recommendSpace(ssd({ known: false }), optionsWith(), true);
    const used = recommendSpace(
      facts(ssd({ known: false }), { disk: { partitionTable: 'gpt' } }),
      optionsWith(),
      true,
    );
    expect(blank.space?.trimReachesDrive).toBe(true);
    expect(used.space?.trimReachesDrive).toBe(false);
    // Not walked is unknown, not no (issue 24 item 5).
    expect(blank.space?.trim).toEqual({ reachesDrive: true, reason: expect.any(String) });
    expect(used.space?.trim).toEqual({ reachesDrive: null, reason: 'the existing stack was not walked' });
  });

  it('keeps TRIM reaching the drive tri-state: yes, no or unknown with the reason, never yes for unknown', () => {
    const trimOf = (input: PlanFacts, discards = true) =>
      recommendSpace(input, optionsWith(), discards).space;
    const unknownDrive = trimOf(facts(ssd(), { trim: { deviceSupportsTrim: null } }));
    expect(unknownDrive?.trim).toEqual({
      reachesDrive: null,
      reason: 'the drive did not say whether it supports TRIM',
    });
    expect(unknownDrive?.trimReachesDrive).toBe(false);
    expect(trimOf(ssd({ trim: false }))?.trim?.reachesDrive).toBe(false);
    expect(trimOf(ssd(), false)?.trim).toEqual({
      reachesDrive: false,
      reason: 'the plan does not enable discards',
    });
    expect(trimOf(ssd({ blocking: { kind: 'dm-crypt', name: 'cryptroot' } }))?.trim?.reason).toContain(
      'it stops at dm-crypt "cryptroot"',
    );
    // A drive whose support is unknown gets the spare of a drive TRIM does not reach, and the reason says why.
    const unknown = recommendSpace(facts(ssd(), { trim: { deviceSupportsTrim: null } }), optionsWith(), true);
    const known = recommendSpace(ssd(), optionsWith(), true);
    expect(unknown.space?.unallocatedBytes ?? 0).toBeGreaterThan(known.space?.unallocatedBytes ?? 0);
    expect(unknown.recommendations[0]?.reason).toContain(
      'whether TRIM reaches the drive is unknown (the drive did not say whether it supports TRIM), so the plan assumes',
    );
  });

  it('ends the partition on a 1 MiB boundary before the GPT backup header', () => {
    const result = recommendSpace(
      facts({ disk: { sizeBytes: GIB, logicalSectorBytes: 512 }, media: { kind: 'hdd' } }),
      optionsWith(),
      false,
    );
    // 1 GiB − 34 sectors, rounded down to 1023 MiB → last sector 1023 × 2048 − 1.
    expect(result.space?.partitionEndSector).toBe(1023 * 2048 - 1);
  });

  it('plans a discard of exactly the tail, up to the GPT backup header', () => {
    const result = recommendSpace(ssd(), optionsWith({ workload: 'server' }), true);
    const space = result.space;
    expect(space?.method).toBe('discarded-tail');
    const end = ((space?.partitionEndSector ?? 0) + 1) * 512;
    expect(space?.discardRange).toEqual({ offsetBytes: end, lengthBytes: TB - 34 * 512 - end });
  });

  it('runs no blkdiscard of the tail where the kernel sends the disk no discards, or is not known to', () => {
    // blkdiscard issues BLKDISCARD to the disk; with discard_max_bytes 0 the kernel refuses it (EOPNOTSUPP) and
    // the script's set -eu would stop there (Documentation/ABI/stable/sysfs-block, discard_max_bytes).
    const bridge = recommendSpace(
      ssd({ blocking: { kind: 'usb-bridge', name: 'sdb' } }),
      optionsWith(),
      true,
    );
    expect(bridge.space?.unallocatedBytes).toBeGreaterThan(0);
    expect(bridge.space?.method).toBe('never-written-tail');
    expect(bridge.space?.discardRange).toBeNull();
    expect(bridge.recommendations[1]?.reason).toContain(
      'The kernel sends no discards to sdb (discard_max_bytes 0',
    );
    // Unknown is not yes: no discard, no namespace or HPA change either, and the reason says why.
    const unknown = recommendSpace(
      facts(ssd(), {
        trim: { kernelDiscardMaxBytes: null },
        space: { nvme: { namespaceManagementSupported: true }, hostProtectedArea: HPA_READ },
      }),
      optionsWith({ workload: 'server' }),
      true,
    );
    expect(unknown.space?.method).toBe('never-written-tail');
    expect(unknown.space?.discardRange).toBeNull();
    expect(unknown.recommendations[1]?.reason).toContain(
      'Whether the kernel sends discards to sdb is unknown',
    );
    expect(unknown.recommendations[1]?.reason).not.toContain('namespace or HPA control');
  });

  it('discards the tail where the kernel takes discards though the drive did not say it can TRIM, and says so', () => {
    const result = recommendSpace(facts(ssd(), { trim: { deviceSupportsTrim: null } }), optionsWith(), true);
    expect(result.space?.method).toBe('discarded-tail');
    expect(result.space?.discardRange).not.toBeNull();
    expect(result.recommendations[1]?.reason).toContain(
      'the drive did not say whether it supports TRIM, so whether the discard frees flash is unknown',
    );
  });

  it.each([
    {
      name: 'uses an NVMe namespace when the drive cannot TRIM but manages namespaces',
      slice: { space: { nvme: { namespaceManagementSupported: true } } },
      method: 'nvme-namespace',
    },
    {
      name: 'uses an HPA on SATA when the drive cannot TRIM',
      slice: { disk: { transport: 'sata' }, space: { hostProtectedArea: HPA_READ } },
      method: 'hpa',
    },
    {
      name: 'distrusts an HPA behind USB',
      slice: { disk: { transport: 'usb' }, space: { hostProtectedArea: HPA_READ } },
      method: 'never-written-tail',
    },
  ] as const)('$name', ({ slice, method }) => {
    const input = facts(ssd({ trim: false }), slice);
    expect(recommendSpace(input, optionsWith(), true).recommendations[1]).toMatchObject({
      ruleId: 'spare-area-method',
      value: method,
    });
  });

  it('warns when the last partition reaches into the planned spare area', () => {
    // A partition ending 100 sectors before the end of the disk (start + size in bytes).
    const input = facts(ssd({ blocking: { kind: 'usb-bridge', name: 'sdb' } }), {
      disk: { partitionTable: 'gpt' },
      partitions: [{ startBytes: 1_048_576, sizeBytes: TB - 99 * 512 - 1_048_576 }],
    });
    expect(recommendSpace(input, optionsWith(), true).findings[0]?.ruleId).toBe('partition-overlaps-spare');
  });

  it.each([
    { writeAmplification: 3, rho: 0.2 },
    { writeAmplification: 2, rho: 1 / 3 },
    { writeAmplification: 1.5, rho: 0.5 },
  ])('inverts WA = (1 + ρ) / 2ρ: WA $writeAmplification needs ρ $rho', ({ writeAmplification, rho }) => {
    expect(spareFactorFor(writeAmplification)).toBeCloseTo(rho, 10);
    expect((1 + rho) / (2 * rho)).toBeCloseTo(writeAmplification, 10);
  });

  it('takes a fixed spare area the user asks for, and offers the HPA even though TRIM works', () => {
    const input = facts(ssd({ factory: 80 * GIB }), { space: { hostProtectedArea: HPA_READ } });
    const result = recommendSpace(input, optionsWith({ targetSpare: { percent: 10, base: 'user' } }), true);
    expect(result.space?.method).toBe('hpa');
    expect(result.space?.unallocatedPercent).toBeCloseTo(10, 0);
    const reason = result.recommendations[0]?.reason ?? '';
    expect(reason).toContain("10 % of the drive's user capacity");
    // Both bases side by side, with sector numbers.
    expect(reason).toMatch(/% of the user capacity \(\d+ of 1953525168 sectors\)/);
    expect(reason).toMatch(/% of raw flash \(\d+ of \d+ sectors\)/);
  });

  it('computes a share of raw flash from the factory spare, and says when the raw size is unknown', () => {
    const raw = recommendSpace(
      ssd({ factory: 80 * GIB }),
      optionsWith({ targetSpare: { percent: 25, base: 'raw' } }),
      true,
    );
    // 25 % of (size + factory) in total, minus the 80 GiB the factory already keeps.
    const expected = (TB + 80 * GIB) * 0.25 - 80 * GIB;
    expect(Math.abs((raw.space?.unallocatedBytes ?? 0) - expected)).toBeLessThan(2 * 1_048_576);
    const unknown = recommendSpace(ssd({ factory: null }), optionsWith(), true);
    expect(unknown.recommendations[0]?.reason).toContain('the raw flash size is unknown');
  });

  it('does not read unknown TRIM support as "TRIM does not reach the drive"', () => {
    const unknown = facts(ssd({ known: false }), {
      disk: { partitionTable: 'unknown' },
      trim: { deviceSupportsTrim: null },
    });
    const result = recommendSpace(unknown, optionsWith(), true);
    const reason = result.recommendations[0]?.reason ?? '';
    expect(reason).not.toContain('TRIM does not reach the drive');
    expect(reason).toContain('whether TRIM reaches the drive is unknown');
  });
});
