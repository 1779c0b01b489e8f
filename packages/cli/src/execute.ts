import { Config, execute as oclifExecute } from '@oclif/core';

/**
 * Commands whose run never reads the order of oclif's command list (`config.commands`, `config.topics`): they
 * are found by id (a Map), print no list of commands, and do not show help. `help`, `completion`, `man` and
 * the did-you-mean of an unknown command do list them, so they keep oclif's order.
 */
const ORDER_FREE_COMMANDS: ReadonlySet<string> = new Set(['assess']);

/** oclif's help flags (`--help`, and `-h` from package.json `oclif.additionalHelpFlags`): they print help. */
const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);

/** Whether this run's arguments name a command that never reads the order of oclif's command list. */
export function commandOrderUnused(args: readonly string[]): boolean {
  return ORDER_FREE_COMMANDS.has(args[0] ?? '') && !args.some((arg) => HELP_FLAGS.has(arg));
}

/** Code unit order, as `<` compares two strings: what the command list is sorted by when its order is unused. */
function compareCodeUnits(this: string, that: string): number {
  return this < that ? -1 : this > that ? 1 : 0;
}

/**
 * oclif's `execute`, without building ICU's collator when the order it would sort by is never read (issue 28,
 * start-up). `Config.load` sorts the root plugin's commands with `a.id.localeCompare(b.id)` (`Plugin.load`,
 * @oclif/core lib/config/plugin.js), and the first `localeCompare` of a process builds the collator: ~8 ms of
 * CPU and ~2.5 MiB of a one-disk `assess` (docs/performance.md, "oclif's Config on the assess path"), and no
 * other code of that run compares strings by locale. For a command in ORDER_FREE_COMMANDS, the first
 * `Config.load` (the one that reads the manifest; the command's own reload reuses its plugins and sorts
 * nothing) runs with `localeCompare` comparing code units, and both are put back when it returns. Nothing else
 * runs meanwhile: the core is not loaded yet. Every other run is oclif's `execute` as it is.
 */
export async function execute(options: { dir: string; args: string[] }): Promise<unknown> {
  if (!commandOrderUnused(options.args)) {
    return oclifExecute(options);
  }
  // eslint-disable-next-line @typescript-eslint/unbound-method -- a static method, put back as it was
  const load = Config.load;
  Config.load = async (opts) => {
    Config.load = load;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, called on strings only
    const localeCompare = String.prototype.localeCompare;
    String.prototype.localeCompare = compareCodeUnits;
    try {
      return await load.call(Config, opts);
    } finally {
      String.prototype.localeCompare = localeCompare;
    }
  };
  try {
    return await oclifExecute(options);
  } finally {
    Config.load = load;
  }
}
