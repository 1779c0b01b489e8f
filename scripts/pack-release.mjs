#!/usr/bin/env node
// Builds the installable release of the CLI: one npm tarball with no dependencies to fetch. The CLI and
// everything it imports (core, the desktop's `encplan ui` server, oclif, zod, systeminformation) are bundled
// with rolldown into bundle/ (scripts/bundle-cli.mjs, the same bundle the workspace runs), the built wizard is copied to renderer/, and encplan(1) is generated from the
// command definitions. Run `npm run build` first.
// Usage: node scripts/pack-release.mjs [--self-contained] [--deb] [OUT_DIR] (default test-artifacts/release).
// Prints the path of each file it made. Details: docs/packaging.md. `npm run pack:release` passes --deb.
// With --self-contained it also packs this Node binary beside the same bundle, for machines without Node or a
// registry (the Ansible role `encplan.fleet.install` unpacks it into a prefix):
//   encplan-VERSION-linux-ARCH/bin/encplan   sh wrapper running lib/encplan/bin/run.js with the bundled node
//   encplan-VERSION-linux-ARCH/bin/node      the Node binary this was built with (same OS and architecture only)
//   encplan-VERSION-linux-ARCH/lib/encplan/  the npm package's content (bin, bundle, renderer, man)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { buildDeb } from './deb-package.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './bundle-cli.mjs';
import { writeHelpText } from './help-text.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'packages/cli');
const options = new Set(['--self-contained', '--deb']);
const selfContained = process.argv.includes('--self-contained');
const deb = process.argv.includes('--deb');
const outArgument = process.argv.slice(2).find((argument) => !options.has(argument));
const outDir = path.resolve(outArgument ?? path.join(root, 'test-artifacts/release'));
const stage = path.join(outDir, 'stage');

for (const built of [
  path.join(cli, 'dist/main.js'),
  path.join(cli, 'oclif.manifest.json'),
  path.join(root, 'packages/desktop/out/renderer/index.html'),
]) {
  if (!existsSync(built)) {
    throw new Error(`${path.relative(root, built)} is missing: run npm run build first.`);
  }
}
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const source = JSON.parse(readFileSync(path.join(cli, 'package.json'), 'utf8'));
// The same bundle bin/run.js runs in the workspace (scripts/bundle-cli.mjs).
await bundleCli(path.join(stage, 'bundle'));
cpSync(path.join(cli, 'bin/run.js'), path.join(stage, 'bin/run.js'));
cpSync(path.join(cli, 'oclif.manifest.json'), path.join(stage, 'oclif.manifest.json'));
cpSync(path.join(root, 'packages/desktop/out/renderer'), path.join(stage, 'renderer'), { recursive: true });
cpSync(path.join(root, 'README.md'), path.join(stage, 'README.md'));

const manifest = {
  name: source.name,
  version: source.version,
  description:
    'Plan disk encryption from measurements on your own machine: health, TRIM, spare area, speed, settings.',
  license: 'MIT',
  type: 'module',
  engines: source.engines,
  bin: source.bin,
  man: ['./man/encplan.1'],
  files: ['bin', 'bundle', 'renderer', 'man', 'README.md', 'oclif.manifest.json'],
  oclif: source.oclif,
};
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The man page comes from the bundled CLI itself, so it describes exactly what ships.
mkdirSync(path.join(stage, 'man'), { recursive: true });
const man = execFileSync(process.execPath, [path.join(stage, 'bin/run.js'), 'man'], { encoding: 'utf8' });
writeFileSync(path.join(stage, 'man/encplan.1'), man);
// The help as oclif prints it, for `--help` without evaluating oclif (scripts/help-text.mjs), from the stage too.
await writeHelpText(stage);

const packed = execFileSync(
  'npm',
  ['pack', stage, '--pack-destination', outDir, '--json', '--loglevel=error'],
  { encoding: 'utf8' },
);
const [{ filename }] = JSON.parse(packed);
process.stdout.write(`${path.join(outDir, filename)}\n`);

if (selfContained) {
  const name = `encplan-${source.version}-linux-${process.arch}`;
  const top = path.join(outDir, 'self-contained', name);
  rmSync(path.dirname(top), { recursive: true, force: true });
  mkdirSync(path.join(top, 'bin'), { recursive: true });
  cpSync(stage, path.join(top, 'lib/encplan'), { recursive: true });
  cpSync(process.execPath, path.join(top, 'bin/node'));
  writeFileSync(
    path.join(top, 'bin/encplan'),
    [
      '#!/bin/sh',
      '# encplan from a self-contained release: the bundled Node runs the bundled CLI; no registry, no system Node.',
      'here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)',
      'exec "$here/node" "$here/../lib/encplan/bin/run.js" "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const tarball = path.join(outDir, `${name}.tar.gz`);
  execFileSync('tar', [
    '-C',
    path.dirname(top),
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-czf',
    tarball,
    name,
  ]);
  rmSync(path.dirname(top), { recursive: true, force: true });
  process.stdout.write(`${tarball}\n`);
}

if (deb) {
  process.stdout.write(`${buildDeb({ root, stage, outDir, version: source.version })}\n`);
}
