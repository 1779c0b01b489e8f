import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderBarChartSvg, renderHtmlReport, toReportView } from '@encplan/core';
import { REPO_ROOT } from '../../../../tests/support/fake-tools.js';

const load = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, name.endsWith('-provisional') ? 'packages/desktop/tests/fixtures/assessments-provisional' : 'fixtures/assessments', `${name}.json`), 'utf8'));

describe('renderHtmlReport', () => {
  it('is self-contained: inline CSS and SVG, no script, no external resource', () => {
    const html = renderHtmlReport(toReportView(load('nvme-healthy-provisional')));
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).not.toMatch(/<script|<link|<img|src=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" role="img"');
    expect(html).toContain('Samsung SSD 980 1TB');
    expect(html).toContain('smartctl: nvme_smart_health_information_log.percentage_used');
  });

  it('reports a real assessment with its existing encryption and what could not be checked', () => {
    const html = renderHtmlReport(toReportView(load('virtio-system-disk-whole-ext4-debian12')));
    expect(html).toContain('TOOL_FAILED');
    expect(html).toContain('What could not be checked');
    expect(html).toContain('Discards from /dev/vda reach the drive.');
    expect(html).not.toContain('blkdiscard');
  });

  it('escapes every text from the assessment, so a hostile model name cannot inject markup', () => {
    const envelope = load('nvme-healthy-provisional') as { result: { device: { model: string } } };
    envelope.result.device.model = '<img src=x onerror=alert(1)>"&\'';
    const html = renderHtmlReport(toReportView(envelope));
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&amp;&#39;');
  });

  it('shows the error and its hint for an error envelope', () => {
    const html = renderHtmlReport(toReportView(load('error-device-not-found')));
    expect(html).toContain('DEVICE_NOT_FOUND');
    expect(html).toContain('/dev/does-not-exist does not exist.');
  });
});

describe('renderBarChartSvg', () => {
  it('draws one bar per measured value, scaled to the largest, and says "not measured" for gaps', () => {
    const svg = renderBarChartSvg({
      title: 'T',
      unit: 'MiB/s',
      series: ['plain', 'encrypted'],
      groups: [{ label: 'SEQ <1M>', bars: [{ series: 'plain', valueMebibytesPerSecond: 200 }, { series: 'encrypted', valueMebibytesPerSecond: null }] }],
    });
    expect(svg.match(/<rect [^>]*height="14"/g)).toHaveLength(1);
    expect(svg).toContain('width="420.0"');
    expect(svg).toContain('encrypted: not measured');
    expect(svg).toContain('SEQ &lt;1M&gt;');
    expect(svg).not.toContain('style');
  });
});
