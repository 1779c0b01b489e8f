#!/usr/bin/env node
// Bundles the CLI with rolldown into packages/cli/bundle/ (or OUT_DIR): what bin/run.js runs, in the workspace
// and in the packed release alike (scripts/pack-release.mjs calls bundleCli with its own directory). Node then
// reads a few files instead of ~470 (tsc's one file per module, zod's locales, oclif's helpers), and rolldown
// leaves out what nothing imports. Run after `tsc -b` (npm run build does). Usage: node scripts/bundle-cli.mjs
// [OUT_DIR]. Entries:
//   oclif-entry.js   oclif and encplan's help class: what bin/run.js loads first (`--help` is answered from
//                    oclif.manifest.json)
//   main.js          every command, the core and the `encplan ui` server: loaded by oclif to run a command
//   version-line.js  the version string alone, for `--version`
//   help-fast.js     help from pre-rendered text without oclif (src/help-fast.ts, scripts/help-text.mjs)
//   direct.js        `assess DISK …` without oclif when it parses the same (src/direct.ts; the run in a chunk)
// `encplan ui`'s server (and what only it needs) stays in a chunk of its own that is loaded when `ui` runs.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { asciiSource } from './ascii-source.mjs';
import { builtinsWithoutFacade } from './builtin-imports.mjs';
import { markEagerFunctions } from './eager-compile.mjs';
import { lazySchemasPlugin } from './lazy-schemas.mjs';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/cli');
const coreDist = `${path.join(cli, '../core/dist')}${path.sep}`;

/** Writes the bundle into `outDir` (emptied first). */
export async function bundleCli(outDir = path.join(cli, 'bundle')) {
  rmSync(outDir, { recursive: true, force: true });
  const bundle = await rolldown({
    input: {
      main: path.join(cli, 'dist/main.js'),
      'oclif-entry': path.join(cli, 'dist/oclif-entry.js'),
      'version-line': path.join(cli, 'dist/version-line.js'),
      'help-fast': path.join(cli, 'dist/help-fast.js'),
      direct: path.join(cli, 'dist/direct.js'),
    },
    platform: 'node',
    // systeminformation requires macOS-only optional helpers inside platform checks; they are never present
    // here. oclif requires typescript only to read a tsconfig.json in development mode (inside a try): left
    // in, its 8 MiB would be read and parsed at every start.
    external: ['osx-temperature-sensor', 'electron', 'typescript'],
    // The core's module-level zod schemas are built on first use (scripts/lazy-schemas.mjs).
    plugins: [lazySchemasPlugin(path.join(cli, '../core/dist'))],
    // The core's modules do nothing when evaluated but declare (its top-level code is constants, tables and
    // schemas: tests/cli-e2e/bundle-transforms.test.ts checks), so a module none of whose exports an entry uses
    // is left out of that entry's chunks. Otherwise importing `@encplan/core` reached every module its index
    // re-exports: `assess DISK` loaded the fleet report, the saved-assessment readers and node:readline with
    // the shared chunk (issue 28).
    treeshake: { moduleSideEffects: (id) => (id.startsWith(coreDist) ? false : undefined) },
    logLevel: 'warn',
  });
  const { output } = await bundle.write({
    dir: outDir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    // Without the JSDoc comments (licences and /* @__PURE__ */ kept): V8 keeps each script's source in memory,
    // and they were a fifth of it (the core's chunk 1.37 -> 1.09 MB; an assessment's peak RSS -1 MiB).
    comments: { legal: true, annotation: true, jsdoc: false },
    // The text-width libraries serve the help (oclif-entry) and core's text renderer alike: a chunk of their
    // own, so that loading them for `--help` does not evaluate the core that shares them.
    codeSplitting: {
      groups: [
        {
          name: 'text-width',
          test: /node_modules[\\/](wrap-ansi|string-width|strip-ansi|ansi-regex|ansi-styles|emoji-regex|is-fullwidth-code-point)[\\/]/,
        },
      ],
    },
  });
  await bundle.close();
  // Module bodies compiled with their file, so that Node's compile cache holds them (scripts/eager-compile.mjs),
  // Node's built-ins taken without an ES namespace (scripts/builtin-imports.mjs), and the source in ASCII, which
  // V8 keeps at half the size (scripts/ascii-source.mjs). After writing: rolldown prints a chunk again after its
  // renderChunk hook, which would undo the escapes.
  for (const { fileName } of output) {
    const file = path.join(outDir, fileName);
    writeFileSync(file, asciiSource(builtinsWithoutFacade(markEagerFunctions(readFileSync(file, 'utf8')))));
  }
  return outDir;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = await bundleCli(process.argv[2] === undefined ? undefined : path.resolve(process.argv[2]));
  process.stdout.write(`${path.relative(process.cwd(), outDir)}: CLI bundle\n`);
}
