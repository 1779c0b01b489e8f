/** @encplan/core/node: the adapters that touch the world. Only the CLI and the desktop main import this. */
export * from './process/run-command.js';
export * from './host.js';
export * from './privilege/pkexec.js';
