import { describe, expect, it } from 'vitest';
import { parseBundle } from '../../src/capture/bundle.js';
import { assessmentDocument } from '../../src/contract/assessment.js';
import { WINDOWS_COMMANDS } from '../../src/probes/windows/probe-windows-storage.js';
import { escapeControlCharacters } from '../../src/report/printable.js';
import { renderCommandsScript, toReportView } from '../../src/report/report-view.js';
import { renderTextReport } from '../../src/report/text-report.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-23T00:00:00Z') };

async function viewOf(name: string) {
  const bundle = parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`)));
  return toReportView(await assessBundle(bundle, clock));
}

describe('the report view of a macOS or Windows assessment (schema 1.2)', () => {
  it('Windows 11 with BitLocker: the platform sections first, no stack, PowerShell commands', async () => {
    const view = await viewOf('windows-win11-bc901-bitlocker-xtsaes128');
    expect(view.device).toMatchObject({ path: '\\\\.\\PhysicalDrive0', isSystemDisk: true });
    expect(view.stack).toEqual([]);
    expect(view.sections.map((section) => section.id)).toEqual([
      'health',
      'trim',
      'cpu',
      'encryption',
      'ciphers',
    ]);
    const encryption = view.sections.find((section) => section.id === 'encryption');
    expect(encryption?.verdict).toBe('found');
    expect(encryption?.findings[0]?.message).toBe(
      'BitLocker on C: "OS" (XTS-AES 128, used space only encrypted, 100 % encrypted, protection on, key protectors: TPM, Numerical Password).',
    );
    expect(view.commands.map((command) => [command.shell, command.line])).toEqual([
      ['powershell', 'manage-bde -status C:'],
      // Used Space Only Encrypted: the free space is wiped so data deleted before BitLocker is encrypted too.
      ['powershell', 'manage-bde -wipefreespace C:'],
    ]);
    const script = renderCommandsScript(view);
    expect(script.split('\n')[0]).toMatch(/^# encplan/);
    expect(script).toContain("$ErrorActionPreference = 'Stop'");
  });

  it('Apple-silicon Mac: drive facts from system_profiler, TRIM passing, health from the SMART status only', async () => {
    const view = await viewOf('darwin-apple-silicon-ap0256z-system-profiler');
    expect(view.device).toMatchObject({ path: 'disk0', model: 'APPLE SSD AP0256Z', kind: 'solid-state' });
    expect(view.device?.facts.map((fact) => fact.label)).toContain('Partition disk0s2');
    const trim = view.sections.find((section) => section.id === 'trim');
    expect(trim).toMatchObject({ tone: 'good', verdict: 'supported' });
    const health = view.sections.find((section) => section.id === 'health');
    expect(health?.findings[0]?.message).toMatch(/weaker source than smartctl/);
    const text = renderTextReport(view, { verbose: true });
    expect(text).toContain('Cost of encryption on this Mac: no measurable cost');
  });
});

/**
 * Assessment 1.3 documents carried the platform's facts in `platformStorage`; 1.4 documents carry them in the
 * storage model only. A saved 1.3 document (fixtures/assessments/PROVENANCE.md) must show what the 1.4 document
 * of the same bundle shows: every section, fact and finding, the device block and the commands.
 */
/**
 * The sections with the Windows storage script's text (quoted in a warning: the bundle holds no output of it) as
 * one placeholder: the script gained LockStatus after the 1.3 documents were saved; the facts did not change.
 */
function withScriptNamed<T>(sections: T): T {
  const scripts = [WINDOWS_COMMANDS.storage(), WINDOWS_COMMANDS.storageBeforeLockStatus()].map((spec) =>
    JSON.stringify(escapeControlCharacters(spec.args.join(' '))).slice(1, -1),
  );
  const text = scripts.reduce(
    (json, script) => json.split(script).join('<storage script>'),
    JSON.stringify(sections),
  );
  return JSON.parse(text) as T;
}

describe('an assessment 1.3 document (platformStorage) reads as the 1.4 one (storage model only)', () => {
  for (const name of [
    'windows-win11-bc901-bitlocker-xtsaes128',
    'darwin-intel-catalina-filevault-disk1s5',
    'darwin-apple-silicon-ap0256z-system-profiler',
  ]) {
    it(name, async () => {
      const saved = assessmentDocument.envelope.parse(
        JSON.parse(fixture(`assessments-1.3/${name}-assessment-1.3.json`)),
      );
      expect(saved.schemaVersion).toEqual([1, 3]);
      expect(saved.result?.platformStorage).toBeDefined();
      const fresh = await assessBundle(
        parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`))),
        clock,
      );
      expect(fresh.result).not.toHaveProperty('platformStorage');
      const [before, after] = [toReportView(saved), toReportView(fresh)];
      expect(after.device).toEqual(before.device);
      expect(withScriptNamed(after.sections)).toEqual(withScriptNamed(before.sections));
      expect(after.commands.map((command) => command.line)).toEqual(
        before.commands.map((command) => command.line),
      );
    });
  }
});

describe('Apple silicon without a sysctl capture', () => {
  it('is known from the iBoot System Container partition, and the report leaves out the Linux capability checks', async () => {
    const view = await viewOf('darwin-apple-silicon-ap0256z-system-profiler');
    const cpu = view.sections.find((section) => section.id === 'cpu');
    expect(cpu?.verdict).toBe('Apple silicon');
    expect(cpu?.facts.map((fact) => [fact.label, fact.value])).toEqual([
      ['AES instructions', 'yes'],
      ['Apple silicon', 'yes'],
    ]);
    expect(view.sections.map((section) => section.id)).not.toContain('capabilities');
  });

  it('stays unknown on a Mac whose partitions and sysctl say nothing (never read as "no")', async () => {
    const view = await viewOf('darwin-intel-catalina-filevault-disk1s5');
    const cpu = view.sections.find((section) => section.id === 'cpu');
    expect(cpu?.facts.find((fact) => fact.label === 'Apple silicon')?.value).toBe('unknown');
  });
});
