import { describe, expect, it } from 'vitest';
import {
  cipherMeasurementsFromOpenssl,
  type OpensslSpeedRun,
} from '../../src/parsers/openssl-speed/openssl-speed-facts.js';

/** One `openssl speed -mr` run of `evp` at 4096-byte messages that printed `rate` bytes/s. */
function run(evp: OpensslSpeedRun['evp'], rate: number, processes = 1): OpensslSpeedRun {
  const name = evp.toUpperCase();
  return {
    evp,
    decrypt: false,
    processes,
    messageBytes: 4096,
    argv: ['openssl', 'speed', '-evp', evp],
    speed: {
      version: null,
      results: [{ algorithm: name, messageBytes: 4096, bytesPerSecond: rate }],
      processCount: processes,
      format: 'machine',
    },
  };
}

describe('cipherMeasurementsFromOpenssl', () => {
  it('states the median of repeated one-core runs and keeps every sample in run order', () => {
    const [aes128, aes256] = cipherMeasurementsFromOpenssl([
      run('aes-128-xts', 5_000),
      run('aes-256-xts', 4_000),
      run('aes-128-xts', 3_000),
      run('aes-256-xts', 2_000),
      run('aes-128-xts', 9_000),
      run('aes-256-xts', 7_000),
      run('aes-256-xts', 12_000, 2),
    ]);
    expect(aes128).toMatchObject({
      keyBits: 256,
      encryptBytesPerSecond: 5_000,
      encryptSamplesBytesPerSecond: [5_000, 3_000, 9_000],
    });
    expect(aes256).toMatchObject({
      keyBits: 512,
      encryptBytesPerSecond: 4_000,
      encryptSamplesBytesPerSecond: [4_000, 2_000, 7_000],
      allCoresEncryptBytesPerSecond: 12_000,
    });
  });

  it('gives no samples for a single run (quick revisions 1–3, a bundle of them)', () => {
    const [aes128] = cipherMeasurementsFromOpenssl([run('aes-128-xts', 5_000)]);
    expect(aes128?.encryptBytesPerSecond).toBe(5_000);
    expect(aes128).not.toHaveProperty('encryptSamplesBytesPerSecond');
  });
});
