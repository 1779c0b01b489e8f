/**
 * What `encplan assess` prints besides its JSON: the report view, the text, HTML and machine reports, the
 * commands script and the chart renderer. assess-run.ts imports this module when one of them is asked for, so
 * that the bundle keeps them in a chunk of their own: `assess DISK --json`, as scripts run it once per disk,
 * does not load them (issue 28).
 */
export {
  renderCommandsScript,
  renderHtmlReport,
  renderMachineHtmlReport,
  renderMachineTextReport,
  renderTextReport,
  toReportView,
} from '@encplan/core';
export { loadChartRenderer } from '@encplan/core/node';
export { terminalTextOptions } from './terminal-style.js';
