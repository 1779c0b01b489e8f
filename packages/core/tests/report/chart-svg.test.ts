import { describe, expect, it } from 'vitest';
import { chartScale, formatChartValue } from '../../src/report/chart-svg.js';
import type { ChartView } from '../../src/report/report-charts.js';
import { loadChartRenderer } from '../../src/node/chart-renderer.js';

const renderChart = await loadChartRenderer();

/** Plain vs encrypted as a fast NVMe drive measures it: 3076 MiB/s sequential, 1.7 MiB/s random 4K at QD1. */
const throughput: ChartView = {
  id: 'predicted',
  title: 'Plain vs encrypted',
  unit: 'MiB/s',
  max: null,
  series: ['plain (measured)', 'encrypted (predicted)'],
  groups: [
    {
      label: 'SEQ1M Q8T1 read',
      bars: [
        { series: 'plain (measured)', value: 3076 },
        { series: 'encrypted (predicted)', value: 2900 },
      ],
    },
    {
      label: 'RND4K Q1T1 read',
      bars: [
        { series: 'plain (measured)', value: 1.7 },
        { series: 'encrypted (predicted)', value: null },
      ],
    },
  ],
};

/** The texts of an SVG's <text> elements (what a reader sees), tags stripped. */
const texts = (svg: string): string[] =>
  [...svg.matchAll(/<text[^>]*>([^<]*)/g)].map((match) => match[1] ?? '');

describe('renderChartSvg (Observable Plot)', () => {
  it('chooses a log scale when the values span more than a decade, with a tick per decade', () => {
    expect(chartScale(throughput)).toBe('log');
    const svg = renderChart(throughput);
    expect(texts(svg)).toContain('MiB/s, logarithmic scale');
    // 1.7 … 3076 MiB/s: the axis runs from 1 to 10,000, one labelled tick per power of ten.
    for (const tick of ['1', '10', '100', '1,000', '10,000']) {
      expect(texts(svg)).toContain(tick);
    }
    expect(svg).toContain('on a logarithmic scale');
  });

  it('stays linear within a decade and for percentages of a fixed maximum', () => {
    const close: ChartView = {
      ...throughput,
      groups: throughput.groups.map((group) => ({
        ...group,
        bars: group.bars.map((bar) => ({ ...bar, value: bar.value === null ? null : 400 + bar.value / 10 })),
      })),
    };
    expect(chartScale(close)).toBe('linear');
    expect(texts(renderChart(close))).toContain('MiB/s');
    const wear: ChartView = {
      id: 'wear',
      title: 'Wear',
      unit: '%',
      max: 100,
      series: ['percent'],
      groups: [
        { label: 'Endurance used', bars: [{ series: 'percent', value: 1 }] },
        { label: 'Spare blocks left', bars: [{ series: 'percent', value: 100 }] },
      ],
    };
    expect(chartScale(wear)).toBe('linear');
    expect(texts(renderChart(wear))).toEqual(expect.arrayContaining(['0', '100', '1 %', '100 %']));
  });

  it('writes MiB/s and CrystalDiskMark’s decimal MB/s: a second axis and every value in both', () => {
    const svg = renderChart(throughput);
    expect(texts(svg)).toContain('MB/s (decimal, as CrystalDiskMark shows)');
    // 3076 MiB/s × 1.048576 = 3225.4 MB/s.
    expect(texts(svg)).toContain('3,076 MiB/s · 3,225 MB/s');
    expect(texts(svg)).toContain('1.7 MiB/s · 1.8 MB/s');
    expect(formatChartValue(1000, 'MiB/s')).toBe('1,000 MiB/s · 1,049 MB/s');
    // Other units have one axis.
    expect(formatChartValue(3558, 'thousand iterations/s')).toBe('3,558');
  });

  it('shows an unknown value as unknown: no bar, no 0, no NaN', () => {
    const svg = renderChart(throughput);
    expect(svg).not.toMatch(/NaN|undefined|Infinity/);
    // Three known values, three bars; the fourth reads "unknown".
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(texts(svg)).toContain('unknown');
    expect(svg).toContain('encrypted (predicted) unknown');
    const notANumber = renderChart({
      ...throughput,
      groups: [{ label: 'x', bars: [{ series: 'plain (measured)', value: Number.NaN }] }],
    });
    expect(notANumber).not.toMatch(/NaN/);
    expect(texts(notANumber)).toContain('unknown');
  });

  it('is accessible and themeable: title and description first, classes per series, no style', () => {
    const svg = renderChart(throughput);
    expect(svg).toMatch(
      /^<svg [^>]*role="img"[^>]*><title>Plain vs encrypted \(MiB\/s\)<\/title><desc>Horizontal bars in MiB\/s/,
    );
    expect(svg).toContain('aria-label="Plain vs encrypted, in MiB/s"');
    expect(svg).toContain('class="series-0"');
    expect(svg).toContain('class="series-1"');
    expect(svg).toContain('fill="currentColor"');
    // A strict style-src (the wizard's CSP) refuses <style> and style="": the page's stylesheet themes the chart.
    expect(svg).not.toMatch(/<style|style=/);
    // Each group's name on a line of its own, the series' names beside their bars.
    expect(texts(svg)).toEqual(expect.arrayContaining(['SEQ1M Q8T1 read', 'plain (measured)']));
  });

  it('colours bars by verdict where one is given, and counts get whole-number ticks', () => {
    const svg = renderChart({
      id: 'readiness',
      title: 'Disks by readiness',
      unit: 'disks',
      max: null,
      series: ['disks'],
      groups: [
        { label: 'Ready', bars: [{ series: 'disks', value: 2, tone: 'good' }] },
        { label: 'Must fix first', bars: [{ series: 'disks', value: 1, tone: 'bad' }] },
      ],
    });
    expect(svg).toContain('class="bar-good"');
    expect(svg).toContain('class="bar-bad"');
    expect(texts(svg)).toEqual(expect.arrayContaining(['0', '1', '2']));
    expect(texts(svg).some((text) => /^\d+\.\d$/.test(text))).toBe(false);
  });
});
