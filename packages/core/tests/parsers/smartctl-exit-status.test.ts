import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeSmartctlExitStatus, SmartctlExitBit } from '../../src/parsers/smartctl/exit-status.js';

describe('decodeSmartctlExitStatus', () => {
  it.each([
    [SmartctlExitBit.commandLineInvalid, ['command-line-invalid'], [], false],
    [SmartctlExitBit.deviceOpenFailed, ['device-open-failed'], [], false],
    [SmartctlExitBit.smartCommandFailed, ['smart-command-failed'], [], true],
    [SmartctlExitBit.diskFailing, [], ['disk-failing'], true],
    [SmartctlExitBit.prefailBelowThreshold, [], ['prefail-below-threshold'], true],
    [SmartctlExitBit.pastBelowThreshold, [], ['past-below-threshold'], true],
    [SmartctlExitBit.errorLogHasErrors, [], ['error-log-has-errors'], true],
    [SmartctlExitBit.selfTestLogHasErrors, [], ['self-test-log-has-errors'], true],
  ])('decodes bit value %i on its own', (value, problems, findings, dataUsable) => {
    expect(decodeSmartctlExitStatus(value)).toEqual({ value, problems, findings, dataUsable });
  });

  it('reports a failing disk when bit 3 is set, even if bit 6 is also set', () => {
    const status = decodeSmartctlExitStatus(8 | 64);
    expect(status.findings).toEqual(['disk-failing', 'error-log-has-errors']);
    expect(status.dataUsable).toBe(true);
  });

  it('treats exit 4 (a SMART command failed) as usable data, as on healthy drives behind RAID', () => {
    expect(decodeSmartctlExitStatus(4)).toMatchObject({
      dataUsable: true,
      problems: ['smart-command-failed'],
      findings: [],
    });
  });

  it('decodes every byte value into exactly the bits that are set', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), (value) => {
        const status = decodeSmartctlExitStatus(value);
        const bits = status.problems.length + status.findings.length;
        expect(bits).toBe(
          value
            .toString(2)
            .split('')
            .filter((bit) => bit === '1').length,
        );
        expect(status.dataUsable).toBe((value & 3) === 0);
      }),
    );
  });
});
