/**
 * The CLI's one entry: what oclif's explicit command strategy loads to run a command. scripts/bundle-cli.mjs
 * bundles this module (and what it imports) into bundle/main.js, in the workspace and in the packed release
 * alike, so the same package.json works from both (see docs/packaging.md).
 */
import { parseWithoutCompiling } from '@encplan/core';

// One run validates each document once: zod's compiled parsers would cost more than they save. Not `fleet
// report`: it validates the same schemas for thousands of documents, where compiling them once pays (CPU of 4,000
// Linux assessments, median of 7 interleaved runs: 2.86 s without compiling, 2.53 s compiled; docs/performance.md).
if (process.argv[2] !== 'fleet') {
  parseWithoutCompiling();
}

export { execute } from '@oclif/core';
export { COMMANDS } from './commands/index.js';
export { default as commandNotFound } from './hooks/command-not-found.js';
