import { escapeHtml } from './escape-html.js';
import type { ChartView } from './report-view.js';

/**
 * Colours of the series, chosen for contrast against white (WCAG 2.1 non-text contrast ≥ 3:1, SC 1.4.11)
 * and to stay apart for the common colour-vision deficiencies (Okabe–Ito palette).
 */
const SERIES_COLOURS = ['#0b5fa5', '#b35900', '#6a3d9a', '#00735c', '#9e2a2b', '#4d4d4d'];

const ROW_HEIGHT = 18;
const GROUP_GAP = 14;
/** Room for the value after the longest bar. */
const VALUE_WIDTH = 60;
const PLOT_WIDTH = 420;
/**
 * Widths of 12 px sans-serif (DejaVu Sans, the widest common default): about 8.2 px for capitals and digits,
 * 6.8 px for the rest. Overestimating keeps labels whole; the labels are right-aligned against the bars.
 */
function labelPixels(text: string): number {
  return [...text].reduce((sum, character) => sum + (/[A-Z0-9]/u.test(character) ? 8.2 : 6.8), 0);
}

/** Keeps one decimal below 100 and none above, as the wizard's table does; percentages carry their sign. */
function formatValue(value: number, unit: string): string {
  const number = value >= 100 ? value.toFixed(0) : value.toFixed(1);
  return unit === '%' ? `${number} %` : number;
}

/**
 * Renders a grouped horizontal bar chart (one group per profile, one bar per series) as a self-contained
 * SVG string with a <title>, a legend and the value printed on each bar, so it reads without colour too.
 * Presentation attributes only (no <style>, no style=""), so a strict style-src CSP allows it inline; text is
 * `currentColor` and each bar has a `series-N` class, so the page's stylesheet can recolour it (dark mode).
 */
export function renderBarChartSvg(chart: ChartView): string {
  const max =
    chart.max ?? Math.max(1, ...chart.groups.flatMap((group) => group.bars.map((bar) => bar.value ?? 0)));
  const labelWidth = Math.ceil(16 + Math.max(55, ...chart.groups.map((group) => labelPixels(group.label))));
  const plotWidth = PLOT_WIDTH;
  const chartWidth = Math.max(labelWidth + PLOT_WIDTH + VALUE_WIDTH, labelWidth + 150 * chart.series.length);
  // One series needs no legend: the chart's title names it.
  const legendHeight = chart.series.length > 1 ? 24 : 0;
  const parts: string[] = [];
  let y = legendHeight + 4;
  for (const group of chart.groups) {
    const groupHeight = group.bars.length * ROW_HEIGHT;
    parts.push(
      `<text x="${String(labelWidth - 8)}" y="${String(y + groupHeight / 2 + 4)}" text-anchor="end" font-family="sans-serif" font-size="12" fill="currentColor">${escapeHtml(group.label)}</text>`,
    );
    group.bars.forEach((bar, index) => {
      const seriesIndex = chart.series.indexOf(bar.series) % SERIES_COLOURS.length;
      const colour = SERIES_COLOURS[seriesIndex] ?? '#4d4d4d';
      const top = y + index * ROW_HEIGHT;
      if (bar.value === null) {
        parts.push(
          `<text x="${String(labelWidth + 4)}" y="${String(top + 13)}" font-family="sans-serif" font-size="11" fill="currentColor">${escapeHtml(bar.series)}: unknown</text>`,
        );
        return;
      }
      const width = Math.max(1, (Math.min(bar.value, max) / max) * plotWidth);
      const text = formatValue(bar.value, chart.unit);
      parts.push(
        `<rect class="series-${String(seriesIndex)}" x="${String(labelWidth)}" y="${String(top + 2)}" width="${width.toFixed(1)}" height="${String(ROW_HEIGHT - 4)}" fill="${colour}"><title>${escapeHtml(`${group.label}, ${bar.series}: ${text}${chart.unit === '%' ? '' : ` ${chart.unit}`}`)}</title></rect>`,
        `<text x="${(labelWidth + width + 4).toFixed(1)}" y="${String(top + 13)}" font-family="sans-serif" font-size="11" fill="currentColor">${text}</text>`,
      );
    });
    y += groupHeight + GROUP_GAP;
  }
  const legend =
    legendHeight === 0
      ? ''
      : chart.series
          .map((name, index) => {
            const x = labelWidth + index * 150;
            const colour = SERIES_COLOURS[index % SERIES_COLOURS.length] ?? '#4d4d4d';
            return `<rect class="series-${String(index % SERIES_COLOURS.length)}" x="${String(x)}" y="6" width="12" height="12" fill="${colour}"/><text x="${String(x + 16)}" y="16" font-family="sans-serif" font-size="11" fill="currentColor">${escapeHtml(name)}</text>`;
          })
          .join('');
  const height = y + 4;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 ${String(chartWidth)} ${String(height)}" width="${String(chartWidth)}" height="${String(height)}" class="bar-chart" aria-label="${escapeHtml(`${chart.title}, in ${chart.unit}`)}">`,
    `<title>${escapeHtml(`${chart.title} (${chart.unit})`)}</title>`,
    legend,
    ...parts,
    '</svg>',
  ].join('');
}
