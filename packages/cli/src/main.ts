/**
 * The CLI's one entry: what bin/run.js and oclif's explicit command strategy load. The packed release bundles
 * exactly this module (and what it imports) into dist/main.js, so the same package.json works from the
 * workspace and from the tarball (see docs/packaging.md).
 */
export { execute } from '@oclif/core';
export { COMMANDS } from './commands/index.js';
export { default as commandNotFound } from './hooks/command-not-found.js';
