/** @encplan/core/node: the adapters that touch the world. Only the CLI and the desktop main import this. */
export * from './process/run-command.js';
export * from './host.js';
export * from './bundle-files.js';
export * from './create-environment.js';
export * from './saved-output.js';
export * from './fleet-documents.js';
// The health and discard probes run through the Host port, so they live in core/src/probes (like the
// inventory); re-exported here because adapters are where callers look for things that touch the world.
export { probeHealth, probeDiscardStack, readSysfsStack } from '../index.js';
export * from './benchmark/cleanup-registry.js';
export * from './benchmark/cleanup-leftovers.js';
export * from './benchmark/device-guard.js';
export * from './benchmark/run-io-benchmark.js';
export * from './benchmark/targets.js';
export * from './privilege/pkexec.js';
