import BenchmarkCiphers from './benchmark/ciphers.js';
import Version from './version.js';

/** Every command, for oclif's explicit strategy (fast start-up: no directory scan). */
export const COMMANDS = {
  'benchmark:ciphers': BenchmarkCiphers,
  version: Version,
};
