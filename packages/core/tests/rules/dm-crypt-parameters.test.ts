import { describe, expect, it } from 'vitest';
import { type PlanFacts } from '../../src/rules/facts.js';
import { MIB } from '../../src/domain/units.js';
import { type CipherChoice } from '../../src/rules/cipher.js';
import {
  recommendDiscards,
  recommendSectorSize,
  recommendWorkqueueBypass,
} from '../../src/rules/dm-crypt-parameters.js';
import { facts, ioBenchmark, machine, optionsWith } from './facts-builder.js';

/** The media section for a known rotational flag; left out when unknown. */
const media = (rotational: boolean | null): PlanFacts =>
  rotational === null ? {} : { media: { kind: rotational ? 'hdd' : 'ssd' } };

const aesChoice: CipherChoice = { spec: 'aes-xts-plain64', keyBits: 512, speed: null };

describe('recommendSectorSize', () => {
  it.each([
    {
      name: 'uses 4096 with high confidence on 4K-native drives',
      logical: 4096,
      physical: 4096,
      value: 4096,
      confidence: 'high',
    },
    {
      name: 'uses 4096 with a power-fail caveat on 512-byte physical sectors',
      logical: 512,
      physical: 512,
      value: 4096,
      confidence: 'medium',
    },
    {
      name: 'uses 4096 when the geometry is unknown',
      logical: null,
      physical: null,
      value: 4096,
      confidence: 'high',
    },
  ])('$name', ({ logical, physical, value, confidence }) => {
    const result = recommendSectorSize(
      facts(
        logical === null || physical === null
          ? {}
          : { disk: { logicalSectorBytes: logical, physicalSectorBytes: physical } },
      ),
      optionsWith(),
      aesChoice,
    );
    expect(result.sectorSizeBytes).toBe(value);
    expect(result.recommendations[0]).toMatchObject({ ruleId: 'sector-size', value, confidence });
  });

  it('has nothing to say for VeraCrypt, which has no sector-size option', () => {
    const result = recommendSectorSize(facts(), optionsWith({ targetTool: 'veracrypt' }), aesChoice);
    expect(result).toMatchObject({ recommendations: [], sectorSizeBytes: null });
  });
});

/** Every encrypted profile summarised from three runs spreading `spread` % (null: one run each). */
function withSpread(input: PlanFacts, spread: number | null): PlanFacts {
  return {
    ioBenchmark: {
      ...input.ioBenchmark,
      encrypted: (input.ioBenchmark?.encrypted ?? []).map((target) => ({
        ...target,
        profiles: (target?.profiles ?? []).map((profile) => ({
          ...profile,
          summary: {
            ...profile?.summary,
            runCount: spread === null ? 1 : 3,
            spreadPercent: spread ?? 0,
          },
        })),
      })),
    },
  };
}

describe('recommendWorkqueueBypass', () => {
  const measured = (bypass: boolean, mib: number) => ({
    variant: `luks2 sector 4096${bypass ? ', no workqueues' : ''}`,
    rates: { 'rnd4k-q32t1': [mib * MIB, mib * MIB] as const },
  });
  it.each([
    {
      name: 'bypasses on a fast SSD with kernel 6.1',
      kernel: '6.1.0-27-amd64',
      rotational: false,
      rows: [],
      value: true,
      confidence: 'medium',
    },
    {
      name: 'keeps the workqueues on a rotational disk',
      kernel: '6.1.0',
      rotational: true,
      rows: [],
      value: false,
      confidence: 'medium',
    },
    {
      name: 'keeps the workqueues on kernel 5.8, which lacks the options',
      kernel: '5.8.18',
      rotational: false,
      rows: [],
      value: false,
      confidence: 'high',
    },
    {
      name: 'enables exactly at kernel 5.9',
      kernel: '5.9.0',
      rotational: false,
      rows: [],
      value: true,
      confidence: 'medium',
    },
    {
      name: 'keeps the workqueues when the kernel is unknown',
      kernel: null,
      rotational: false,
      rows: [],
      value: false,
      confidence: 'low',
    },
    {
      name: 'follows the measurement when bypass measured faster beyond the spread',
      kernel: '6.1.0',
      rotational: true,
      rows: [measured(true, 295), measured(false, 80.6)],
      value: true,
      confidence: 'high',
    },
    {
      name: 'follows the measurement when bypass measured slower beyond the spread',
      kernel: '6.1.0',
      rotational: false,
      rows: [measured(true, 70), measured(false, 80)],
      value: false,
      confidence: 'high',
    },
    {
      name: 'keeps the flash default when bypass measured 5 % slower within an 8 % spread',
      kernel: '6.1.0',
      rotational: false,
      rows: [measured(true, 76), measured(false, 80)],
      spread: 8,
      value: true,
      confidence: 'medium',
    },
    {
      name: 'keeps the rotational default when bypass measured 6 % faster within an 8 % spread',
      kernel: '6.1.0',
      rotational: true,
      rows: [measured(true, 85), measured(false, 80)],
      spread: 8,
      value: false,
      confidence: 'medium',
    },
    {
      name: 'does not decide from single runs, whose spread is unknown',
      kernel: '6.1.0',
      rotational: false,
      rows: [measured(true, 70), measured(false, 80)],
      spread: null,
      value: true,
      confidence: 'medium',
    },
  ])('$name', ({ kernel, rotational, rows, value, confidence, spread = 4 }) => {
    const input = facts(
      kernel === null ? {} : machine({ kernel }),
      media(rotational),
      rows.length === 0 ? {} : withSpread(ioBenchmark({}, rows), spread),
    );
    const result = recommendWorkqueueBypass(input, optionsWith());
    expect(result.bypass).toBe(value);
    expect(result.recommendations[0]).toMatchObject({ ruleId: 'workqueue-bypass', value, confidence });
  });
});

describe('recommendDiscards', () => {
  it.each([
    {
      name: 'allows discards on a TRIM-capable SSD against a one-time thief',
      threat: 'lost-device',
      tool: 'luks2',
      trim: true,
      rotational: false,
      value: true,
    },
    {
      name: 'refuses them against a targeted attacker',
      threat: 'targeted',
      tool: 'luks2',
      trim: true,
      rotational: false,
      value: false,
    },
    {
      name: 'refuses them when deniability matters',
      threat: 'deniability',
      tool: 'luks2',
      trim: true,
      rotational: false,
      value: false,
    },
    {
      name: 'refuses them on a drive without TRIM',
      threat: 'lost-device',
      tool: 'luks2',
      trim: false,
      rotational: false,
      value: false,
    },
    {
      name: 'refuses them on a rotational disk',
      threat: 'lost-device',
      tool: 'luks2',
      trim: null,
      rotational: true,
      value: false,
    },
    {
      name: 'says VeraCrypt on Linux never passes them',
      threat: 'lost-device',
      tool: 'veracrypt',
      trim: true,
      rotational: false,
      value: false,
    },
    {
      name: 'says APFS passes them on its own',
      threat: 'lost-device',
      tool: 'apfs',
      trim: true,
      rotational: false,
      value: true,
    },
  ] as const)('$name', ({ threat, tool, trim, rotational, value }) => {
    const input = facts({ trim: { deviceSupportsTrim: trim } }, media(rotational));
    const result = recommendDiscards(input, optionsWith({ threatModel: threat, targetTool: tool }));
    expect(result.allowDiscards).toBe(value);
    expect(result.recommendations[0]).toMatchObject({ ruleId: 'allow-discards', value });
  });

  it('states what discards leak whenever it allows them', () => {
    const result = recommendDiscards(
      facts({ trim: { deviceSupportsTrim: true } }, media(false)),
      optionsWith(),
    );
    expect(result.recommendations[0]?.reason).toMatch(/filesystem type and how full it is/);
    expect(result.recommendations[0]?.reason).toMatch(/never data or keys/);
  });

  it.each([
    { kind: 'usb-bridge', findings: 1 },
    { kind: 'md-raid', findings: 1 },
    { kind: 'dm-crypt', findings: 0 },
  ] as const)(
    'reports a $kind layer blocking below dm-crypt with $findings finding(s)',
    ({ kind, findings }) => {
      const input = facts(
        {
          trim: {
            deviceSupportsTrim: true,
            ...(kind === 'usb-bridge' ? { status: 'blocked-by-bridge' } : {}),
          },
          discardPassthrough: {
            paths: [
              {
                passesToDisk: kind === 'usb-bridge',
                layers: kind === 'usb-bridge' ? [] : [{ kind, name: 'x', blocksHere: true }],
              },
            ],
          },
        },
        media(false),
      );
      expect(recommendDiscards(input, optionsWith()).findings).toHaveLength(findings);
    },
  );
});
