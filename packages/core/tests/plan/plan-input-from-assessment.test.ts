import { describe, expect, it } from 'vitest';
import { assessBundle, buildPlan, planInputFromAssessment, type AssessmentResult, type CipherSpeedMeasurement } from '@encplan/core';
import { parseBundle } from '../../src/capture/bundle.js';
import { planInputSchema } from '../../src/plan/plan-input.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-21T12:00:00.000Z') };

async function assessedLoop(): Promise<AssessmentResult> {
  const bundle = parseBundle(JSON.parse(fixture('bundles/loop-gpt-ext4-78pct-debian12/bundle.json')));
  const envelope = await assessBundle(bundle, clock);
  if (envelope.result === null) {
    throw new Error('the bundle did not assess');
  }
  return envelope.result;
}

const measurement = (
  source: 'cryptsetup' | 'openssl',
  cipher: string,
  keyBits: number,
  oneCore: number,
  allCores: number | null,
): CipherSpeedMeasurement => ({
  cipher,
  keyBits,
  source,
  encryptBytesPerSecond: oneCore,
  decryptBytesPerSecond: oneCore,
  allCoresEncryptBytesPerSecond: allCores,
  allCoresDecryptBytesPerSecond: allCores,
  allCoresThreads: allCores === null ? null : 2,
  messageBytes: null,
  argv: [source, 'benchmark'],
});

describe('planInputFromAssessment on a real loop-device bundle', () => {
  it('maps the CPU, disk, space, partitions and discard walk the bundle holds', async () => {
    const input = planInputFromAssessment(await assessedLoop());
    expect(planInputSchema.parse(input)).toEqual(input);
    expect(input.os).toBe('linux');
    expect(input.cpu).toMatchObject({ hasAes: true, arch: expect.any(String) as string });
    expect(input.device).toMatchObject({
      path: '/dev/loop0',
      transport: 'loop',
      sizeBytes: 1_073_741_824,
      logicalSectorBytes: 512,
    });
    // The only partition spans 1 MiB … 1 MiB + 836,763,648 bytes: last sector (1,048,576 + 836,763,648) / 512 − 1.
    expect(input.space).toMatchObject({ partitionTable: 'gpt', lastPartitionEndSector: 1_636_351 });
    expect(input.health.verdict).toBe('unknown');
    expect(input.trim).toMatchObject({ passthroughKnown: true, firstBlockingLayer: null });
    expect(input.existingEncryption).toBeNull();
  });

  it('gives a plan that adds the LUKS partition after the existing one', async () => {
    const plan = buildPlan(planInputFromAssessment(await assessedLoop()));
    const layout = plan.commands.find((command) => command.id === 'partition-layout');
    expect(layout?.argv[1]).toMatch(/^--new=0:1636352:\d+$/);
    expect(plan.settings.cipher).toBe('aes-xts-plain64');
  });
});

describe('planInputFromAssessment with health, discard and benchmark facts', () => {
  it('maps a failing verdict, a dm-crypt layer that blocks, kernel drivers and merged cipher and KDF speeds', async () => {
    const loop = await assessedLoop();
    const [path] = loop.discardPassthrough.paths;
    const blockingLayer = {
      ...path!.layers[0]!,
      kind: 'dm-crypt' as const,
      name: 'cryptroot',
      blocksHere: true,
      passesDiscards: false,
    };
    const result: AssessmentResult = {
      ...loop,
      health: {
        ...loop.health,
        verdict: 'failing',
        percentageUsed: 95,
        dataWrittenBytes: 1e15,
        findings: [
          {
            id: 'reallocated',
            severity: 'failing',
            attribute: '5 Reallocated_Sector_Ct',
            value: 304,
            threshold: 'raw >= 1',
            thresholdSource: null,
            message: 'Reallocated_Sector_Ct raw 304',
            source: { origin: 'smartctl', field: null },
          },
        ],
      },
      discardPassthrough: {
        ...loop.discardPassthrough,
        paths: [{ ...path!, passesToDisk: false, layers: [blockingLayer, ...path!.layers.slice(1)] }],
      },
      kernelCrypto: {
        xtsAes: {
          algorithm: 'xts(aes)',
          driver: 'xts(ecb(aes-fixed-time))',
          module: null,
          priority: 100,
          inferred: false,
        },
        xtsAesImplementation: 'generic',
        adiantum: 'absent',
        adiantumDrivers: [],
        algorithmCount: 10,
      },
      cipherBenchmark: {
        cpuHasAes: true,
        kernelCrypto: null,
        cipherSpeed: {
          measurements: [
            measurement('openssl', 'aes-xts', 512, 4_000_000_000, 7_800_000_000),
            measurement('cryptsetup', 'aes-xts', 512, 2_400_000_000, null),
            measurement('openssl', 'chacha20', 256, 1, 1),
          ],
          unmeasured: [],
          kernelCipherBenchmarkAvailable: true,
        },
        kdfSpeed: {
          pbkdf2: [
            { hash: 'sha256', iterationsPerSecond: 1_000_000, derivedKeyBits: 512 },
            { hash: 'sha512', iterationsPerSecond: 1_685_813, derivedKeyBits: 256 },
          ],
          argon2: [
            {
              variant: 'argon2id',
              timeCost: 5,
              memoryKibibytes: 1_048_576,
              threads: 4,
              derivedKeyBits: 256,
              requestedDurationMs: 2000,
            },
          ],
          unmeasured: [],
        },
        findings: [],
      },
    };
    const input = planInputFromAssessment(result);
    expect(planInputSchema.parse(input)).toEqual(input);
    expect(input.health).toMatchObject({
      verdict: 'failing',
      wearPercentUsed: 95,
      dataWrittenBytes: 1e15,
      findings: ['Reallocated_Sector_Ct raw 304'],
    });
    expect(input.trim).toMatchObject({
      passthroughKnown: true,
      firstBlockingLayer: { kind: 'dm-crypt', name: 'cryptroot' },
    });
    expect(input.kernel).toMatchObject({
      xtsAesDriver: 'xts(ecb(aes-fixed-time))',
      xtsAesGeneric: true,
      adiantumAvailable: false,
    });
    // The kernel's one-core rate (cryptsetup) with OpenSSL's all-core rate; OpenSSL's chacha20 is no dm-crypt cipher.
    expect(input.cipherSpeeds).toEqual([
      expect.objectContaining({
        cipher: 'aes-xts',
        keyBits: 512,
        encryptBytesPerSecondOneCore: 2_400_000_000,
        encryptBytesPerSecondAllCores: 7_800_000_000,
      }),
    ]);
    // A 512-bit key from SHA-256 takes two blocks: per 256-bit key that is twice the rate.
    expect(input.pbkdf2Speeds.map((row) => [row.hash, row.iterationsPerSecond])).toEqual([
      ['sha256', 2_000_000],
      ['sha512', 1_685_813],
    ]);
    expect(input.argon2id).toMatchObject({ timeCost: 5, memoryKiB: 1_048_576, threads: 4, targetMs: 2000 });

    const plan = buildPlan(input);
    expect(plan.healthGate.status).toBe('back-up-first');
    expect(plan.findings.map((finding) => finding.ruleId)).toEqual([
      'health-gate',
      'kernel-aes-driver-unaccelerated',
    ]);
  });
});
