import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

/**
 * The "Cipher speed" badge is only as known as the speed the plan's encryption would get (issue 24 item 5):
 * this host's quick benchmark (fixtures/bundles/loop-ext4-mounted-benchmark-quick-debian12, real captures)
 * measured OpenSSL with AES-NI, but the kernel's xts(aes) is the generic C driver, so dm-crypt gets none of it
 * and the plan predicts nothing from it. The badge said "measured" beside "cipher speed evidence: none usable".
 */
const clock = { now: () => new Date('2026-11-26T00:00:00Z') };

async function genericKernelHost() {
  return assessBundle(
    parseBundle(JSON.parse(fixture('bundles/loop-ext4-mounted-benchmark-quick-debian12/bundle.json'))),
    clock,
  );
}

const ciphersOf = (view: ReturnType<typeof toReportView>) =>
  view.sections.find((section) => section.id === 'ciphers');

describe('the Cipher speed badge', () => {
  it('says the measured speeds are not what encryption gets here when the plan can use none of them', async () => {
    const envelope = await genericKernelHost();
    expect(envelope.result?.plan?.cipherEvidence?.rank).toBeNull();
    const view = toReportView(envelope);
    expect(ciphersOf(view)).toMatchObject({ tone: 'attention', verdict: 'not what encryption here gets' });
    expect(ciphersOf(view)?.summary).toContain('xts(ecb(aes-fixed-time))');
    expect(renderTextReport(view)).toContain('! Cipher speed: not what encryption here gets');
    expect(renderTextReport(view)).not.toContain('Cipher speed: measured');
  });

  it('says so too when the plan uses another measurement (a cold fscrypt run) and only OpenSSL AES was measured', async () => {
    const envelope = await genericKernelHost();
    envelope.result!.plan!.cipherEvidence = {
      rank: 3,
      kind: 'kernel-cipher',
      upperBound: false,
      source: 'fio: fscrypt sequential run (kernel xts(aes), cold file)',
      note: "The kernel's own xts(aes) measured through fscrypt.",
    };
    const ciphers = ciphersOf(toReportView(envelope));
    expect(ciphers).toMatchObject({ tone: 'attention', verdict: 'not what encryption here gets' });
    expect(ciphers?.summary).toContain('OpenSSL not used');
    expect(ciphers?.summary).toContain(
      'The plan uses fio: fscrypt sequential run (kernel xts(aes), cold file) instead.',
    );
  });

  it('says "measured, an upper bound" for OpenSSL admitted with an accelerated driver, and "measured" for a kernel figure', async () => {
    const envelope = await genericKernelHost();
    const result = envelope.result!;
    result.kernelCrypto = {
      ...result.kernelCrypto!,
      xtsAes: {
        algorithm: 'xts(aes)',
        driver: 'xts-aes-aesni',
        module: 'aesni_intel',
        priority: 401,
        inferred: false,
      },
      xtsAesImplementation: 'cpu-instructions',
    };
    const plan = result.plan!;
    plan.cipherEvidence = {
      rank: 4,
      kind: 'userspace-upper-bound',
      upperBound: true,
      source: null,
      note: 'OpenSSL with AES-NI; the kernel driver is accelerated too.',
    };
    expect(ciphersOf(toReportView(envelope))).toMatchObject({
      tone: 'info',
      verdict: 'measured, an upper bound',
    });
    plan.cipherEvidence = { ...plan.cipherEvidence, rank: 2, kind: 'kernel-api', upperBound: false };
    expect(ciphersOf(toReportView(envelope))).toMatchObject({ tone: 'info', verdict: 'measured' });
  });
});
