import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  mitigationsParameter,
  parseCpuMitigations,
  vulnerabilityState,
} from '../../../src/parsers/cpu-vulnerabilities/cpu-vulnerabilities.js';
import { fixture } from '../../support/fixtures.js';
import { filesFromGrep } from '../../support/cpu-vulnerabilities.js';

const thisHost = filesFromGrep(fixture('cpu-vulnerabilities/this-host-intel-xeon-linux-6.18.txt'));
const broadwell = filesFromGrep(fixture('cpu-vulnerabilities/published-broadwell-vm-linux-6.5.txt'));
const amd = filesFromGrep(fixture('cpu-vulnerabilities/published-amd-7950hx.txt'));
const cmdline = fixture('cpu-vulnerabilities/this-host-cmdline.txt');

describe('the CPU-vulnerability files (Documentation/ABI/testing/sysfs-devices-system-cpu)', () => {
  it.each([
    ['Not affected', 'not-affected'],
    ['Mitigation: Safe RET', 'mitigated'],
    ['KVM: Mitigation: VMX unsupported', 'mitigated'],
    ['Vulnerable', 'vulnerable'],
    ['Vulnerable: Clear CPU buffers attempted, no microcode; SMT Host state unknown', 'vulnerable'],
    ['KVM: Vulnerable', 'vulnerable'],
    ['Unknown: Dependent on hypervisor status', 'unknown'],
    ['', 'unknown'],
    ['something new', 'unknown'],
  ] as const)('%j is %s', (text, state) => {
    expect(vulnerabilityState(`${text}\n`)).toBe(state);
  });

  it('reads this host: sorted, every file kept with its text, mitigations= from the command line', () => {
    const parsed = parseCpuMitigations(thisHost, cmdline, 'unused');
    expect(parsed.unknownReason).toBeNull();
    expect(parsed.commandLine).toBe('auto,no_guest_host,no_guest_guest');
    expect(parsed.commandLineRead).toBe(true);
    const names = parsed.vulnerabilities?.map((entry) => entry.name) ?? [];
    expect(names).toEqual([...names].sort());
    expect(names).toHaveLength(thisHost.size);
    expect(parsed.vulnerabilities).toContainEqual({
      name: 'spectre_v2',
      state: 'mitigated',
      text: 'Mitigation: Enhanced / Automatic IBRS; IBPB: conditional; PBRSB-eIBRS: SW sequence; BHI: Vulnerable',
    });
    expect(parsed.vulnerabilities).toContainEqual({
      name: 'retbleed',
      state: 'not-affected',
      text: 'Not affected',
    });
  });

  it('reads a published Broadwell listing with every state the kernel prints', () => {
    const parsed = parseCpuMitigations(broadwell, null, 'unused');
    const state = (name: string) => parsed.vulnerabilities?.find((entry) => entry.name === name)?.state;
    expect(state('meltdown')).toBe('mitigated');
    expect(state('itlb_multihit')).toBe('mitigated');
    expect(state('mds')).toBe('vulnerable');
    expect(state('spec_store_bypass')).toBe('vulnerable');
    expect(state('srbds')).toBe('unknown');
    expect(state('mmio_stale_data')).toBe('unknown');
    expect(state('retbleed')).toBe('not-affected');
    // The command line was not read: unknown, not "no mitigations= given".
    expect(parsed.commandLine).toBeNull();
    expect(parsed.commandLineRead).toBe(false);
  });

  it('reads a published AMD listing: SRSO mitigated by safe RET', () => {
    const parsed = parseCpuMitigations(amd, 'BOOT_IMAGE=/vmlinuz root=/dev/nvme0n1p2 ro', 'unused');
    expect(parsed.vulnerabilities?.find((entry) => entry.name === 'spec_rstack_overflow')).toEqual({
      name: 'spec_rstack_overflow',
      state: 'mitigated',
      text: 'Mitigation: safe RET, no microcode',
    });
    expect(parsed.commandLine).toBeNull();
    expect(parsed.commandLineRead).toBe(true);
  });

  it('files absent: null with the reason, never "not affected"', () => {
    const parsed = parseCpuMitigations(null, null, 'the directory is absent');
    expect(parsed).toEqual({
      vulnerabilities: null,
      commandLine: null,
      commandLineRead: false,
      unknownReason: 'the directory is absent',
    });
    expect(parseCpuMitigations(new Map(), null, 'none readable').vulnerabilities).toBeNull();
  });

  it.each([
    ['mitigations=off quiet', 'off'],
    ['quiet mitigations=auto,nosmt', 'auto,nosmt'],
    ['mitigations=auto mitigations=off', 'off'],
    ['quiet splash', null],
    // After "--" the words go to init, not the kernel.
    ['quiet -- mitigations=off', null],
  ])('mitigations= of %j is %j', (line, value) => {
    expect(mitigationsParameter(line)).toBe(value);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, line) => {
        expect(['not-affected', 'mitigated', 'vulnerable', 'unknown']).toContain(vulnerabilityState(text));
        parseCpuMitigations(new Map([['x', text]]), line, 'r');
      }),
    );
  });
});
