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
export * from './domain/counter.js';
export * from './domain/health.js';
export * from './domain/smart-facts.js';
export * from './domain/capabilities.js';
export * from './parsers/json-reader.js';
export * from './parsers/smartctl/exit-status.js';
export * from './parsers/smartctl/smartctl-json.js';
export * from './analyses/health.js';
export * from './parsers/nvme/smart-log.js';
export * from './parsers/nvme/id-ctrl.js';
export * from './parsers/nvme/id-ns.js';
export * from './parsers/nvme/list.js';
