import { describe, expect, it } from 'vitest';
import { errorInWords, inWords, warningInWords } from '../../src/renderer/src/steps/words.js';

describe('the wizard’s words for the core’s texts', () => {
  it('names its own controls instead of CLI options, and drops rule ids and source paths', () => {
    expect(inWords('Cipher-bound: pass --speed-over-security to accept AES-128.')).toBe(
      'Cipher-bound: pass “Prefer speed” under Plan for to accept AES-128.',
    );
    expect(inWords('Not measured: run the assessment with --benchmark.')).toBe(
      'Not measured: run the assessment with the Benchmark step.',
    );
    expect(inWords('[NOT MET] filesystem-type: ext4 can be shrunk.')).toBe('Not met: ext4 can be shrunk.');
    expect(inWords('Give `encplan plan --input FILE` the file.')).toBe('Give the command line the file.');
    expect(inWords('smartctl failed at os_linux.cpp? no: at smart/ata.go:42 today')).not.toMatch(/\.go/);
    expect(inWords('use --cipher-bytes-per-second 1000')).not.toMatch(/--[a-z]/);
    expect(inWords('(cryptsetup reencrypt --encrypt --header FILE would keep the data)')).toBe(
      '(cryptsetup reencrypt would keep the data)',
    );
    expect(inWords('It pins memory (--pbkdf-memory, --iter-time).')).toBe('It pins memory.');
    expect(inWords('skipped (KERNEL_FEATURE_MISSING): no dm-crypt')).toBe(
      'skipped (kernel feature missing): no dm-crypt',
    );
  });

  it('says what an error or warning code means, and a lost connection as such', () => {
    expect(warningInWords('SMART_UNAVAILABLE')).toBe('Health not readable');
    expect(warningInWords('SOMETHING_NEW')).toBe('Not checked');
    expect(errorInWords('INTERNAL_ERROR', 'Lost the connection to encplan ui (fetch failed).')).toBe(
      'The connection to encplan was lost',
    );
    expect(errorInWords('KERNEL_FEATURE_MISSING', 'x')).not.toMatch(/[A-Z]{2,}_[A-Z]/);
  });
});
