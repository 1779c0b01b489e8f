import BenchmarkIo from './benchmark-io.js';
import Cleanup from './cleanup.js';
import Version from './version.js';

/** Every command, for oclif's explicit strategy (fast start-up: no directory scan). */
export const COMMANDS = {
  'benchmark:io': BenchmarkIo,
  cleanup: Cleanup,
  version: Version,
};
