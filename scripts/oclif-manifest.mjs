#!/usr/bin/env node
// Writes packages/cli/oclif.manifest.json: every command's id, flags, arguments and help texts, taken by
// oclif from the built command classes (the same data `oclif manifest` writes). With it, oclif answers
// `encplan --help` and lists commands without importing them, and loads bundle/main.js only to run a command.
// Run after `tsc -b` (npm run build does); the release copies it (scripts/pack-release.mjs).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/cli');
const file = path.join(cli, 'oclif.manifest.json');
// A manifest left from an earlier build must not be read back as the truth: oclif is told to ignore it.
const config = await Config.load({ root: cli, ignoreManifest: true });
const plugin = config.getPluginsList().find((candidate) => candidate.root === cli);
if (plugin === undefined || Object.keys(plugin.manifest.commands).length === 0) {
  throw new Error('oclif found no commands in packages/cli: build first (tsc -b).');
}
writeFileSync(file, `${JSON.stringify(plugin.manifest, null, 2)}\n`);
process.stdout.write(
  `${path.relative(process.cwd(), file)}: ${Object.keys(plugin.manifest.commands).length} commands\n`,
);
