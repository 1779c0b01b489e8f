#!/usr/bin/env node
// Writes packages/cli/oclif.manifest.json: every command's id, flags, arguments and help texts, taken by
// oclif from the built command classes (the same data `oclif manifest` writes). With it, oclif answers
// `encplan --help` and lists commands without importing them, and loads bundle/main.js only to run a command.
// Run after `tsc -b` (npm run build does); the release copies it (scripts/pack-release.mjs).
// Its `direct` key (which oclif does not read) holds what the direct path of `encplan assess` parses with
// (packages/cli/src/direct.ts): each direct command's arguments and flags as oclif's parser sees them, boolean
// defaults included (oclif's own manifest leaves them out), or no entry when a definition uses anything that
// path does not reproduce (a custom parse, a computed default, env, aliases, relationships…): oclif then runs it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Args, Config, Flags } from '@oclif/core';

// What oclif's own string flag, boolean flag and string argument do with their input (@oclif/core 5 flags.js
// `custom`, `boolean`; args.js `custom`): a definition with any other parse is not reproduced.
const IDENTITY_PARSE = {
  option: Flags.string().parse.toString(),
  boolean: Flags.boolean().parse.toString(),
  arg: Args.string().parse.toString(),
};
// Properties the direct parser reproduces (or that only help reads); any other makes the command oclif's.
const FLAG_KEYS = new Set([
  'name',
  'type',
  'char',
  'summary',
  'description',
  'helpGroup',
  'hidden',
  'default',
  'options',
  'multiple',
  'dependsOn',
  'allowNo',
  'parse',
  'input',
]);
const ARG_KEYS = new Set([
  'name',
  'type',
  'description',
  'required',
  'ignoreStdin',
  'hidden',
  'parse',
  'input',
]);

/** A direct command's arguments and flags as src/direct.ts reads them, or why it cannot be direct. */
function directSpec(command) {
  if (command === undefined) {
    return 'no such command';
  }
  if (
    command.strict === false ||
    command.enableJsonFlag ||
    command.state !== undefined ||
    command.constraints
  ) {
    return 'strict, state, json flag or constraints';
  }
  const flags = {};
  for (const [name, flag] of Object.entries({ ...command.baseFlags, ...command.flags })) {
    const unknown = Object.keys(flag).filter((key) => !FLAG_KEYS.has(key) && flag[key] !== undefined);
    if (unknown.length > 0 || flag.allowNo || flag.parse.toString() !== IDENTITY_PARSE[flag.type]) {
      return `flag --${name}: ${unknown.join(', ') || 'allowNo or parse'}`;
    }
    const valueOk = (value) =>
      value === undefined ||
      (flag.type === 'boolean' ? typeof value === 'boolean' : typeof value === 'string') ||
      (flag.multiple && Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!valueOk(flag.default) || (flag.char !== undefined && flag.type !== 'boolean')) {
      return `flag --${name}: its default or char`;
    }
    flags[name] = {
      type: flag.type,
      ...(flag.char === undefined ? {} : { char: flag.char }),
      ...(flag.multiple ? { multiple: true } : {}),
      ...(flag.options === undefined ? {} : { options: flag.options }),
      ...(flag.default === undefined ? {} : { default: flag.default }),
      ...(flag.dependsOn === undefined ? {} : { dependsOn: flag.dependsOn }),
    };
  }
  const args = [];
  for (const [name, arg] of Object.entries(command.args ?? {})) {
    const unknown = Object.keys(arg).filter((key) => !ARG_KEYS.has(key) && arg[key] !== undefined);
    if (unknown.length > 0 || arg.parse.toString() !== IDENTITY_PARSE.arg) {
      return `argument ${name}: ${unknown.join(', ') || 'parse'}`;
    }
    args.push({ name, required: arg.required === true, ...(arg.ignoreStdin ? { ignoreStdin: true } : {}) });
  }
  return { args, flags };
}

/** The commands bin/run.js may run without oclif (packages/cli/src/direct-run.ts has a runner for each). */
const DIRECT_COMMANDS = ['assess'];
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/cli');
const file = path.join(cli, 'oclif.manifest.json');
// A manifest left from an earlier build must not be read back as the truth: oclif is told to ignore it.
const config = await Config.load({ root: cli, ignoreManifest: true });
const plugin = config.getPluginsList().find((candidate) => candidate.root === cli);
if (plugin === undefined || Object.keys(plugin.manifest.commands).length === 0) {
  throw new Error('oclif found no commands in packages/cli: build first (tsc -b).');
}
const { COMMANDS } = await import(pathToFileURL(path.join(cli, 'dist/commands/index.js')).href);
const direct = {};
for (const id of DIRECT_COMMANDS) {
  const spec = directSpec(COMMANDS[id]);
  if (typeof spec === 'string') {
    process.stdout.write(`oclif.manifest.json: ${id} has no direct path (${spec}): oclif runs it\n`);
  } else {
    direct[id] = spec;
  }
}
writeFileSync(file, `${JSON.stringify({ ...plugin.manifest, direct }, null, 2)}\n`);
process.stdout.write(
  `${path.relative(process.cwd(), file)}: ${Object.keys(plugin.manifest.commands).length} commands\n`,
);
