import { describe, expect, it } from 'vitest';
import { parseBundle, type Bundle } from '../../src/capture/bundle.js';
import { assessmentDocument } from '../../src/contract/assessment.js';
import { toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

/**
 * What a macOS or Windows report says about what it did not measure: an encryption no tool read is unknown
 * (never "none found"), a cipher speed the platform does not measure says so (even with --benchmark), and an
 * I/O benchmark that could not run says --benchmark ran.
 * Every case replays a committed bundle of real captures; where a test changes one, the change is named.
 */

const clock = { now: () => new Date('2026-11-26T00:00:00Z') };

function bundleOf(name: string): Bundle {
  return parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`)));
}

async function viewOf(bundle: Bundle) {
  const envelope = await assessBundle(bundle, clock);
  return { envelope, view: toReportView(envelope) };
}

function section(view: Awaited<ReturnType<typeof viewOf>>['view'], id: string) {
  const found = view.sections.find((candidate) => candidate.id === id);
  expect(found, `section ${id}`).toBeDefined();
  return found;
}

/** The bundle with the stdout of its `tool` command replaced (or a command added when it has none). */
function withCommand(bundle: Bundle, tool: string, argv: readonly string[], stdout: string): Bundle {
  const others = bundle.captures.filter((capture) => !(capture.kind === 'command' && capture.tool === tool));
  return {
    ...bundle,
    captures: [
      ...others,
      {
        kind: 'command',
        tool,
        argv: [...argv],
        stdinBytes: 0,
        output: { exitCode: 0, stdout, stderr: '', durationMs: 0 },
        error: null,
      } as Bundle['captures'][number],
    ],
  };
}

describe('a Windows report never reads a missing BitLocker answer as "no encryption"', () => {
  it('DiskSpd benchmark bundle (manage-bde absent, no BitLocker array): encryption unknown, ciphers say --benchmark ran', async () => {
    const { envelope, view } = await viewOf(bundleOf('windows-diskspd-benchmark-composed'));
    expect(envelope.result?.storage?.encryptionUnknown).toMatch(
      /^Neither Get-BitLockerVolume nor manage-bde -status answered/,
    );
    expect(section(view, 'encryption')).toMatchObject({
      tone: 'unknown',
      verdict: 'unknown',
      missingReason: expect.stringMatching(/whether BitLocker protects a volume of this disk is unknown/),
    });
    // The encrypted BitLocker run was measured: the badge says so, with its cost, and where the plan's speed
    // comes from, never "not measured" beside it (issue 24).
    const ciphers = section(view, 'ciphers');
    expect(ciphers).toMatchObject({
      tone: 'info',
      verdict: 'encrypted run measured (SEQ1M Q8T1 read −4.4 %)',
      missingReason: null,
    });
    expect(ciphers?.summary).toContain(
      'the BitLocker run of SEQ1M Q8T1 read reached 94.1 MiB/s against 98.4 MiB/s plain (−4.4 %)',
    );
    expect(ciphers?.summary).toContain('cipher evidence rank 1 of 4');
    // The Linux capability checks do not apply here: no section that would say "all present" of nothing.
    expect(view.sections.some((candidate) => candidate.id === 'capabilities')).toBe(false);
    const text = renderTextReport(view, { verbose: true });
    expect(text).toContain('Existing encryption: unknown (unknown)');
    expect(text).not.toContain('none found');
    expect(text).not.toContain('ran without --benchmark');
    expect(text).not.toContain('all present');
    expect(text).toContain('Cipher speed: encrypted run measured (SEQ1M Q8T1 read −4.4 %)');
    expect(text).not.toContain('Cipher speed: not measured');
  });

  it('macOS APFS disk-image run: the cipher badge names the measured encrypted run, not "not measured"', async () => {
    const { view } = await viewOf(bundleOf('darwin-fio-apfs-image-benchmark-composed'));
    const ciphers = section(view, 'ciphers');
    expect(ciphers).toMatchObject({ tone: 'info', missingReason: null });
    expect(ciphers?.verdict).toMatch(/^encrypted run measured \(SEQ1M Q8T1 read −\d+\.\d %\)$/);
    expect(ciphers?.summary).toContain('against 60.5 MiB/s plain');
    expect(renderTextReport(view, {})).not.toContain('Cipher speed: not measured');
  });

  it('GitHub runner (its own script: no BitLocker array, manage-bde not captured): unknown', async () => {
    const { view } = await viewOf(bundleOf('windows-github-runner-virtual-disks'));
    expect(section(view, 'encryption')?.verdict).toBe('unknown');
    // Run without --benchmark: the cipher reason says the platform does not measure it, not "ran with".
    expect(section(view, 'ciphers')?.missingReason).toMatch(
      /runs on Linux only, with or without --benchmark\.$/,
    );
  });

  it('PowerShell not elevated (the runner capture with Administrator false): the reason names the administrator', async () => {
    const bundle = bundleOf('windows-github-runner-virtual-disks');
    const capture = bundle.captures.find((entry) => entry.kind === 'command' && entry.tool === 'powershell');
    if (capture?.kind !== 'command' || capture.output === null) {
      throw new Error('the runner bundle has no PowerShell output');
    }
    const stdout = capture.output.stdout.replace('"Administrator":  true', '"Administrator":  false');
    expect(stdout).not.toBe(capture.output.stdout);
    const { view } = await viewOf(withCommand(bundle, 'powershell', capture.argv, stdout));
    expect(section(view, 'encryption')?.missingReason).toMatch(/did not run as an administrator/);
  });

  it('manage-bde answered (a real Windows 11 output, lists only C:) for the runner disk 1 (D:): none found', async () => {
    const bundle = { ...bundleOf('windows-github-runner-virtual-disks'), device: '1' };
    const { envelope, view } = await viewOf(
      withCommand(
        bundle,
        'manage-bde',
        ['-status'],
        fixture('manage-bde/status-all-win11-xtsaes128-tpm/stdout.txt'),
      ),
    );
    expect(envelope.result?.storage?.encryptionUnknown).toBeNull();
    expect(section(view, 'encryption')).toMatchObject({ verdict: 'none found', missingReason: null });
  });

  it('manage-bde found BitLocker: found, with no unknown reason', async () => {
    const { envelope, view } = await viewOf(bundleOf('windows-win11-bc901-bitlocker-xtsaes128'));
    expect(envelope.result?.storage?.encryptionUnknown).toBeNull();
    expect(section(view, 'encryption')).toMatchObject({ verdict: 'found', tone: 'info' });
  });

  it('a disk with no drive letter, --benchmark given: the I/O section says it ran and why nothing was measured', async () => {
    const bundle = {
      ...bundleOf('windows-github-runner-virtual-disks'),
      device: '2',
      benchmark: { quick: true },
    };
    const { view } = await viewOf(bundle);
    expect(view.benchmarkMissingReason).toMatch(
      /^The assessment ran with --benchmark, but plain versus encrypted I\/O was not measured: No volume of this disk has a drive letter/,
    );
  });
});

describe('a macOS report never reads a missing FileVault answer as "no encryption"', () => {
  it('Apple-silicon bundle (system_profiler only: no diskutil, no fdesetup): encryption unknown', async () => {
    const { envelope, view } = await viewOf(bundleOf('darwin-apple-silicon-ap0256z-system-profiler'));
    expect(envelope.result?.storage?.encryptionUnknown).toMatch(/fdesetup status did not answer/);
    expect(section(view, 'encryption')).toMatchObject({ verdict: 'unknown', tone: 'unknown' });
    expect(section(view, 'ciphers')?.summary).toBe(
      "Cipher speed is not measured on macOS: encplan's cipher benchmark runs on Linux.",
    );
    expect(renderTextReport(view, { verbose: true })).not.toContain('none found');
  });

  it('Intel Catalina (diskutil info with FileVault keys): found, read', async () => {
    const { envelope, view } = await viewOf(bundleOf('darwin-intel-catalina-filevault-disk1s5'));
    expect(envelope.result?.storage?.encryptionUnknown).toBeNull();
    expect(section(view, 'encryption')?.verdict).toBe('found');
  });

  it('an assessment saved before encryptionUnknown: an empty list without fdesetup stays unknown', () => {
    // A real assessment 1.3 document (fixtures/assessments/PROVENANCE.md), with the field 1.3 added removed.
    const saved = JSON.parse(
      fixture('assessments-1.3/darwin-apple-silicon-ap0256z-system-profiler-assessment-1.3.json'),
    ) as { result: { platformStorage: Record<string, unknown>; storage?: unknown } };
    delete saved.result.platformStorage.encryptionUnknown;
    delete saved.result.storage;
    const view = toReportView(assessmentDocument.envelope.parse(saved));
    expect(section(view, 'encryption')).toMatchObject({
      verdict: 'unknown',
      missingReason: "No diskutil or fdesetup reading of this disk's volumes is in the assessment.",
    });
  });
});
