#!/usr/bin/env node
// Fails when a module exports a name that no other file imports: the export keyword then only widens the
// module's surface (knip's "unused exports" rule; knip itself cannot be locked for `npm ci` here, see
// docs/architecture.md). Reads the sources as syntax trees with the TypeScript compiler already in the
// workspace: no type checking, so it takes a second or two.
//
// A name counts as used when another file imports it (`import { x }`, `import type { x }`,
// `export { x } from`), imports the whole module (`import * as m`, `export * from`, `import('…')`), or when the
// module is an entry point whose exports are read by a framework (oclif commands, the public API barrels).
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The tree to read: this repository, or the folder given as the first argument (the checker's own test).
const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const SKIP_DIRS = new Set([
  'node_modules',
  'dist',
  'fixtures',
  'test-artifacts',
  '.tools',
  '.git',
  'ansible',
  'schemas',
  'docs',
  'release',
]);

/** Modules whose exports are read by something other than an import: checked elsewhere or by a framework. */
const ENTRY_POINTS = [
  // The curated public API: tests/architecture's public-api test keeps every one of its names used.
  /^packages\/core\/src\/index\.ts$/,
  /^packages\/core\/src\/node\/index\.ts$/,
  /^packages\/desktop\/src\/server\/index\.ts$/,
  // oclif loads each command module and its hooks by path.
  /^packages\/cli\/src\/commands\//,
  /^packages\/cli\/src\/hooks\//,
  /^packages\/cli\/src\/(main|oclif-entry)\.ts$/,
  // Electron's main and preload entries, and the renderer's entry, are loaded by path.
  /^packages\/desktop\/src\/main\/(main|preload)\.ts$/,
  /^packages\/desktop\/src\/renderer\/src\/main\.ts$/,
  // Node's module-hooks file is registered by path (module.register).
  /^tests\/support\/hold-import\/hooks\.mjs$/,
  // Tests and tool configs export nothing anybody imports by design.
  /\.test\.ts$/,
  /(^|\/)[\w.-]+\.config\.(ts|mts|mjs)$/,
];

const PACKAGE_ENTRIES = new Map([
  ['@encplan/core', 'packages/core/src/index.ts'],
  ['@encplan/core/node', 'packages/core/src/node/index.ts'],
  ['@encplan/desktop/server', 'packages/desktop/src/server/index.ts'],
]);

function walk(directory, found) {
  if (!existsSync(directory)) {
    return found;
  }
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) {
      continue;
    }
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      walk(path, found);
    } else if (/\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

const files = walk(root, []);
const relativeOf = (path) => relative(root, path).split(sep).join('/');

function resolveSpecifier(fromFile, specifier) {
  const packaged = PACKAGE_ENTRIES.get(specifier);
  if (packaged !== undefined) {
    return packaged;
  }
  if (!specifier.startsWith('.')) {
    return null;
  }
  // A script may import a built module (packages/X/dist/…/m.js): that is the source packages/X/src/…/m.ts.
  const base = resolve(dirname(join(root, fromFile)), specifier).replace(
    /([/\\]packages[/\\][\w-]+[/\\])dist([/\\])/,
    '$1src$2',
  );
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) {
      return relativeOf(candidate);
    }
  }
  return null;
}

/** @type {Map<string, Map<string, number>>} file → exported name → line */
const exported = new Map();
/** @type {Map<string, Set<string>>} file → names other files import from it ('*' = all) */
const imported = new Map();
const markImported = (file, name) => {
  if (file === null) {
    return;
  }
  const names = imported.get(file) ?? new Set();
  names.add(name);
  imported.set(file, names);
};

const hasExportModifier = (node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);

for (const path of files) {
  const file = relativeOf(path);
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const names = new Map();
  const usedInFile = (name) => (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1;
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveSpecifier(file, node.moduleSpecifier.text);
      const clause = node.importClause;
      if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) {
        markImported(target, '*');
      }
      if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
        for (const element of clause.namedBindings.elements) {
          markImported(target, (element.propertyName ?? element.name).text);
        }
      }
    } else if (ts.isExportDeclaration(node)) {
      const target =
        node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
          ? resolveSpecifier(file, node.moduleSpecifier.text)
          : null;
      if (node.exportClause === undefined) {
        markImported(target, '*');
      } else if (ts.isNamedExports(node.exportClause)) {
        for (const element of node.exportClause.elements) {
          if (target !== null) {
            markImported(target, (element.propertyName ?? element.name).text);
          }
          names.set(element.name.text, lineOf(element));
        }
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) {
        markImported(resolveSpecifier(file, argument.text), '*');
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const target = resolveSpecifier(file, node.argument.literal.text);
      markImported(target, node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*');
    } else if (node.parent === source && hasExportModifier(node) && !isDefault(node)) {
      if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) {
            names.set(declaration.name.text, lineOf(declaration));
          }
        }
      } else if (
        (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
        usedInFile(node.name.text)
      ) {
        // A type that names a part of this module's own exported signatures stays exportable, so that a caller
        // can name what it receives (knip's ignoreExportsUsedInFile, for types only).
      } else if ('name' in node && node.name !== undefined && ts.isIdentifier(node.name)) {
        names.set(node.name.text, lineOf(node));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  exported.set(file, names);
}

const unused = [];
for (const [file, names] of exported) {
  if (ENTRY_POINTS.some((pattern) => pattern.test(file)) || file.startsWith('scripts/')) {
    continue;
  }
  const used = imported.get(file) ?? new Set();
  if (used.has('*')) {
    continue;
  }
  for (const [name, line] of names) {
    if (!used.has(name)) {
      unused.push(`${file}:${line} ${name}`);
    }
  }
}

if (unused.length > 0) {
  process.stderr.write(
    `${unused.length} exported name(s) that no other file imports (drop the export keyword, or delete the code):\n` +
      unused.map((entry) => `  ${entry}\n`).join(''),
  );
  process.exit(1);
}
process.stdout.write(`unused exports: none (${files.length} files read)\n`);
