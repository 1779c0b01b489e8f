import { describe, expect, it } from 'vitest';
import { parseFdesetupStatus } from '../../src/parsers/fdesetup/parse-fdesetup-status.js';
import { parseSysctlCpu } from '../../src/parsers/sysctl/parse-sysctl-cpu.js';
import { fixture } from '../support/fixtures.js';

/**
 * The captures issue 13 still lacked: `sysctl` on Apple silicon (two real `sysctl hw` outputs, M3 and M4 Pro;
 * fixtures/sysctl/PROVENANCE.md) and `fdesetup status` (still no public capture: the replies a Jamf extension
 * attribute lists from observation are tested as documented text; fixtures/fdesetup/PROVENANCE.md).
 */

describe('parseSysctlCpu on real Apple-silicon captures (`sysctl hw`)', () => {
  for (const [name, lines] of [
    ['hw-apple-m3-2024', 102],
    ['hw-apple-m4pro-2024', 116],
  ] as const) {
    it(`${name}: Apple silicon with AES (hw.optional.arm64 and FEAT_AES, no machdep.cpu lines)`, () => {
      const text = fixture(`sysctl/${name}/stdout.txt`);
      expect(text.split('\n')).toHaveLength(lines + 1);
      expect(text).toContain('hw.optional.arm.FEAT_AES: 1\n');
      expect(parseSysctlCpu(text)).toEqual({
        brand: null,
        features: [],
        appleSilicon: true,
        aes: true,
        virtualMachine: false,
      });
    });
  }

  it('the M3 capture keeps its empty value line ("hw.osenvironment: ") readable', () => {
    const text = fixture('sysctl/hw-apple-m3-2024/stdout.txt');
    expect(text).toContain('hw.osenvironment: \n');
    expect(() => parseSysctlCpu(text)).not.toThrow();
  });

  it('without the hw.optional.arm64 line the same capture fails closed rather than guessing', () => {
    const text = fixture('sysctl/hw-apple-m3-2024/stdout.txt').replace('hw.optional.arm64: 1\n', '');
    expect(() => parseSysctlCpu(text)).toThrow(expect.objectContaining({ code: 'TOOL_OUTPUT_UNRECOGNIZED' }));
  });
});

describe('parseFdesetupStatus on the replies mac admins list (documented, no capture)', () => {
  it('"Encryption in progress: Pending" (no percentage while the Mac is on battery) is encrypting', () => {
    expect(parseFdesetupStatus('FileVault is On.\nEncryption in progress: Pending\n')).toEqual({
      state: 'encrypting',
      percentCompleted: null,
    });
  });

  it('deferred enablement is still off', () => {
    expect(
      parseFdesetupStatus("FileVault is Off.\nDeferred enablement appears to be active for user 'jdoe'.\n"),
    ).toEqual({ state: 'off', percentCompleted: null });
  });
});
