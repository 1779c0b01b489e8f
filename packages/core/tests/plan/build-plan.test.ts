import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planFromAssessment, type Plan, type PlanOptions } from '@encplan/core';
import { renderPlanScript } from '../../src/report/command-script.js';
import { buildPlan } from '../../src/plan/plan.js';
import { type PlanFacts } from '../../src/rules/facts.js';
import { planFactsFromDocument } from '../../src/use-cases/plan-from-assessment.js';
import { planSchema } from '../../src/plan/plan.js';
import { emptyDisk, facts } from '../rules/facts-builder.js';
import { words } from '../support/argv.js';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../fixtures/plan-inputs',
);

/** A plan-input fixture: a partial assessment result, validated as `plan --input` does. */
function fixture(name: string): PlanFacts {
  return planFactsFromDocument(JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')));
}
function plan(name: string, options: PlanOptions = {}, extra: PlanFacts = {}): Plan {
  const result = buildPlan(facts(fixture(name), extra), options);
  // Every plan is a valid contract document.
  expect(planSchema.parse(result)).toEqual(result);
  return result;
}
function value(result: Plan, ruleId: string): unknown {
  return result.recommendations.find((r) => r.ruleId === ruleId)?.value;
}
function argv(result: Plan, id: string): string[] | undefined {
  return result.commands.find((c) => c.id === id)?.argv;
}

/** The laptop's facts name its disk but not its usage; these add an empty disk of the same size. */
const laptopEmpty = emptyDisk(250_059_350_016, '/dev/nvme0n1');

describe('plans from captured machines', () => {
  it('gives a Raspberry Pi 4 without AES instructions Adiantum with 4096-byte sectors', () => {
    const result = plan('arm64-no-aes-rpi4-adiantum');
    expect(value(result, 'cipher-mode')).toBe('xchacha12,aes-adiantum-plain64');
    expect(result.settings).toMatchObject({
      cipher: 'xchacha12,aes-adiantum-plain64',
      keySizeBits: 256,
      sectorSizeBytes: 4096,
    });
    expect(argv(result, 'luks-format')).toEqual(
      expect.arrayContaining(
        words('--cipher xchacha12,aes-adiantum-plain64 --key-size 256 --sector-size 4096'),
      ),
    );
  });

  it('keeps AES-XTS on a Raspberry Pi 4 whose benchmark never measured Adiantum, and says to measure it', () => {
    const result = plan('arm64-no-aes-rpi4-manjaro');
    expect(value(result, 'cipher-mode')).toBe('aes-xts-plain64');
    expect(result.recommendations.find((r) => r.ruleId === 'cipher-mode')?.reason).toContain(
      'cryptsetup benchmark -c xchacha12,aes-adiantum-plain64 -s 256',
    );
    // Pi 4 argon2id benchmark: 4 iterations, 321984 KiB, 4 threads at 2 s; the capture does not give the
    // Pi's RAM, so memory is at most the 256 MiB safe default (issue 11: safe default when unknown).
    expect(result.settings.luks2Pbkdf).toMatchObject({ memoryKiB: 262_144, parallel: 4, iterations: 4 });
  });

  it('gives a Raspberry Pi 5 with AES instructions AES-XTS-512', () => {
    const result = plan('arm64-aes-rpi5');
    expect(result.settings).toMatchObject({
      cipher: 'aes-xts-plain64',
      keySizeBits: 512,
      sectorSizeBytes: 4096,
    });
  });

  it('gives the AES-NI laptop AES-XTS-512, 4096-byte sectors and a fixed argon2id', () => {
    const result = plan('x64-aesni-laptop-nvme', {}, laptopEmpty);
    expect(result.healthGate.status).toBe('proceed');
    expect(result.settings).toMatchObject({
      cipher: 'aes-xts-plain64',
      keySizeBits: 512,
      sectorSizeBytes: 4096,
      allowDiscards: true,
    });
    expect(argv(result, 'luks-format')).toEqual([
      ...words(
        'cryptsetup luksFormat --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096',
      ),
      // The capture does not give the laptop's RAM: the 256 MiB safe default, with the iterations that keep
      // its benchmark's 2 s (5 × 1 GiB → 20 × 256 MiB).
      ...words('--pbkdf argon2id --pbkdf-memory 262144 --pbkdf-parallel 4 --pbkdf-force-iterations 20'),
      ...words('--label encplan --uuid'),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      '/dev/nvme0n1p1',
    ]);
  });

  it('plans a VeraCrypt volume for the laptop with a timed PIM and the passphrase on stdin', () => {
    const result = plan('x64-aesni-laptop-nvme', { targetTool: 'veracrypt' }, laptopEmpty);
    expect(result.settings.veracrypt).toMatchObject({ encryption: 'AES', hash: 'whirlpool', pim: 1342 });
    const create = result.commands.find((c) => c.id === 'veracrypt-create');
    expect(create?.stdin).toBe('passphrase');
    expect(create?.argv).toEqual(
      expect.arrayContaining([
        '-t',
        '-c',
        '--stdin',
        '--non-interactive',
        '--pim=1342',
        '--hash=whirlpool',
        '--encryption=AES',
      ]),
    );
    expect(create?.argv[1]).toBe('-t');
    expect(
      result.attackerCost.every((row) => row.kdf === 'veracrypt-pbkdf2-whirlpool' && row.transfers),
    ).toBe(true);
  });

  it('leaves a larger unallocated tail when the stack blocks discards than when it passes them', () => {
    const blocked = plan('sata-discard-blocked-goodram');
    const passing = plan('sata-discard-passing-goodram');
    expect(blocked.settings.space?.trimReachesDrive).toBe(false);
    expect(passing.settings.space?.trimReachesDrive).toBe(true);
    expect(blocked.settings.space?.unallocatedBytes ?? 0).toBeGreaterThan(
      passing.settings.space?.unallocatedBytes ?? 0,
    );
    // The existing LUKS2 volume is tuned in place, never reformatted.
    expect(blocked.commands.map((c) => c.argv)).toEqual([
      ['cryptsetup', 'refresh', 'debian_crypt', '--allow-discards', '--persistent'],
    ]);
  });

  it('keeps discards off and the tail large against a targeted attacker, stating what discards leak', () => {
    const result = plan('sata-discard-passing-goodram', { threatModel: 'targeted' });
    expect(result.settings.allowDiscards).toBe(false);
    expect(result.settings.space?.unallocatedPercent).toBeGreaterThan(10);
    expect(result.recommendations.find((r) => r.ruleId === 'allow-discards')?.reason).toMatch(/used/);
  });

  it('puts the health gate of a failing drive before any advice', () => {
    const result = plan('sata-failing-realloc304-seagate');
    expect(result.healthGate).toMatchObject({ status: 'back-up-first', effectiveVerdict: 'failing' });
    expect(result.findings[0]).toMatchObject({ ruleId: 'health-gate', severity: 'critical' });
    // The strategy is the first decision; the health gate's verdict follows it and leads the findings.
    expect(result.recommendations.map((r) => r.ruleId).slice(0, 2)).toEqual(['strategy', 'health-gate']);
    expect(result.settings.allowDiscards).toBe(false);
  });

  it('prices encrypting the worn datacenter NVMe in place against its remaining endurance', () => {
    const result = plan('nvme-worn75-intel-p4500');
    // 2.0 TB rewrite; 5,014,522,069 × 512,000 B written at 75 % → ≈ 3.42 PB rated, ≈ 0.86 PB left.
    expect(value(result, 'in-place-write-cost')).toEqual({
      rewriteBytes: 2_000_398_934_016,
      percentOfRatedEndurance: 0.06,
      percentOfRemainingEndurance: 0.23,
    });
  });

  it('plans macOS from its platform facts only: Linux facts in a darwin document produce no Linux or diskutil command', () => {
    const input = facts(fixture('x64-aesni-laptop-nvme'), {
      provenance: { platform: 'darwin' },
      disk: { path: '/dev/disk3' },
    });
    const result = buildPlan(input, {});
    expect(result.targetTool).toBe('apfs');
    // No platformStorage: no APFS container is known, so no command assumes one (plan-platform tests cover the
    // commands made from real macOS captures).
    expect(result.commands).toEqual([]);
  });

  it('refuses a target tool the assessed platform does not have (issue 10 item 3)', () => {
    expect(() => buildPlan(fixture('x64-aesni-laptop-nvme'), { targetTool: 'apfs' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/apfs does not exist on Linux/),
      }),
    );
  });
});

describe('plans for partitioned disks', () => {
  it('asks for a partition first instead of formatting a disk whose layout it cannot extend', () => {
    const result = buildPlan(facts(fixture('x64-aesni-laptop-nvme'), { disk: { partitionTable: 'gpt' } }));
    expect(result.commands.some((c) => c.id === 'luks-format')).toBe(false);
    expect(result.findings.find((f) => f.ruleId === 'partition-first')?.message).toMatch(
      /ending at sector \d+/,
    );
  });
});

describe('buildPlan input checks', () => {
  it.each([['/dev/sda; reboot'], ['-rf'], ['/tmp/disk.img']])('refuses the device path %j', (devicePath) => {
    expect(() => buildPlan(facts(fixture('x64-aesni-laptop-nvme'), { disk: { path: devicePath } }))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it.each([
    ['a section of the wrong type', { disk: { sizeBytes: 'big' } }],
    ['a fact outside its enum', { media: { kind: 'tape' } }],
    ['no object at all', 'plan9'],
  ])('refuses %s', (_name, document) => {
    expect(() => planFromAssessment(document)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('uses a stand-in device and says so when the input names none', () => {
    const result = buildPlan(fixture('arm64-aes-rpi5'));
    expect(result).toMatchObject({ devicePath: '/dev/DEVICE', devicePlaceholder: true });
  });
});

describe('renderPlanScript', () => {
  it('comments out every data-destroying command, and what depends on it, unless asked to include them', () => {
    // The fixture does not carry the kernel's discard_max_bytes: give the disk a non-zero one (the kernel sends
    // it discards), without which no blkdiscard of the tail is planned (rules/space.ts tailDiscard).
    const kernelDiscards: PlanFacts = { trim: { kernelDiscardMaxBytes: 2_199_023_255_040 } };
    const result = plan('x64-aesni-laptop-nvme', { workload: 'server' }, facts(laptopEmpty, kernelDiscards));
    expect(
      plan('x64-aesni-laptop-nvme', { workload: 'server' }, laptopEmpty).commands.map((c) => c.id),
    ).not.toContain('blkdiscard-tail');
    const safe = renderPlanScript(result.commands, false);
    const full = renderPlanScript(result.commands, true);
    expect(safe).toMatch(/^# cryptsetup luksFormat /m);
    expect(safe).toMatch(/^# blkdiscard --offset /m);
    expect(safe).toMatch(/^# cryptsetup open --type luks2 --allow-discards --persistent /m);
    expect(safe).toMatch(/^# tee -a \/etc\/crypttab/m);
    expect(full).toMatch(/^cryptsetup open --type luks2 --allow-discards --persistent /m);
    expect(full).toMatch(/^cryptsetup luksFormat /m);
    expect(full).toMatch(/^blkdiscard --offset /m);
  });

  it('never puts a passphrase in any command', () => {
    for (const name of [
      'x64-aesni-laptop-nvme',
      'arm64-no-aes-rpi4-adiantum',
      'sata-failing-realloc304-seagate',
    ]) {
      for (const targetTool of ['luks2', 'veracrypt'] as const) {
        const result = plan(name, { targetTool }, laptopEmpty);
        for (const command of result.commands) {
          expect(command.argv.join(' ')).not.toMatch(/--password|-p |--key-file|passphrase=/);
        }
      }
    }
  });
});
