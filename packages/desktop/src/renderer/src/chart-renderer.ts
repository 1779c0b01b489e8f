import type { ChartRenderer } from '@encplan/core';
import { renderChartSvg } from '@encplan/core/charts';

/**
 * The wizard's charts: the same module as the HTML and fleet reports (core's report/chart-svg.ts, Observable
 * Plot), drawn with the page's own document. Plot builds the SVG with DOM calls and no eval, and the chart
 * carries no <style> and no style="", so the renderer's Content-Security-Policy holds.
 */
export const renderChart: ChartRenderer = (chart) => renderChartSvg(chart, document);
