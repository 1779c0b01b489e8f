#!/usr/bin/env node
// Ctrl-C and SIGTERM exit 130 (README "Exit codes") from the first line on: Node's default would be 143 for
// SIGTERM. A command that has work to stop (withCancellation, `encplan ui`) adds its own listener, and this one
// then leaves the signal to it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) {
      process.exit(130);
    }
  });
}
// `--version` is answered before oclif and the core are loaded: scripts call it often, and loading
// everything would make it ten times slower than starting Node (issue 2, "Speed").
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`encplan/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  const { execute } = await import('@oclif/core');
  await execute({ dir: import.meta.url });
}
