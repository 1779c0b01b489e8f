/** @encplan/core/node: the adapters that touch the world. Only the CLI and the desktop main import this. */
export * from './process/run-command.js';
export * from './host.js';
export * from './bundle-files.js';
export * from './create-environment.js';
export * from './privilege/pkexec.js';
