import { describe, expect, it } from 'vitest';
import { toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { renderHtmlReport } from '../../src/report/html-report.js';
import { mitigationsContext } from '../../src/report/mitigations.js';
import { parseCpuMitigations } from '../../src/parsers/cpu-vulnerabilities/cpu-vulnerabilities.js';
import { assessmentDocument, type AssessmentEnvelope } from '../../src/contract/assessment.js';
import type { Machine } from '../../src/domain/cpu.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';
import { fixture } from '../support/fixtures.js';
import { filesFromGrep } from '../support/cpu-vulnerabilities.js';

const renderChart = await loadChartRenderer();

/** A real assessment with cipher and I/O benchmarks (fixtures/assessments/PROVENANCE.md). */
const measured = assessmentDocument.envelope.parse(
  JSON.parse(fixture('assessments/virtio-system-disk-whole-ext4-debian12.json')),
);

function withMitigations(listing: string | null, commandLine: string | null): AssessmentEnvelope {
  const result = measured.result!;
  const machine: Machine = {
    ...result.machine!,
    mitigations: parseCpuMitigations(
      listing === null ? null : filesFromGrep(fixture(listing)),
      commandLine,
      'the directory is absent',
    ),
  };
  return { ...measured, result: { ...result, machine } };
}

const BROADWELL = 'cpu-vulnerabilities/published-broadwell-vm-linux-6.5.txt';
const THIS_HOST = 'cpu-vulnerabilities/this-host-intel-xeon-linux-6.18.txt';

describe('the mitigations in effect, as context of every measured cost', () => {
  it('names the mitigations on, the vulnerable and unknown ones, and the command line', () => {
    const line = mitigationsContext(withMitigations(BROADWELL, 'ro quiet').result!.machine);
    expect(line).toMatch(
      /^Measured with these CPU-vulnerability mitigations on: itlb_multihit \(VMX unsupported\); l1tf \(PTE Inversion\); meltdown \(PTI\);/,
    );
    expect(line).toContain('Vulnerable, not mitigated: mds (Clear CPU buffers attempted');
    expect(line).toContain('spec_store_bypass.');
    expect(line).toContain(
      'State unknown: mmio_stale_data (No mitigations); srbds (Dependent on hypervisor status)',
    );
    expect(line).toContain('4 of 13 not affected');
    expect(line).toContain('No mitigations= on the kernel command line (the default, auto)');
    expect(line).not.toContain('will not hold');
  });

  it('mitigations=off: figures measured here will not hold on a machine with mitigations on', () => {
    const line = mitigationsContext(withMitigations(THIS_HOST, 'quiet mitigations=off').result!.machine);
    expect(line).toContain('Kernel command line mitigations=off');
    expect(line).toContain('figures measured here will not hold on a machine with mitigations on');
  });

  it('unknown is said as unknown: files absent, or not read at all', () => {
    expect(mitigationsContext(withMitigations(null, null).result!.machine)).toBe(
      'CPU-vulnerability mitigations in effect while measuring: unknown (the directory is absent; kernel command line not read).',
    );
    expect(mitigationsContext(measured.result!.machine)).toBe(
      'CPU-vulnerability mitigations in effect while measuring: unknown (not read in this assessment).',
    );
  });

  it('the text (plain and --verbose) and HTML reports state it with the cipher speeds, the I/O benchmark and the processor', () => {
    const document = withMitigations(THIS_HOST, fixture('cpu-vulnerabilities/this-host-cmdline.txt'));
    const line = mitigationsContext(document.result!.machine);
    const view = toReportView(document);
    expect(view.sections.find((section) => section.id === 'ciphers')?.findings).toContainEqual(
      expect.objectContaining({ message: line, tone: 'info' }),
    );
    expect(view.sections.find((section) => section.id === 'cpu')?.facts).toContainEqual(
      expect.objectContaining({ label: 'CPU-vulnerability mitigations', value: line }),
    );
    expect(view.benchmarkNotes).toContain(line);
    expect(view.measuredWith).toBe(line);
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const verbose = flat(renderTextReport(view, { verbose: true, width: null }));
    expect(verbose).toContain('spectre_v2 (Enhanced / Automatic IBRS; IBPB: conditional;');
    expect(verbose).toContain('Kernel command line mitigations=auto,no_guest_host,no_guest_guest');
    expect(flat(renderTextReport(view, { width: null }))).toContain(
      'Measured with these CPU-vulnerability mitigations on:',
    );
    expect(renderHtmlReport(view, renderChart)).toContain(
      'Measured with these CPU-vulnerability mitigations on:',
    );
  });

  it('no measured cost, no context line with it', () => {
    const document = withMitigations(THIS_HOST, null);
    const result = { ...document.result!, cipherBenchmark: null, ioBenchmark: null };
    const view = toReportView({ ...document, result });
    expect(view.benchmarkNotes).toEqual([]);
    expect(view.measuredWith).toBeNull();
    expect(view.sections.find((section) => section.id === 'ciphers')?.findings).toEqual([]);
  });
});
