import { describe, expect, it } from 'vitest';
import { planSettingsOf } from '../../src/targets/registry.js';
import { type StandardProfileId } from '../../src/domain/io-benchmark.js';
import { MIB } from '../../src/domain/units.js';
import { type EffectiveCipherSpeed } from '../../src/rules/cipher-speed.js';
import {
  findPerformanceResiduals,
  findSmallSectorBound,
  predictPerformance,
} from '../../src/rules/performance-model.js';
import { facts, ioBenchmark, machine, type ProfileRates } from './facts-builder.js';

function speed(mib: number): EffectiveCipherSpeed {
  return {
    cipher: 'aes-xts',
    keyBits: 512,
    figureCores: 'one-core',
    encryptBytesPerSecond: mib * MIB,
    decryptBytesPerSecond: mib * MIB,
    allCoresEncryptBytesPerSecond: null,
    measured: true,
    basis: {
      cipher: 'aes-xts',
      keyBits: 512,
      figureCores: 'one-core',
      encryptBytesPerSecondOneCore: mib * MIB,
      decryptBytesPerSecondOneCore: mib * MIB,
      encryptBytesPerSecondAllCores: null,
      source: { origin: 'cryptsetup', field: null },
      evidence: 'kernel-api',
      note: 'test',
    },
  };
}
/** Read and write at `mib` MiB/s in one standard profile. */
const plain = (profile: StandardProfileId, mib: number): ProfileRates => ({
  [profile]: [mib * MIB, mib * MIB],
});

describe('predictPerformance', () => {
  const input = (
    cores: number,
    rates: ProfileRates,
    measured: { variant: string; rates: ProfileRates }[] = [],
  ) => facts(machine({ cores }), ioBenchmark(rates, measured));

  it.each([
    {
      name: 'is device-bound at QD8 when cores × cipher outrun the device (stock workqueues spread over cores)',
      profile: 'seq1m-q8t1',
      cores: 4,
      bypass: false,
      device: 3000,
      cipher: 2000,
      sector: 4096,
      predicted: 3000,
      regime: 'min-device-cipher',
      limit: 'device',
    },
    {
      name: 'is cipher-bound at QD8 on a slow CPU',
      profile: 'seq1m-q8t1',
      cores: 4,
      bypass: false,
      device: 3000,
      cipher: 500,
      sector: 4096,
      predicted: 2000,
      regime: 'min-device-cipher',
      limit: 'cipher',
    },
    {
      name: 'gets one core at QD8 when the workqueues are bypassed (crypto in the one submitting thread)',
      profile: 'seq1m-q8t1',
      cores: 4,
      bypass: true,
      device: 3000,
      cipher: 2000,
      sector: 4096,
      predicted: 2000,
      regime: 'min-device-cipher',
      limit: 'cipher',
    },
    {
      name: 'waits on one core for a single large-request stream, overlapping device and cipher',
      profile: 'seq1m-q1t1',
      cores: 4,
      bypass: false,
      device: 1500,
      cipher: 2000,
      sector: 4096,
      predicted: 1500,
      regime: 'one-core-stream',
      limit: 'device',
    },
    {
      name: 'is cipher-bound for a single stream when one core is slower than the device although four are not',
      profile: 'seq1m-q1t1',
      cores: 4,
      bypass: false,
      device: 500,
      cipher: 350,
      sector: 4096,
      predicted: 350,
      regime: 'one-core-stream',
      limit: 'cipher',
    },
    {
      name: 'adds device and cipher time for single small requests',
      profile: 'rnd4k-q1t1',
      cores: 4,
      bypass: false,
      device: 50,
      cipher: 400,
      sector: 4096,
      predicted: 1 / (1 / 50 + 1 / 400),
      regime: 'qd1-latency',
      limit: 'device',
    },
    {
      name: 'uses at most as many cores as the queue depth',
      profile: 'rnd4k-q32t1',
      cores: 2,
      bypass: false,
      device: 3000,
      cipher: 1000,
      sector: 4096,
      predicted: 2000,
      regime: 'min-device-cipher',
      limit: 'cipher',
    },
  ] as const)('$name', ({ profile, cores, bypass, device, cipher, sector, predicted, regime, limit }) => {
    const rows = predictPerformance(input(cores, plain(profile, device)), {
      speed: speed(cipher),
      sectorSizeBytes: sector,
      workqueueBypass: bypass,
    });
    const row = rows.find((r) => r.profile === profile);
    expect(row?.regime).toBe(regime);
    expect((row?.predictedReadBytesPerSecond ?? 0) / MIB).toBeCloseTo(predicted, 6);
    expect(row?.readLimitedBy).toBe(limit);
  });

  it('spreads VeraCrypt over all cores even for a single stream', () => {
    const row = predictPerformance(input(4, plain('seq1m-q1t1', 3000)), {
      speed: speed(500),
      sectorSizeBytes: 512,
      workqueueBypass: false,
      engine: planSettingsOf('veracrypt').engine,
    }).find((r) => r.profile === 'seq1m-q1t1');
    expect(row?.cipherCores).toBe(4);
    // VeraCrypt's own benchmark already encrypts 512-byte data units: its rate is not scaled to the sector.
    expect((row?.predictedReadBytesPerSecond ?? 0) / MIB).toBeCloseTo(4 * 500, 6);
  });

  it('predicts no dm-crypt cipher rate at 512-byte sectors: no source gives one', () => {
    const settings = { speed: speed(2000), workqueueBypass: false };
    const at = (sectorSizeBytes: number) =>
      predictPerformance(input(4, plain('seq1m-q1t1', 1500)), { ...settings, sectorSizeBytes }).find(
        (r) => r.profile === 'seq1m-q1t1',
      );
    expect(at(512)?.cipherReadBytesPerSecond).toBeNull();
    expect(at(512)?.predictedReadBytesPerSecond).toBeNull();
    expect(at(512)?.readLimitedBy).toBeNull();
    expect((at(4096)?.predictedReadBytesPerSecond ?? 0) / MIB).toBeCloseTo(1500, 6);
  });

  it('reports the error against a measured value', () => {
    const measured = [
      { variant: 'luks2 sector 512, no workqueues', rates: plain('seq1m-q8t1', 2500) },
      { variant: 'luks2 sector 4096', rates: plain('seq1m-q8t1', 2600) },
      { variant: 'luks2 sector 4096, no workqueues', rates: plain('seq1m-q8t1', 2700) },
    ];
    const row = predictPerformance(input(4, plain('seq1m-q8t1', 3000), measured), {
      speed: speed(1000),
      sectorSizeBytes: 4096,
      workqueueBypass: true,
    })[0];
    expect(row?.measuredReadBytesPerSecond).toBe(2700 * MIB);
    // One core (workqueues bypassed): 1000 predicted against 2700 measured.
    expect(row?.readErrorPercent).toBeCloseTo(-63, 1);
  });

  it('predicts nothing but still states the cipher bound when the device was not measured', () => {
    const row = predictPerformance(input(4, {}), {
      speed: speed(1000),
      sectorSizeBytes: 4096,
      workqueueBypass: false,
    })[0];
    expect(row).toMatchObject({ predictedReadBytesPerSecond: null, cipherReadBytesPerSecond: 4000 * MIB });
    expect(row?.assumption).toContain('stock workqueues can fall far below');
  });

  it('states each regime in plain words, one core named as one core ("1 core\' cipher" was printed)', () => {
    const rows = predictPerformance(input(1, {}), {
      speed: speed(1000),
      sectorSizeBytes: 4096,
      workqueueBypass: false,
    });
    const qd1 = rows.find((row) => row.regime === 'qd1-latency');
    expect(qd1?.assumption).toMatch(
      /^One small request at a time: the device time and the cipher time on 1 core add up;/,
    );
    expect(rows.map((row) => row.assumption).join(' ')).not.toMatch(/core' /);
  });
});

describe('findPerformanceResiduals', () => {
  const context = {
    workqueueBypass: false,
    sectorSizeBytes: 4096,
    keyBits: 512,
    kernelAesGeneric: false,
    kernelAtLeast59: true,
  };
  const predictions = (measuredMiB: number) =>
    predictPerformance(
      facts(
        machine({ cores: 4 }),
        ioBenchmark(plain('seq1m-q8t1', 3000), [
          { variant: 'luks2 sector 4096', rates: plain('seq1m-q8t1', measuredMiB) },
        ]),
      ),
      { speed: speed(2000), sectorSizeBytes: 4096, workqueueBypass: false },
    );

  it('says nothing when the measurement is within ±25 % of the model', () => {
    expect(findPerformanceResiduals(predictions(2600), context)).toEqual([]);
  });

  it('warns with the likely causes when the measurement is 9× below the model', () => {
    const [finding] = findPerformanceResiduals(predictions(3000 / 9), context);
    expect(finding?.ruleId).toBe('performance-residual');
    expect(finding?.severity).toBe('warning');
    expect(finding?.message).toContain('workqueues');
    expect(finding?.message).toContain('512-bit XTS key');
    expect(finding?.message).toContain('+800 %');
  });

  it('notes a measurement far above the model as information', () => {
    const rows = predictPerformance(
      facts(
        machine({ cores: 1 }),
        ioBenchmark(plain('seq1m-q8t1', 3000), [
          { variant: 'luks2 sector 4096', rates: plain('seq1m-q8t1', 2900) },
        ]),
      ),
      { speed: speed(1000), sectorSizeBytes: 4096, workqueueBypass: false },
    );
    const [finding] = findPerformanceResiduals(rows, context);
    expect(finding?.severity).toBe('info');
  });
});

describe('findSmallSectorBound', () => {
  it('flags a 512-byte-sector plan on a fast NVMe whose cipher then limits it', () => {
    const rows = predictPerformance(facts(machine({ cores: 8 }), ioBenchmark(plain('seq1m-q1t1', 3000))), {
      speed: speed(2500),
      sectorSizeBytes: 512,
      workqueueBypass: false,
    });
    const [finding] = findSmallSectorBound(rows, 512, true);
    expect(finding?.ruleId).toBe('small-sector-cipher-bound');
    expect(finding?.severity).toBe('info');
    expect(finding?.message).toContain('cannot tell');
    expect(finding?.message).toContain('--sector-size 4096');
    expect(findSmallSectorBound(rows, 4096, true)).toEqual([]);
  });
});
