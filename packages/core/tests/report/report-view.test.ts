import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatByFieldName, quoteShellArgument, renderCommandsScript, toReportView } from '@encplan/core';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';

/** PROVISIONAL hand-written envelopes (see their README) until `encplan assess` writes real ones. */
const FIXTURES = path.join(REPO_ROOT, 'packages/desktop/tests/fixtures/assessments');
const load = (name: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));

describe('toReportView', () => {
  it('turns a complete healthy assessment into sections, charts, recommendations and commands', () => {
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

  it('marks sections the assessment lacks as unknown, with the reason taken from the warnings', () => {
    const view = toReportView(load('loop-smart-unavailable-provisional'));
    expect(view.status).toBe('partial');
    const health = view.sections.find((section) => section.id === 'health')!;
    expect(health).toMatchObject({ tone: 'unknown', verdict: 'unknown', facts: [], missingReason: 'smartctl cannot read SMART data from a loop device (exit status bit 0).' });
    expect(view.sections.find((section) => section.id === 'ciphers')!.missingReason).toContain('no AF_ALG');
    expect(view.sections.find((section) => section.id === 'space')!.missingReason).toBe('Not measured in this assessment.');
    expect(view.planMissingReason).toBe('No plan in this assessment.');
    expect(view.device?.model).toBe('Unknown model');
  });

  it('gives an error envelope a view with the error and no device', () => {
    const view = toReportView(load('error-tool-missing-provisional'));
    expect(view.error).toEqual({ code: 'TOOL_NOT_FOUND', message: 'lsblk was not found on PATH.', hint: 'Install util-linux (apt-get install util-linux).' });
    expect(view.device).toBeNull();
    expect(view.sections.every((section) => section.tone === 'unknown')).toBe(true);
  });

  it('reads every fixture envelope without throwing', () => {
    for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.json'))) {
      expect(() => toReportView(JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')))).not.toThrow();
    }
  });

  it('never throws on arbitrary JSON, whatever shape the result has', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (result, warnings) => {
        const view = toReportView({ status: 'ok', result, warnings, error: null });
        expect(view.sections).toHaveLength(5);
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
