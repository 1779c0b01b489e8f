#!/usr/bin/env node
// Writes packages/cli/bundle/help-text.json: the help of every command and topic (and the root help) exactly
// as oclif prints it on a pipe, rendered by running the built CLI itself once per subject. bin/run.js prints
// these texts without evaluating oclif when the conditions match (packages/cli/src/help-fast.ts, issue 28).
// Run after the bundle and oclif.manifest.json are written (npm run build does); the release runs it on its
// stage (scripts/pack-release.mjs).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Config } from '@oclif/core';

const run = promisify(execFile);
const workspaceCli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/cli');
const FILE = 'help-text.json';

/** Every file under `folder`, sorted, relative to it. */
function filesUnder(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of what the help is rendered from: the bundle, the manifest and package.json of `cli`. */
function buildId(cli) {
  const hash = createHash('sha256');
  const bundle = path.join(cli, 'bundle');
  for (const name of filesUnder(bundle).filter((file) => file !== FILE)) {
    hash.update(`${name}\0`).update(readFileSync(path.join(bundle, name)));
  }
  for (const name of ['oclif.manifest.json', 'package.json']) {
    hash.update(`${name}\0`).update(readFileSync(path.join(cli, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The subjects oclif knows: the root (''), every command id and alias, every topic, as typed (space-separated). */
async function subjectsOf(cli) {
  const config = await Config.load({ root: cli });
  const ids = [...config.commands.flatMap((command) => [command.id, ...(command.aliases ?? [])])];
  const topics = config.topics.map((topic) => topic.name);
  return ['', ...new Set([...ids, ...topics].map((id) => id.replaceAll(':', ' ')))].sort();
}

/** Renders and writes `cli`/bundle/help-text.json; returns the number of subjects. */
export async function writeHelpText(cli = workspaceCli) {
  const { asciiJson, helpConditions } = await import(
    pathToFileURL(path.join(workspaceCli, 'dist/help-fast.js')).href
  );
  const target = path.join(cli, 'bundle', FILE);
  rmSync(target, { force: true });
  // A clean environment: a home of its own (no user theme, no user plugins, no cache), output on a pipe.
  const home = mkdtempSync(path.join(tmpdir(), 'encplan-help-text-'));
  const environment = { PATH: process.env.PATH ?? '', HOME: home, ENCPLAN_HELP_CACHE: '0' };
  try {
    const subjects = await subjectsOf(cli);
    const texts = {};
    // Two at a time: the machine is shared.
    for (let index = 0; index < subjects.length; index += 2) {
      await Promise.all(
        subjects.slice(index, index + 2).map(async (subject) => {
          const words = subject === '' ? [] : subject.split(' ');
          const { stdout, stderr } = await run(
            process.execPath,
            [path.join(cli, 'bin/run.js'), ...words, '--help'],
            {
              env: environment,
              cwd: home,
              encoding: 'utf8',
              maxBuffer: 16 * 1024 * 1024,
            },
          );
          if (stderr !== '' || stdout === '') {
            throw new Error(`encplan ${subject} --help: ${stderr === '' ? 'printed nothing' : stderr}`);
          }
          texts[subject] = stdout;
        }),
      );
    }
    const conditions = helpConditions(environment, {
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: undefined,
    });
    const sorted = Object.fromEntries(Object.entries(texts).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(target, asciiJson({ format: 1, build: buildId(cli), conditions, texts: sorted }));
    return subjects.length;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const count = await writeHelpText();
  process.stdout.write(`packages/cli/bundle/${FILE}: help of ${String(count)} subjects\n`);
}
