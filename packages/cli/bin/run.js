#!/usr/bin/env node
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
