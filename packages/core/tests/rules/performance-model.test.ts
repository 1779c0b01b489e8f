import { describe, expect, it } from 'vitest';
import { type StandardProfileId } from '../../src/domain/io-benchmark.js';
import { MIB } from '../../src/domain/units.js';
import { type EffectiveCipherSpeed } from '../../src/rules/cipher-speed.js';
import { predictPerformance } from '../../src/rules/performance-model.js';
import { facts, ioBenchmark, machine, type ProfileRates } from './facts-builder.js';

function speed(mib: number): EffectiveCipherSpeed {
  return {
    cipher: 'aes-xts',
    keyBits: 512,
    encryptBytesPerSecond: mib * MIB,
    decryptBytesPerSecond: mib * MIB,
    allCoresEncryptBytesPerSecond: null,
    measured: true,
    basis: {
      cipher: 'aes-xts',
      keyBits: 512,
      encryptBytesPerSecondOneCore: mib * MIB,
      decryptBytesPerSecondOneCore: mib * MIB,
      encryptBytesPerSecondAllCores: null,
      source: { origin: 'cryptsetup', field: null },
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
      name: 'is device-bound at QD8 when cores × cipher outrun the device',
      profile: 'seq1m-q8t1',
      cores: 4,
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
      device: 3000,
      cipher: 500,
      sector: 4096,
      predicted: 2000,
      regime: 'min-device-cipher',
      limit: 'cipher',
    },
    {
      name: 'adds device and cipher time at QD1',
      profile: 'seq1m-q1t1',
      cores: 4,
      device: 1500,
      cipher: 2000,
      sector: 4096,
      predicted: 1 / (1 / 1500 + 1 / 2000),
      regime: 'serial-harmonic',
      limit: 'device',
    },
    {
      name: 'halves the cipher at 512-byte sectors',
      profile: 'seq1m-q1t1',
      cores: 4,
      device: 1500,
      cipher: 2000,
      sector: 512,
      predicted: 600,
      regime: 'serial-harmonic',
      limit: 'cipher',
    },
    {
      name: 'uses at most as many cores as the queue depth',
      profile: 'rnd4k-q32t1',
      cores: 2,
      device: 3000,
      cipher: 1000,
      sector: 4096,
      predicted: 2000,
      regime: 'min-device-cipher',
      limit: 'cipher',
    },
  ] as const)('$name', ({ profile, cores, device, cipher, sector, predicted, regime, limit }) => {
    const rows = predictPerformance(input(cores, plain(profile, device)), {
      speed: speed(cipher),
      sectorSizeBytes: sector,
      workqueueBypass: true,
    });
    const row = rows.find((r) => r.profile === profile);
    expect(row?.regime).toBe(regime);
    expect((row?.predictedReadBytesPerSecond ?? 0) / MIB).toBeCloseTo(predicted, 6);
    expect(row?.readLimitedBy).toBe(limit);
  });

  it('reports the error against a measured value', () => {
    const measured = [
      { variant: 'luks2 sector 512, no workqueues', rates: plain('seq1m-q8t1', 2500) },
      { variant: 'luks2 sector 4096', rates: plain('seq1m-q8t1', 2600) },
      { variant: 'luks2 sector 4096, no workqueues', rates: plain('seq1m-q8t1', 2700) },
    ];
    const row = predictPerformance(input(4, plain('seq1m-q8t1', 3000), measured), {
      speed: speed(2000),
      sectorSizeBytes: 4096,
      workqueueBypass: true,
    })[0];
    expect(row?.measuredReadBytesPerSecond).toBe(2700 * MIB);
    expect(row?.readErrorPercent).toBeCloseTo(11.1, 1);
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
});
