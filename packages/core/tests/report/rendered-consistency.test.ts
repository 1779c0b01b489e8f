import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import { renderCommandsScript, toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { renderHtmlReport } from '../../src/report/html-report.js';
import type { PlanFacts } from '../../src/rules/facts.js';
import { formatBytes } from '../../src/domain/units.js';
import { parseBundle } from '../../src/capture/bundle.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

/**
 * Property tests over rendered reports (issue 24 item 5): real assessments (fixtures/assessments/PROVENANCE.md,
 * fixtures/bundles/…/PROVENANCE.md) with their TRIM facts and plan options varied, planned again, rendered as
 * text, HTML and the command script, and scanned for what contradicts the facts or the commands.
 */
const LINUX_FIXTURES = [
  'assessments/loop-empty-debian12.json',
  'assessments/loop-gpt-ext4-luks2-unallocated-debian12.json',
  'assessments/virtio-system-disk-whole-ext4-debian12.json',
] as const;

const linuxArbitrary = fc.record({
  fixture: fc.constantFrom(...LINUX_FIXTURES),
  deviceSupportsTrim: fc.constantFrom(true, false, null),
  // The disk queue's discard_max_bytes: 0 (the kernel sends no discards), a loop device's, or unread.
  kernelDiscardMaxBytes: fc.constantFrom(0, 4_294_966_784, null),
  status: fc.constantFrom(
    'supported' as const,
    'not-supported' as const,
    'blocked-by-bridge' as const,
    'blocked-by-kernel' as const,
    'unknown' as const,
  ),
  targetTool: fc.constantFrom('luks2' as const, 'veracrypt' as const),
  workload: fc.constantFrom('desktop' as const, 'server' as const, 'write-heavy' as const),
  discards: fc.constantFrom('auto' as const, 'never' as const),
  encryptedBoot: fc.boolean(),
});

/**
 * The answer's headline says what the strategy does (issue 24 item 5: one answer): a reinstall, a replacement or
 * an already-encrypted disk is never answered with "encrypt", and an encrypting strategy is never answered with
 * another strategy's name.
 */
function headlineContradiction(kind: string | undefined, headline: string): string | null {
  const saysEncrypt = /^(?:Go ahead: )?Encrypt\b/.test(headline);
  if (kind === 'reinstall' && !headline.startsWith('Reinstall encrypted')) {
    return `strategy reinstall, answer "${headline}"`;
  }
  if ((kind === 'nothing-to-do' || kind === 'replace-first') && saysEncrypt) {
    return `strategy ${kind}, answer "${headline}"`;
  }
  if ((kind === 'in-place' || kind === 'fresh-format') && headline.startsWith('Reinstall')) {
    return `strategy ${kind}, answer "${headline}"`;
  }
  return null;
}

/** The text and HTML of one assessment document, with the command script (destructive lines included). */
function rendered(document: { result: unknown }) {
  const view = toReportView(document as Parameters<typeof toReportView>[0], { includeDestructive: true });
  return {
    view,
    text: renderTextReport(view, { verbose: true, width: null }),
    html: renderHtmlReport(view, renderChart),
    script: renderCommandsScript(view),
  };
}

/** Every value `flag` takes in the plan's commands (`--flag VALUE` or `--flag=VALUE`). */
function flagValues(argvs: readonly (readonly string[])[], flag: string): string[] {
  return argvs.flatMap((argv) =>
    argv.flatMap((arg, index) =>
      arg === flag ? [argv[index + 1] ?? ''] : arg.startsWith(`${flag}=`) ? [arg.slice(flag.length + 1)] : [],
    ),
  );
}

describe('rendered reports tell what the facts and commands say (issue 24 item 5)', () => {
  it('never prints unknown TRIM as yes or no, and shows the memory, PIM and spare method the commands apply (Linux)', () => {
    fc.assert(
      fc.property(linuxArbitrary, (shape) => {
        const document = JSON.parse(fixture(shape.fixture)) as {
          result: PlanFacts & { plan: unknown; trim: Record<string, unknown> };
        };
        document.result.trim = {
          ...document.result.trim,
          status: shape.status,
          deviceSupportsTrim: shape.deviceSupportsTrim,
          kernelDiscardMaxBytes: shape.kernelDiscardMaxBytes,
        };
        const plan = buildPlan(document.result, {
          targetTool: shape.targetTool,
          workload: shape.workload,
          ...(shape.discards === 'never' ? { discards: 'never' as const } : {}),
          encryptedBoot: shape.encryptedBoot,
        });
        document.result.plan = plan;
        const { view, text, html, script } = rendered(document);
        const both = `${text}\n${html}`;
        // The answer follows the strategy.
        expect(headlineContradiction(plan.strategy?.kind, view.answer?.headline ?? '')).toBeNull();
        // The TRIM badge: green "supported" only when the drive itself says so.
        if (shape.deviceSupportsTrim !== true) {
          expect(text).not.toMatch(/TRIM and discards: supported/);
        }
        // The drive's own answer row: unknown stays unknown, in the text and in the HTML.
        if (shape.deviceSupportsTrim === null) {
          expect(both).not.toMatch(/Drive supports TRIM(?:<\/[a-z]+>|\s|:|<[a-z]+[^>]*>)*(?:yes|no)\b/);
        }
        // Whether TRIM reaches the drive: yes, no or unknown exactly as the plan knows it.
        const trim = plan.settings.space?.trim;
        if (plan.settings.allowDiscards && trim !== undefined) {
          const said = trim.reachesDrive === null ? 'unknown' : trim.reachesDrive ? 'yes' : 'no';
          expect(both).toContain(`reaches the drive: ${said}`);
          for (const other of ['yes', 'no', 'unknown'].filter((word) => word !== said)) {
            expect(both).not.toContain(`reaches the drive: ${other}`);
          }
          if (shape.deviceSupportsTrim !== true) {
            expect(trim.reachesDrive).not.toBe(true);
          }
        }
        const argvs = plan.commands.map((command) => command.argv);
        // The Argon2 memory shown is the memory every luksFormat line applies.
        const pbkdf = plan.settings.luks2Pbkdf;
        if (pbkdf?.kdf === 'pbkdf2') {
          // GRUB's PBKDF2 keyslot: the report says why, and no command passes Argon2 figures.
          expect(both).toContain('PBKDF2-sha256 (GRUB opens LUKS2 only through a PBKDF2 keyslot)');
          expect(flagValues(argvs, '--pbkdf-memory')).toEqual([]);
          for (const value of flagValues(argvs, '--pbkdf')) {
            expect(value).toBe('pbkdf2');
          }
        } else if (pbkdf !== null) {
          expect(both).toContain(`${formatBytes(pbkdf.memoryKiB * 1024)} memory`);
          for (const value of flagValues(argvs, '--pbkdf-memory')) {
            expect(Number(value)).toBe(pbkdf.memoryKiB);
          }
        }
        // The PIM shown is the PIM every VeraCrypt line applies.
        const veracrypt = plan.settings.veracrypt;
        if (veracrypt !== null) {
          expect(both).toContain(`PIM ${String(veracrypt.pim)}`);
          for (const value of flagValues(argvs, '--pim')) {
            expect(Number(value)).toBe(veracrypt.pim);
          }
        }
        // The spare-area method matches its commands: a tail discard only for discarded-tail, an HPA only
        // for hpa, a namespace only for nvme-namespace.
        const method = plan.settings.space?.method ?? 'none';
        if (/blkdiscard[^\n]*--offset/.test(script)) {
          expect(method).toBe('discarded-tail');
          // blkdiscard goes to the disk itself: only where the kernel is known to send it discards (a refused
          // discard would stop the script under set -eu), and never to a drive known not to TRIM.
          expect(shape.kernelDiscardMaxBytes ?? 0).toBeGreaterThan(0);
          expect(shape.deviceSupportsTrim).not.toBe(false);
        }
        if (/hdparm[^\n]* -N /.test(script)) {
          expect(method).toBe('hpa');
        }
        if (/nvme[^\n]* create-ns/.test(script)) {
          expect(method).toBe('nvme-namespace');
        }
        // Space is "left unpartitioned" only where a command lays out the partitions; in place the
        // partition table stays as it is (a 2 GiB loop disk in place said "222.0 MiB (10.8 %) left").
        if (!plan.commands.some((command) => command.id === 'partition-layout')) {
          expect(text).not.toMatch(/\) left unpartitioned/);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('answers the /dev/vda system disk with its strategy, not with "encrypt"', () => {
    const document = JSON.parse(fixture('assessments/virtio-system-disk-whole-ext4-debian12.json')) as {
      result: PlanFacts & { plan: unknown };
    };
    const plan = buildPlan(document.result, {});
    document.result.plan = plan;
    const { view, text } = rendered(document);
    expect(plan.strategy?.kind).toBe('reinstall');
    expect(view.answer?.headline).toMatch(/^Reinstall encrypted\b.*: back up \/dev\/vda/);
    expect(headlineContradiction(plan.strategy?.kind, view.answer?.headline ?? '')).toBeNull();
    expect(text).not.toMatch(/Encrypt \/dev\/vda with LUKS2/);
  });

  it('shows the PIM the VeraCrypt command applies on Windows and macOS', async () => {
    const clock = { now: () => new Date('2026-11-26T00:00:00Z') };
    const documents = await Promise.all(
      [
        'windows-de-win10-bitlocker-3pct-protection-off',
        'windows-win11-bc901-bitlocker-xtsaes128',
        'darwin-intel-catalina-filevault-disk1s5',
      ].map(async (name) =>
        assessBundle(parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`))), clock),
      ),
    );
    let planned = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...documents),
        fc.option(fc.integer({ min: 100_000, max: 3_000_000 }), { nil: null }),
        (envelope, sha512) => {
          const result = structuredClone(envelope.result) as PlanFacts & { plan: unknown };
          if (sha512 !== null) {
            (result as { cipherBenchmark: unknown }).cipherBenchmark = {
              cpuHasAes: null,
              kernelCrypto: null,
              findings: [],
              cipherSpeed: { measurements: [], unmeasured: [], kernelCipherBenchmarkAvailable: null },
              kdfSpeed: {
                pbkdf2: [{ hash: 'sha512', iterationsPerSecond: sha512, derivedKeyBits: 256 }],
                argon2: [],
                unmeasured: [],
              },
            };
          }
          const plan = buildPlan(result, { targetTool: 'veracrypt' });
          result.plan = plan;
          const { text, html, script } = rendered({ ...envelope, result });
          const veracrypt = plan.settings.veracrypt;
          if (veracrypt === null) {
            return;
          }
          planned += 1;
          expect(`${text}\n${html}`).toContain(`PIM ${String(veracrypt.pim)}`);
          const pims = [...script.matchAll(/(?:--pim[= ]|\/pim )(\d+)/g)].map((match) => Number(match[1]));
          for (const pim of pims) {
            expect(pim).toBe(veracrypt.pim);
          }
          if (plan.commands.some((command) => command.argv.some((arg) => /veracrypt/i.test(arg)))) {
            expect(pims.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 30 },
    );
    // The check above ran on real VeraCrypt plans, not only on documents that plan none.
    expect(planned).toBeGreaterThan(0);
  });
});
