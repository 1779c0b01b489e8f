/**
 * @encplan/core: the environment-neutral entry. Types, parsers, rules, the JSON contract and use cases;
 * nothing here imports Node, so the desktop renderer can use it too. Node adapters: "@encplan/core/node".
 */
export * from './errors.js';
export * from './ports.js';
export * from './version.js';
export * from './domain/warning.js';
export * from './domain/source.js';
export * from './domain/device.js';
export * from './contract/envelope.js';
export * from './capture/capture.js';
export * from './capture/recording-host.js';
export * from './capture/replay-host.js';
export * from './report/report-view.js';
export * from './report/html-report.js';
export * from './report/bar-chart-svg.js';
export * from './report/format-units.js';
export * from './report/escape-html.js';
export * from './use-cases/assessment-jobs.js';
export * from './use-cases/device-list.js';
export * from './use-cases/ui-services.js';
export * from './use-cases/saved-assessments.js';
