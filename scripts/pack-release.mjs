#!/usr/bin/env node
// Builds the installable release of the CLI: one npm tarball with no dependencies to fetch. The CLI and
// everything it imports (core, the desktop's `encplan ui` server, oclif, zod, systeminformation) are bundled
// with rolldown into dist/, the built wizard is copied to renderer/, and encplan(1) is generated from the
// command definitions. Run `npm run build` first. Usage: node scripts/pack-release.mjs [OUT_DIR]
// (default test-artifacts/release). Prints the tarball's path. Details: docs/packaging.md.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'packages/cli');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'test-artifacts/release'));
const stage = path.join(outDir, 'stage');

for (const built of [
  path.join(cli, 'dist/main.js'),
  path.join(root, 'packages/desktop/out/renderer/index.html'),
]) {
  if (!existsSync(built)) {
    throw new Error(`${path.relative(root, built)} is missing: run npm run build first.`);
  }
}
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const source = JSON.parse(readFileSync(path.join(cli, 'package.json'), 'utf8'));
const bundle = await rolldown({
  input: path.join(cli, 'dist/main.js'),
  platform: 'node',
  // systeminformation requires macOS-only optional helpers inside platform checks; they are never present here.
  external: ['osx-temperature-sensor', 'electron'],
  logLevel: 'warn',
});
await bundle.write({
  dir: path.join(stage, 'dist'),
  format: 'esm',
  entryFileNames: 'main.js',
  chunkFileNames: 'chunks/[name]-[hash].js',
});
await bundle.close();
cpSync(path.join(cli, 'dist/version-line.js'), path.join(stage, 'dist/version-line.js'));
cpSync(path.join(cli, 'bin/run.js'), path.join(stage, 'bin/run.js'));
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
  files: ['bin', 'dist', 'renderer', 'man', 'README.md'],
  oclif: source.oclif,
};
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The man page comes from the bundled CLI itself, so it describes exactly what ships.
mkdirSync(path.join(stage, 'man'), { recursive: true });
const man = execFileSync(process.execPath, [path.join(stage, 'bin/run.js'), 'man'], { encoding: 'utf8' });
writeFileSync(path.join(stage, 'man/encplan.1'), man);

const packed = execFileSync(
  'npm',
  ['pack', stage, '--pack-destination', outDir, '--json', '--loglevel=error'],
  { encoding: 'utf8' },
);
const [{ filename }] = JSON.parse(packed);
process.stdout.write(`${path.join(outDir, filename)}\n`);
