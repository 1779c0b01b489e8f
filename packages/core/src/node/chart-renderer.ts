import type { ChartDocument } from '../report/chart-svg.js';
import type { ChartRenderer } from '../report/report-charts.js';

/**
 * The chart renderer for Node: Observable Plot with linkedom's document (Plot builds DOM elements; linkedom is a
 * DOM without a browser). Both are imported here, on first use, so that commands which write no HTML (`assess
 * --json`, `--help`) never load them (tests/cli-e2e/startup-modules.test.ts).
 */
export async function loadChartRenderer(): Promise<ChartRenderer> {
  const [{ renderChartSvg }, { parseHTML }] = await Promise.all([
    import('../report/chart-svg.js'),
    import('linkedom'),
  ]);
  // linkedom's types name the DOM's, which core compiles without: its document is taken as what Plot uses.
  const { document } = parseHTML('<!doctype html><html><body></body></html>') as unknown as {
    document: ChartDocument;
  };
  return (chart) => renderChartSvg(chart, document);
}
