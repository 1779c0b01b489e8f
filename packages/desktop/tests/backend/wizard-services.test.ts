import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '@encplan/core';
import { benchmarkStepInWords } from '../../src/backend/wizard-services.js';

const event = (phase: ProgressEvent['phase'], message: string): ProgressEvent => ({
  phase,
  message,
  runIndex: 1,
  runCount: 10,
  fraction: 0.1,
  etaMs: 1000,
});

describe('the benchmark steps the wizard shows', () => {
  it('says each step of the core’s schedule in words, never its tool invocation or variant id', () => {
    expect(
      [
        event('measure', 'openssl speed -elapsed -seconds 1 -evp aes-256-xts on 2 core(s)'),
        event('measure', 'cryptsetup benchmark aes-xts 512b'),
        event('measure', 'cryptsetup benchmark --pbkdf pbkdf2 --hash sha256'),
        event('measure', 'cryptsetup --pbkdf argon2id --iter-time 2000'),
        event('prepare', 'Preparing the plain filesystem'),
        event('prepare', 'Preparing luks2 sector 4096, no workqueues'),
        event('teardown', 'Removing luks2 sector 4096, no workqueues'),
        event('teardown', 'Removing the scratch filesystem'),
        event('done', 'Done'),
      ].map(benchmarkStepInWords),
    ).toEqual([
      'Cipher speed, in memory',
      'Cipher speed, in memory',
      'Key-derivation speed, in memory',
      'Key-derivation speed, in memory',
      'Preparing the plain filesystem',
      'Preparing an encrypted test container',
      'Removing the encrypted test container',
      'Removing the scratch filesystem',
      'Done',
    ]);
  });
});
