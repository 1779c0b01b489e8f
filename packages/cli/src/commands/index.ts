import Assess from './assess.js';
import BenchmarkIo from './benchmark-io.js';
import Cleanup from './cleanup.js';
import Collect from './collect.js';
import Doctor from './doctor.js';
import FleetReport from './fleet/report.js';
import Health from './health.js';
import Schema from './schema.js';
import BenchmarkCiphers from './benchmark/ciphers.js';
import Plan from './plan.js';
import Ui from './ui.js';
import Version from './version.js';
import Help from './help.js';
import Completion from './completion.js';
import Man from './man.js';

/** Every command, for oclif's explicit strategy (fast start-up: no directory scan). */
export const COMMANDS = {
  assess: Assess,
  'benchmark:io': BenchmarkIo,
  cleanup: Cleanup,
  collect: Collect,
  doctor: Doctor,
  'fleet:report': FleetReport,
  health: Health,
  schema: Schema,
  'benchmark:ciphers': BenchmarkCiphers,
  plan: Plan,
  ui: Ui,
  version: Version,
  help: Help,
  completion: Completion,
  man: Man,
};
