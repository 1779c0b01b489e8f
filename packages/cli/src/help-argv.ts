/**
 * `encplan help WORDS…` answered as `encplan WORDS… --help` is (issue 28, start-up): both print the same help
 * (tests/cli-e2e/startup-modules.test.ts compares them), but the `help` command is a command, and running it
 * loads every command and the core (~100 ms and ~20 MiB), where `--help` is answered by oclif from
 * oclif.manifest.json alone. Only plain words naming a command or a topic are rewritten: `help --json`, an
 * unknown word or anything else runs the `help` command as before, with its own messages and exit codes.
 */
export function helpAsFlag(argv: readonly string[], commandIds: readonly string[]): readonly string[] {
  if (argv[0] !== 'help') {
    return argv;
  }
  const words = argv.slice(1);
  if (words.some((word) => !/^[a-z][a-z0-9-]*$/u.test(word))) {
    return argv;
  }
  const id = words.join(':');
  const named =
    words.length === 0 || commandIds.some((commandId) => commandId === id || commandId.startsWith(`${id}:`));
  return named ? [...words, '--help'] : argv;
}
