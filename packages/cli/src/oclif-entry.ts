/**
 * What bin/run.js loads first: oclif alone, without the commands. oclif reads each command's flags and help
 * from oclif.manifest.json (scripts/oclif-manifest.mjs writes it at build time) and imports bundle/main.js, with
 * all commands and the core, only when a command runs; `encplan --help` and `encplan` alone never load the core.
 * The help class is here too (package.json oclif.helpClass), so help stays without the commands and the core.
 * `execute` is oclif's, without building ICU's collator for a command that never reads the order of the
 * command list (execute.ts).
 */
export { execute } from './execute.js';
export { EncplanHelp } from './help-class.js';
export { helpAsFlag } from './help-argv.js';
