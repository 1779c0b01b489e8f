import Ui from './ui.js';
import Version from './version.js';

/** Every command, for oclif's explicit strategy (fast start-up: no directory scan). */
export const COMMANDS = {
  ui: Ui,
  version: Version,
};
