import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { cipherMiB, ciphers, facts, ioBenchmark, machine } from './facts-builder.js';

const MB = 1e6;

function spectreV2(text: string, state: 'mitigated' | 'vulnerable' = 'mitigated'): PlanFacts {
  return {
    machine: {
      mitigations: {
        vulnerabilities: [{ name: 'spectre_v2', state, text }],
        commandLine: null,
        commandLineRead: true,
        unknownReason: null,
      },
    },
  };
}

const AMD_RETPOLINE = 'Mitigation: Full AMD retpoline, IBPB: conditional, STIBP: disabled, RSB filling';

/** A Ryzen 5 2600 (AES-NI, no VAES) on kernel 5.11 whose AES-XTS (1579 MiB/s, retpolines on) limits a 3.5 GB/s NVMe. */
function ryzen(kernel: string, ...extra: PlanFacts[]): PlanFacts {
  return facts(
    machine({ aes: true, vaes: false, cores: 12, kernel }),
    { machine: { cpuVendor: 'AMD' }, kernelCrypto: { xtsAes: { driver: 'xts-aes-aesni' } } },
    ciphers(cipherMiB('aes-xts', 512, 1578.9, 1581.6)),
    ioBenchmark({ 'seq1m-q1t1': [3500 * MB, 3000 * MB] }),
    spectreV2(AMD_RETPOLINE),
    ...extra,
  );
}

const findingOf = (input: PlanFacts) =>
  buildPlan(input).findings.find((finding) => finding.ruleId === 'retpoline-aes-xts');

describe('retpoline-aes-xts (Spectre v2 retpolines in the AES-NI XTS code before Linux 5.12)', () => {
  it('says a kernel ≥ 5.12 recovers the retpoline cost, with the published figures and the mitigation kept', () => {
    const finding = findingOf(ryzen('5.11.1-arch1-1'));
    expect(finding?.severity).toBe('warning');
    expect(finding?.message).toContain('1813 MiB/s on 5.11.1, 2947 MiB/s on 5.12-rc1 (+63 %');
    expect(finding?.message).toContain('do not turn mitigations off');
    expect(finding?.message).toContain(AMD_RETPOLINE);
    expect(finding?.evidence.find((item) => item.fact.startsWith('published'))?.value).toBe(1.625);
  });

  it.each([
    ['kernel 5.12 and later', ryzen('5.12.0')],
    ['an unknown kernel', ryzen('unknown')],
    [
      'IBRS instead of retpolines (Tiger Lake: no measurable cost)',
      ryzen('5.10.0', spectreV2('Mitigation: Enhanced IBRS, IBPB: conditional, RSB filling')),
    ],
    [
      'spectre_v2 not mitigated (mitigations=off)',
      ryzen('5.10.0', spectreV2('Vulnerable, IBPB: disabled, STIBP: disabled', 'vulnerable')),
    ],
    [
      'the generic C driver (the unaccelerated finding is its case)',
      ryzen('5.10.0', { kernelCrypto: { xtsAes: { driver: 'xts(ecb(aes-generic))' } } }),
    ],
    ['a device slower than the cipher', ryzen('5.10.0', ioBenchmark({ 'seq1m-q1t1': [500 * MB, 500 * MB] }))],
  ])('stays silent with %s', (_name, input) => {
    expect(findingOf(input)).toBeUndefined();
  });

  it('stays silent when the spectre_v2 state was not read', () => {
    const input = ryzen('5.10.0');
    const unread = { ...input, machine: { ...input.machine, mitigations: undefined } };
    expect(findingOf(unread)).toBeUndefined();
  });
});
