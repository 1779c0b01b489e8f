/** @encplan/core/node: the adapters that touch the world. Only the CLI and the desktop main import this. */
export * from './process/run-command.js';
export * from './host.js';
export * from './bundle-files.js';
export * from './create-environment.js';
export * from './saved-output.js';
// The health and discard probes run through the Host port, so they live in core/src/probes (like the
// inventory); re-exported here because adapters are where callers look for things that touch the world.
export { probeHealth, probeDiscardStack, readSysfsStack } from '../index.js';
// The benchmark is a core use case over the Host port (core/src/use-cases/benchmark); re-exported here for
// the adapters that start it.
export * from '../use-cases/benchmark/cleanup-registry.js';
export * from '../use-cases/benchmark/cleanup-leftovers.js';
export * from '../use-cases/benchmark/device-guard.js';
export * from '../use-cases/benchmark/run-io-benchmark.js';
export * from '../use-cases/benchmark/targets.js';
export * from './privilege/pkexec.js';
