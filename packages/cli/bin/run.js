#!/usr/bin/env node
// Ctrl-C and SIGTERM exit 130 (README "Exit codes") from the first line on: Node's default would be 143 for
// SIGTERM. While a command has work to stop (withCancellation, `encplan ui`, src/cancellation.ts), it counts
// itself in this global and handles the signal; other listeners (libraries) do not count.
const SIGNAL_OWNERS = Symbol.for('encplan.signal-owners');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if ((globalThis[SIGNAL_OWNERS] ?? 0) === 0) {
      process.exit(130);
    }
  });
}
// A reader that stops early (`encplan --help | head -1`) closes stdout: that is not an error of encplan's, so
// leave quietly with 0 instead of a warning about an unsettled await and exit code 13.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') {
    process.exit(0);
  }
  throw error;
});
// Node's on-disk compile cache (Node >= 22.1) spares re-parsing the same modules at every start. Built-ins come
// from getBuiltinModule, as in the bundle (scripts/builtin-imports.mjs): an ES import reads every lazy export.
const { enableCompileCache } = process.getBuiltinModule('node:module');
enableCompileCache?.();
// `--version` is answered before oclif and the core are loaded: scripts call it often, and loading
// everything would make it ten times slower than starting Node (issue 2, "Speed").
const argv = process.argv.slice(2);
if (argv[0] === '--version' || argv[0] === '-v') {
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const { versionLine } = await import('../bundle/version-line.js');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${versionLine(version)}\n`);
} else if (
  // Help as oclif printed it at build time (or on an earlier run on this terminal), without evaluating oclif:
  // src/help-fast.ts decides whether the text is the one oclif would print now, else oclif answers below.
  (argv.length === 0 || argv[0] === 'help' || argv.at(-1) === '--help' || argv.at(-1) === '-h') &&
  (await import('../bundle/help-fast.js')).answerHelp(
    argv,
    new URL('../bundle/help-text.json', import.meta.url),
  )
) {
  // Answered.
} else if (
  // `assess DISK …`, as scripts run it once per disk, without evaluating oclif: src/direct.ts parses the
  // arguments with the flags oclif's parser would use and runs the command's body when oclif would do exactly
  // the same; anything else (a misspelt flag, `--help`, a bad value…) is left to oclif below.
  argv[0] === 'assess' &&
  (await (await import('../bundle/direct.js')).runDirect(argv, new URL('../', import.meta.url)))
) {
  // Run.
} else {
  // oclif alone: it imports bundle/main.js (every command and the core) only when a command runs, and answers
  // `--help` from oclif.manifest.json (src/oclif-entry.ts).
  // `help WORDS…` as `WORDS… --help` (src/help-argv.ts): the same help, without loading the commands.
  const { execute, helpAsFlag } = await import('../bundle/oclif-entry.js');
  let args = argv;
  if (argv[0] === 'help') {
    const { readFileSync } = process.getBuiltinModule('node:fs');
    try {
      const manifest = JSON.parse(readFileSync(new URL('../oclif.manifest.json', import.meta.url), 'utf8'));
      args = helpAsFlag(argv, Object.keys(manifest.commands));
    } catch {
      // No manifest (a build that did not write it): oclif finds the commands itself, the help command runs.
    }
  }
  await execute({ dir: import.meta.url, args });
}
