import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCommandsScript, toReportView } from '@encplan/core';
import { formatByFieldName } from '../../src/report/format-units.js';
import { quoteShellArgument } from '../../src/report/report-view.js';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';

/** Real `encplan assess --json` outputs (fixtures/assessments/PROVENANCE.md). */
const FIXTURES = path.join(REPO_ROOT, 'fixtures/assessments');
/** One PROVISIONAL hand-written envelope with the health, benchmark and plan sections assess lacks yet. */
const PROVISIONAL = path.join(REPO_ROOT, 'packages/desktop/tests/fixtures/assessments-provisional');
const load = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(name.endsWith('-provisional') ? PROVISIONAL : FIXTURES, `${name}.json`), 'utf8'));

describe('toReportView', () => {
  it('turns the provisional complete assessment into health facts, charts, recommendations and commands', () => {
    const view = toReportView(load('nvme-healthy-provisional'));
    expect(view.status).toBe('ok');
    expect(view.device).toMatchObject({ path: '/dev/nvme0n1', model: 'Samsung SSD 980 1TB', size: '1.00 TB (931.5 GiB)', kind: 'solid-state', isSystemDisk: true });
    const health = view.sections.find((section) => section.id === 'health')!;
    expect(health).toMatchObject({ tone: 'good', verdict: 'healthy', missingReason: null });
    expect(health.facts).toContainEqual({ label: 'Percentage used', value: '3 %', source: 'smartctl: nvme_smart_health_information_log.percentage_used' });
    expect(health.facts).toContainEqual({ label: 'Temperature', value: '38 °C', source: 'smartctl: temperature.current' });
    expect(view.sections.find((section) => section.id === 'space')!.tone).toBe('attention');
    expect(view.sections.find((section) => section.id === 'ciphers')!.facts[0]).toEqual({
      label: 'aes-xts (512-bit key)',
      value: 'encrypt 4210 MiB/s, decrypt 4180 MiB/s',
      source: 'cryptsetup benchmark',
    });
    expect(view.charts).toHaveLength(1);
    expect(view.charts[0]!.series).toEqual(['plain', 'luks2-aes-xts-512', 'predicted encrypted']);
    expect(view.charts[0]!.groups[0]).toEqual({
      label: 'SEQ1M Q8T1 read',
      bars: [
        { series: 'plain', valueMebibytesPerSecond: 3410 },
        { series: 'luks2-aes-xts-512', valueMebibytesPerSecond: 2650 },
        { series: 'predicted encrypted', valueMebibytesPerSecond: 2782 },
      ],
    });
    expect(view.recommendations.map((item) => item.ruleId)).toEqual(['hardware-aes-available', 'sector-size-4096', 'leave-spare-area']);
    expect(view.recommendations[0]!.evidence[0]).toEqual({ label: 'Encrypt', value: '4210 MiB/s', source: 'cryptsetup: benchmark aes-xts 512b' });
    expect(view.commands[0]).toMatchObject({ destructive: true, line: 'cryptsetup luksFormat --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096 --pbkdf argon2id -- /dev/nvme0n1p2' });
  });

  it('reads a real assessment of a loop disk: partitions, existing LUKS2, never-allocated space, discards, SMART unavailable', () => {
    const view = toReportView(load('loop-gpt-ext4-luks2-unallocated-debian12'));
    expect(view.status).toBe('partial');
    expect(view.device).toMatchObject({ path: '/dev/loop2', model: 'Loop device', size: '1.07 GB (1.0 GiB)', transport: 'loop', kind: 'loop device', isSystemDisk: false });
    const section = (id: string) => view.sections.find((entry) => entry.id === id)!;
    expect(section('encryption')).toMatchObject({ tone: 'info', verdict: 'found', summary: 'This disk already holds 1 encrypted volume.' });
    expect(section('encryption').findings[0]).toEqual({ tone: 'info', message: 'LUKS2 on /dev/loop2p2 (aes-xts-plain64, 512-bit key).', source: 'cryptsetup luksDump --dump-json-metadata' });
    expect(section('space').summary).toBe('338.67 MB (31.5 %) of the disk is in no partition: space the drive can use as spare area once it has been trimmed.');
    expect(section('space').findings.map((finding) => finding.message)).toContainEqual(expect.stringMatching(/^Discard the unallocated region once/));
    expect(section('trim')).toMatchObject({ tone: 'good', verdict: 'supported', summary: 'The kernel sends discards to loop2 (discard_max_bytes 4294966784).' });
    expect(section('trim').findings.map((finding) => finding.message)).toEqual(['Discards from /dev/loop2p1 reach the drive.', 'Discards from /dev/loop2p2 reach the drive.']);
    expect(section('health')).toMatchObject({ tone: 'unknown', verdict: 'unknown', missingReason: null });
    expect(section('health').findings[0]).toMatchObject({ tone: 'unknown', message: '/dev/loop2: Unable to detect device type' });
    expect(section('cpu')).toMatchObject({ tone: 'good', verdict: 'aes-instructions' });
    expect(section('cpu').facts).toContainEqual({ label: 'CPU instruction aes', value: 'yes', source: '/proc/cpuinfo (systeminformation cross-checked)' });
    // No --benchmark: the kernel AES finding still reaches the cipher section.
    expect(section('ciphers')).toMatchObject({ tone: 'attention', verdict: 'kernel-aes-unaccelerated', facts: [] });
    expect(section('capabilities').findings.map((finding) => finding.message)).toContainEqual(expect.stringMatching(/^device-mapper: cryptsetup open fails/));
    expect(view.benchmarkMissingReason).toBe('No I/O benchmark was run in this assessment.');
    // assess now leads with the plan, so the view has one.
    expect(view.planMissingReason).toBeNull();
  });

  it('reads the real system-disk assessment: measured cipher speeds, and no discard advice for a whole-disk filesystem', () => {
    const view = toReportView(load('virtio-system-disk-whole-ext4-debian12'));
    expect(view.status).toBe('partial');
    expect(view.device).toMatchObject({ path: '/dev/vda', model: 'Virtual disk', kind: 'disk of unknown media', isSystemDisk: true });
    const section = (id: string) => view.sections.find((entry) => entry.id === id)!;
    // The disk is the root filesystem: "unallocated" advice (blkdiscard) would erase it and is never shown.
    expect(section('space')).toEqual({
      id: 'space',
      title: 'Space and spare area',
      tone: 'info',
      verdict: 'used-whole',
      summary: 'The disk has no partition table and is used whole (mounted at /): there is no unpartitioned spare area.',
      findings: [],
      facts: [],
      missingReason: null,
      replacesSectionDetails: true,
    });
    expect(section('ciphers').facts.map((fact) => fact.label)).toEqual(['Cpu has aes', 'aes-xts (256-bit key)', 'aes-xts (512-bit key)', 'chacha20 (256-bit key)']);
    expect(section('ciphers').findings.filter((finding) => finding.message.startsWith('The kernel would encrypt'))).toHaveLength(1);
    // blkid and sfdisk both refuse the raw device; LUKS2 cannot be measured without device-mapper.
    expect(view.warnings.map((warning) => warning.code)).toEqual(['TOOL_FAILED', 'TOOL_FAILED', 'SMART_UNAVAILABLE', 'KERNEL_FEATURE_MISSING', 'KERNEL_FEATURE_MISSING']);
  });

  it('gives the real error envelope a view with the error and no device', () => {
    const view = toReportView(load('error-device-not-found'));
    expect(view.error).toMatchObject({ code: 'DEVICE_NOT_FOUND', message: '/dev/does-not-exist does not exist.' });
    expect(view.device).toBeNull();
    expect(view.sections.every((entry) => entry.tone === 'unknown')).toBe(true);
  });

  it('shows the real health and cipher sections encplan computes (encplan health, encplan benchmark ciphers)', () => {
    const read = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, file), 'utf8')) as { result: unknown };
    const assessment = load('loop-gpt-ext4-luks2-unallocated-debian12') as { result: Record<string, unknown> };
    const view = toReportView({
      ...assessment,
      result: {
        ...assessment.result,
        health: read('fixtures/encplan-health/nvme-worn75pct-intel-dc-p4500/stdout.json').result,
        cipherBenchmark: read('fixtures/encplan-benchmark-ciphers/virtio-vm-generic-aes-debian12/stdout.json').result,
      },
    });
    const health = view.sections.find((entry) => entry.id === 'health')!;
    expect(health).toMatchObject({ tone: 'good', verdict: 'healthy', missingReason: null });
    expect(health.findings.length).toBeGreaterThanOrEqual(4);
    expect(health.findings.every((finding) => finding.source !== null)).toBe(true);
    expect(health.facts).toContainEqual({ label: 'Power on', value: '49,441 h', source: 'smartctl' });
    expect(health.facts).toContainEqual({ label: 'Percentage used', value: '75 %', source: 'smartctl' });
    expect(health.facts).toContainEqual({ label: 'Available spare percent', value: '99 %', source: 'smartctl' });
    expect(health.facts).toContainEqual({ label: 'Data written', value: '2.57 PB (2335.1 TiB)', source: 'smartctl' });
    const ciphers = view.sections.find((entry) => entry.id === 'ciphers')!;
    expect(ciphers).toMatchObject({ tone: 'attention', verdict: 'kernel-aes-unaccelerated' });
    expect(ciphers.findings[0]!.message).toMatch(/^The kernel would encrypt disks with xts\(ecb\(aes-fixed-time\)\).*modprobe aesni_intel/);
    expect(ciphers.facts.map((fact) => fact.label)).toContain('aes-xts (512-bit key)');
  });

  it('charts a real encplan benchmark io result: plain vs fscrypt per profile, the skipped LUKS2 listed', () => {
    const io = JSON.parse(readFileSync(path.join(REPO_ROOT, 'fixtures/encplan-benchmark-io/tmpdir-virtio-fscrypt-generic-aes-debian12/stdout.json'), 'utf8')) as { result: unknown };
    const assessment = load('loop-gpt-ext4-luks2-unallocated-debian12') as { result: Record<string, unknown> };
    const view = toReportView({ ...assessment, result: { ...assessment.result, ioBenchmark: io.result } });
    expect(view.benchmarkMissingReason).toBeNull();
    expect(view.charts).toHaveLength(1);
    expect(view.charts[0]!.series).toEqual(['plain', 'fscrypt']);
    expect(view.charts[0]!.groups).toHaveLength(8);
    expect(view.charts[0]!.groups[0]!.label).toBe('SEQ1M Q8T1 read');
    const [plain, fscrypt] = view.charts[0]!.groups[0]!.bars;
    expect(plain!.valueMebibytesPerSecond).toBeGreaterThan(10 * fscrypt!.valueMebibytesPerSecond!);
    expect(view.benchmarkRows[0]!.source).toMatch(/^fio \(\w+(, O_DIRECT)?; median of \d+ runs, spread \d+ %\)$/);
    expect(view.benchmarkRows.at(-1)).toMatchObject({ profile: 'all profiles', measured: 'not measured', source: expect.stringMatching(/^skipped: /) });
  });

  it('reads every fixture envelope without throwing', () => {
    const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      expect(() => toReportView(JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')))).not.toThrow();
    }
  });

  it('never throws on arbitrary JSON, whatever shape the result has', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (result, warnings) => {
        const view = toReportView({ status: 'ok', result, warnings, error: null });
        expect(view.sections).toHaveLength(7);
      }),
      { numRuns: 300 },
    );
  });
});

describe('formatByFieldName', () => {
  it.each([
    ['sizeBytes', 1_000_204_886_016, '1.00 TB (931.5 GiB)'],
    ['bytesPerSecond', 3_575_644_160, '3410 MiB/s'],
    ['readBytesPerSecond', 52 * 1024 * 1024, '52.0 MiB/s'],
    ['durationMs', 30_012, '30 s'],
    ['temperatureCelsius', 38, '38 °C'],
    ['powerOnHours', 31_211, '31,211 h'],
    ['cores', 8, '8'],
  ])('formats %s = %d as %s', (field, value, expected) => {
    expect(formatByFieldName(field, value)).toBe(expected);
  });
});

describe('renderCommandsScript', () => {
  it('comments out destructive commands and quotes arguments for the shell', () => {
    const script = renderCommandsScript(toReportView(load('nvme-healthy-provisional')));
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toContain("# DESTROYS DATA; remove the leading '# ' only when you are sure:\n# cryptsetup luksFormat");
    expect(script).toContain('\ncryptsetup open --perf-no_read_workqueue --perf-no_write_workqueue --allow-discards -- /dev/nvme0n1p2 cryptroot\n');
    expect(quoteShellArgument("it's $(rm -rf /)")).toBe(`'it'"'"'s $(rm -rf /)'`);
  });
});
