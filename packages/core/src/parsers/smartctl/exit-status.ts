import type {
  SmartctlExitFinding,
  SmartctlExitProblem,
  SmartctlExitStatus,
} from '../../domain/smart-facts.js';

/** Bits of smartctl's exit status, from smartctl(8) "EXIT STATUS" (smartctl(8) RETURN VALUES; smartmontools src/json.cpp, nvmeprint.cpp, ataprint.cpp). */
export const SmartctlExitBit = {
  /** Also set when the device type cannot be detected (loop devices, unknown USB bridges). */
  commandLineInvalid: 1 << 0,
  /** Open failed, no IDENTIFY answer, or the device is in a low-power mode (`--nocheck=standby`). */
  deviceOpenFailed: 1 << 1,
  /** Some SMART or other ATA command failed, or a SMART data structure had a checksum error. */
  smartCommandFailed: 1 << 2,
  diskFailing: 1 << 3,
  prefailBelowThreshold: 1 << 4,
  pastBelowThreshold: 1 << 5,
  errorLogHasErrors: 1 << 6,
  selfTestLogHasErrors: 1 << 7,
} as const;

const PROBLEM_BITS: readonly (readonly [number, SmartctlExitProblem])[] = [
  [SmartctlExitBit.commandLineInvalid, 'command-line-invalid'],
  [SmartctlExitBit.deviceOpenFailed, 'device-open-failed'],
  [SmartctlExitBit.smartCommandFailed, 'smart-command-failed'],
];

const FINDING_BITS: readonly (readonly [number, SmartctlExitFinding])[] = [
  [SmartctlExitBit.diskFailing, 'disk-failing'],
  [SmartctlExitBit.prefailBelowThreshold, 'prefail-below-threshold'],
  [SmartctlExitBit.pastBelowThreshold, 'past-below-threshold'],
  [SmartctlExitBit.errorLogHasErrors, 'error-log-has-errors'],
  [SmartctlExitBit.selfTestLogHasErrors, 'self-test-log-has-errors'],
];

/**
 * Decodes smartctl's exit status. Every bit is tested on its own (as smartctl_exporter does), so a failing
 * disk whose error log also has entries reports both. Values outside 0-255 are masked to the low byte.
 */
export function decodeSmartctlExitStatus(status: number): SmartctlExitStatus {
  const value = Number.isInteger(status) ? status & 0xff : 0;
  const has = (bit: number): boolean => (value & bit) !== 0;
  return {
    value,
    dataUsable: !has(SmartctlExitBit.commandLineInvalid) && !has(SmartctlExitBit.deviceOpenFailed),
    problems: PROBLEM_BITS.filter(([bit]) => has(bit)).map(([, problem]) => problem),
    findings: FINDING_BITS.filter(([bit]) => has(bit)).map(([, finding]) => finding),
  };
}
