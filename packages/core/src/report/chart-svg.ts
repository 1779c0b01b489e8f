import * as Plot from '@observablehq/plot';
import type { BarView, ChartView } from './report-charts.js';

/**
 * Renders a report chart (report-charts.ts) with Observable Plot (https://observablehq.com/plot/, ISC) into one
 * SVG string: in the browser with the page's document, in Node with linkedom's (node/chart-renderer.ts), so the
 * HTML report, the fleet report and the wizard draw the same chart from the same code. Plot lays out the axes,
 * the ticks, the log scale and the text (its text mark fits labels to a width with its own font metrics,
 * `lineWidth` + `textOverflow`); this module only says what to draw. Why Plot and not Vega-Lite: docs/charts.md.
 *
 * This module loads Plot (and d3): never import it from the CLI's common path (index.ts does not); Node loads it
 * through loadChartRenderer when an HTML report is written.
 */

/**
 * The document Plot creates its elements in: the page's, or linkedom's in Node. Core compiles without the DOM's
 * types, so the little this module touches is declared here.
 */
export interface ChartDocument {
  createElementNS(namespace: string, name: string): ChartNode;
}
interface ChartNode {
  textContent: string | null;
  remove(): void;
}
interface ChartElement extends ChartNode {
  readonly firstChild: ChartNode | null;
  readonly outerHTML: string;
  querySelectorAll(selector: string): Iterable<ChartNode>;
  setAttribute(name: string, value: string): void;
  insertBefore(node: ChartNode, child: ChartNode | null): unknown;
}

/**
 * Colours of the series, chosen for contrast against white (WCAG 2.1 non-text contrast ≥ 3:1, SC 1.4.11) and
 * to stay apart for the common colour-vision deficiencies (Okabe–Ito palette). Each bar's group carries a class
 * (series-N, bar-TONE), so the page's stylesheet recolours it for the dark theme.
 */
const SERIES_COLOURS = ['#0b5fa5', '#b35900', '#6a3d9a', '#00735c', '#9e2a2b', '#4d4d4d'];
const TONE_COLOURS: Readonly<Record<NonNullable<BarView['tone']>, string>> = {
  good: '#14532d',
  attention: '#6b3e00',
  bad: '#8a1c1c',
  unknown: '#4d4d4d',
  info: '#0b3d66',
};

/**
 * CrystalDiskMark reports decimal megabytes per second: its saved result says "MB/s = 1,000,000 bytes/s"
 * (CrystalDiskMark 9.0.1, DiskMarkDlg.cpp, https://github.com/hiyohiyo/CrystalDiskMark). encplan's bars are in
 * MiB/s (2^20 bytes/s, as cryptsetup and fio print them): 1 MiB/s = 1.048576 MB/s.
 */
const MB_PER_MIB = 1_048_576 / 1_000_000;

const FONT_SIZE = 12;
const ROW_HEIGHT = 20;
const PLOT_WIDTH = 420;
/** The series' names left of the bars (several series), and the values' column right of them. */
const SERIES_COLUMN = 150;
/** MiB/s values carry MB/s too ("3,076 MiB/s · 3,225 MB/s"); other values are a number. */
const VALUE_COLUMN = { rate: 200, number: 90 } as const;
/** The band above each group's bars that carries the group's name. */
const HEADER = '\u0000header';

/** Log scale when the known values span more than a decade (1.7 to 3076 MiB/s cannot be read on a linear one). */
export function chartScale(chart: ChartView): 'log' | 'linear' {
  const values = knownValues(chart);
  if (chart.max !== null || values.length < 2 || Math.min(...values) <= 0) {
    return 'linear';
  }
  return Math.max(...values) / Math.min(...values) > 10 ? 'log' : 'linear';
}

function knownValues(chart: ChartView): number[] {
  return chart.groups.flatMap((group) =>
    group.bars.flatMap((bar) => (bar.value === null || !Number.isFinite(bar.value) ? [] : [bar.value])),
  );
}

/** Counts as they are; one decimal below 100, none above; thousands separated. */
function formatNumber(value: number): string {
  return value >= 100 || Number.isInteger(value)
    ? Math.round(value).toLocaleString('en-US')
    : value.toFixed(1);
}

/** The value as printed beside its bar: MiB/s with CrystalDiskMark's MB/s next to it; unknown as "unknown". */
export function formatChartValue(value: number | null, unit: string): string {
  if (value === null || !Number.isFinite(value)) {
    return 'unknown';
  }
  if (unit === 'MiB/s') {
    return `${formatNumber(value)} MiB/s · ${formatNumber(value * MB_PER_MIB)} MB/s`;
  }
  return unit === '%' ? `${formatNumber(value)} %` : formatNumber(value);
}

/** 1, 10, 100, 1,000 … (and 0.1, 0.01 below one): a log axis with a tick per decade. */
function decades(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent += 1) {
    ticks.push(10 ** exponent);
  }
  return ticks;
}

/** About five round ticks (1, 2 or 5 × 10^n apart) from 0 up to `high` (or the first one past it, `beyond`). */
function linearTicks(high: number, beyond = false): number[] {
  const rough = high / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? rough;
  const count = beyond ? Math.ceil(high / step - 1e-9) : Math.floor(high / step + 1e-9);
  return Array.from({ length: count + 1 }, (_, index) => index * step);
}

function tickText(value: number): string {
  return value >= 1 ? Math.round(value).toLocaleString('en-US') : String(Number(value.toPrecision(1)));
}

interface Row {
  readonly group: string;
  readonly series: string;
  readonly value: number | null;
  readonly className: string;
  readonly colour: string;
}

function rowsOf(chart: ChartView): Row[] {
  return chart.groups.flatMap((group) =>
    group.bars.map((bar) => {
      const index = Math.max(0, chart.series.indexOf(bar.series)) % SERIES_COLOURS.length;
      return {
        group: group.label,
        series: bar.series,
        value: bar.value !== null && Number.isFinite(bar.value) ? bar.value : null,
        className: bar.tone === undefined ? `series-${String(index)}` : `bar-${bar.tone}`,
        colour: bar.tone === undefined ? (SERIES_COLOURS[index] ?? '#4d4d4d') : TONE_COLOURS[bar.tone],
      };
    }),
  );
}

/** The chart's text alternative: every value in reading order, unknown ones as "unknown". */
function description(chart: ChartView, scale: 'log' | 'linear'): string {
  const values = chart.groups
    .map(
      (group) =>
        `${group.label}: ${group.bars.map((bar) => `${chart.series.length > 1 ? `${bar.series} ` : ''}${formatChartValue(bar.value, chart.unit)}`).join(', ')}`,
    )
    .join('; ');
  return `Horizontal bars in ${chart.unit}${scale === 'log' ? ' on a logarithmic scale (each grid line is ten times the one before)' : ''}. ${values}.`;
}

/**
 * The chart as an SVG string: one band per group (its name on a line of its own, then one bar per series), the
 * values written in a column beside the bars (so the chart reads without colour), an axis with its unit below
 * and, for MiB/s, a second axis in CrystalDiskMark's MB/s above. Text is `currentColor`, bars carry their
 * series' class: the page's stylesheet themes both. No <style> and no style="" (strict style-src CSP).
 */
export function renderChartSvg(chart: ChartView, document: ChartDocument): string {
  const scale = chartScale(chart);
  const rows = rowsOf(chart);
  const values = knownValues(chart);
  const several = chart.series.length > 1;
  const mebibytes = chart.unit === 'MiB/s';
  const valueColumn = mebibytes ? VALUE_COLUMN.rate : VALUE_COLUMN.number;
  const marginLeft = several ? SERIES_COLUMN : 12;
  const low = scale === 'log' ? 10 ** Math.floor(Math.log10(Math.min(...values))) : 0;
  const high =
    scale === 'log'
      ? 10 ** Math.ceil(Math.log10(Math.max(...values)))
      : (chart.max ?? linearTicks(Math.max(1, ...values), true).at(-1) ?? 1);
  const bands = [HEADER, ...chart.series];
  const groups = chart.groups.map((group) => group.label);
  const known = rows.filter((row) => row.value !== null);
  const classes = [...new Map(known.map((row) => [row.className, row.colour])).entries()];
  // Counts get whole-number ticks (no "0.5 disks").
  const counts = values.every((value) => Number.isInteger(value));
  const linearAxisTicks = linearTicks(high).filter((tick) => !counts || Number.isInteger(tick));
  const megabyteTicks =
    scale === 'log' ? decades(low * MB_PER_MIB, high * MB_PER_MIB) : linearTicks(high * MB_PER_MIB);
  const text = { fontSize: FONT_SIZE, lineAnchor: 'middle' as const };
  const svg = Plot.plot({
    document: document as never,
    width: marginLeft + PLOT_WIDTH + valueColumn,
    height: chart.groups.length * bands.length * ROW_HEIGHT + (mebibytes ? 80 : 48),
    marginLeft,
    marginRight: valueColumn,
    marginTop: mebibytes ? 40 : 8,
    marginBottom: 40,
    x: {
      type: scale,
      domain: [low, high],
      label: null,
    },
    y: { domain: bands, padding: 0.15, axis: null },
    fy: { domain: groups, padding: 0.1, axis: null },
    marks: [
      Plot.gridX({
        ticks: scale === 'log' ? decades(low, high) : linearAxisTicks,
        strokeOpacity: 0.25,
      }),
      Plot.axisX({
        ticks: scale === 'log' ? decades(low, high) : linearAxisTicks,
        tickFormat: tickText,
        fontSize: FONT_SIZE,
        label: `${chart.unit}${scale === 'log' ? ', logarithmic scale' : ''}`,
        labelAnchor: 'center',
        labelArrow: 'none',
      }),
      ...(mebibytes
        ? [
            Plot.axisX({
              anchor: 'top',
              ticks: megabyteTicks
                .map((value) => value / MB_PER_MIB)
                .filter((value) => value >= low && value <= high),
              tickFormat: (value: number) => tickText(value * MB_PER_MIB),
              fontSize: FONT_SIZE,
              label: 'MB/s (decimal, as CrystalDiskMark shows)',
              labelAnchor: 'center',
              labelArrow: 'none',
            }),
          ]
        : []),
      Plot.text(groups, {
        fy: (group: string) => group,
        y: () => HEADER,
        frameAnchor: 'left',
        dx: 4 - marginLeft,
        textAnchor: 'start',
        fontWeight: 'bold',
        text: (group: string) => group,
        lineWidth: (marginLeft + PLOT_WIDTH + valueColumn - 8) / FONT_SIZE,
        textOverflow: 'ellipsis',
        ...text,
      }),
      ...(several
        ? [
            Plot.text(rows, {
              fy: 'group',
              y: 'series',
              frameAnchor: 'left',
              dx: -6,
              textAnchor: 'end',
              text: 'series',
              lineWidth: (SERIES_COLUMN - 12) / FONT_SIZE,
              textOverflow: 'ellipsis-middle',
              ...text,
            }),
          ]
        : []),
      ...classes.map(([className, colour]) =>
        Plot.barX(
          known.filter((row) => row.className === className),
          {
            fy: 'group',
            y: several ? 'series' : () => chart.series[0],
            x1: low,
            x2: 'value',
            fill: colour,
            className,
            title: (row: Row) =>
              `${row.group}${several ? `, ${row.series}` : ''}: ${formatChartValue(row.value, chart.unit)}`,
          },
        ),
      ),
      Plot.text(rows, {
        fy: 'group',
        y: several ? 'series' : () => chart.series[0],
        frameAnchor: 'right',
        dx: 8,
        textAnchor: 'start',
        text: (row: Row) => formatChartValue(row.value, chart.unit),
        lineWidth: (valueColumn - 12) / FONT_SIZE,
        textOverflow: 'ellipsis',
        ...text,
      }),
    ],
  }) as unknown as ChartElement;
  return finish(svg, chart, scale, document);
}

/** Plot's scoped <style> goes (the page styles the chart), a title and a description come first. */
function finish(
  svg: ChartElement,
  chart: ChartView,
  scale: 'log' | 'linear',
  document: ChartDocument,
): string {
  for (const style of [...svg.querySelectorAll('style')]) {
    style.remove();
  }
  svg.setAttribute('class', 'chart-svg');
  svg.setAttribute('role', 'img');
  svg.setAttribute('font-family', 'system-ui, sans-serif');
  svg.setAttribute('aria-label', `${chart.title}, in ${chart.unit}`);
  const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
  title.textContent = `${chart.title} (${chart.unit})`;
  const desc = document.createElementNS('http://www.w3.org/2000/svg', 'desc');
  desc.textContent = description(chart, scale);
  svg.insertBefore(desc, svg.firstChild);
  svg.insertBefore(title, svg.firstChild);
  return svg.outerHTML;
}
