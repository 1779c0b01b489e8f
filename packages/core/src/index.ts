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
export * from './domain/units.js';
export * from './domain/recommendation.js';
export * from './plan/plan-input.js';
export * from './plan/plan-options.js';
export * from './plan/shell-quote.js';
export * from './plan/commands.js';
export * from './plan/plan.js';
export * from './rules/rule-result.js';
export * from './rules/kernel-version.js';
export * from './rules/cipher-speed.js';
export * from './rules/cipher.js';
export * from './rules/dm-crypt-parameters.js';
export * from './rules/key-derivation.js';
export * from './rules/reference-rates.js';
export * from './rules/attacker-cost.js';
export * from './rules/health-gate.js';
export * from './rules/space.js';
export * from './rules/performance-model.js';
export * from './contract/plan-envelope.js';
