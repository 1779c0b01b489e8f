import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The public API of core is curated: named exports only, each one documented where it is declared and used
// by the CLI, the desktop or the end-to-end tests: this test holds the two entries to "what the other packages
// use". Unused exports inside modules are caught by scripts/check-unused-exports.mjs (unused-exports.test.ts):
// knip was tried, but its platform-specific optional dependencies could not be locked so that `npm ci` accepts
// the lock file on this machine.
const root = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const ENTRIES = {
  '@encplan/core': 'packages/core/src/index.ts',
  '@encplan/core/node': 'packages/core/src/node/index.ts',
} as const;
type Entry = keyof typeof ENTRIES;

function files(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) {
      return ['node_modules', 'dist', 'out'].includes(entry) ? [] : files(full);
    }
    return /\.(ts|tsx)$/.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

/** The names other packages import from each entry (named imports and re-exports). */
function importedNames(): Record<Entry, Set<string>> {
  const names: Record<Entry, Set<string>> = { '@encplan/core': new Set(), '@encplan/core/node': new Set() };
  const consumers = ['packages/cli', 'packages/desktop', 'tests'].flatMap((directory) =>
    files(path.join(root, directory)),
  );
  for (const file of consumers) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) {
        continue;
      }
      const specifier =
        statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : null;
      if (specifier !== '@encplan/core' && specifier !== '@encplan/core/node') {
        continue;
      }
      const bindings = ts.isImportDeclaration(statement)
        ? statement.importClause?.namedBindings
        : statement.exportClause;
      if (bindings !== undefined && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) {
        bindings.elements.forEach((element) =>
          names[specifier].add((element.propertyName ?? element.name).text),
        );
      }
    }
  }
  return names;
}

const program = ts.createProgram(
  Object.values(ENTRIES).map((entry) => path.join(root, entry)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();

function exportsOf(entry: Entry): { name: string; documented: boolean }[] {
  const source = program.getSourceFile(path.join(root, ENTRIES[entry]))!;
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    return {
      name: exported.name,
      documented: ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim().length > 0,
    };
  });
}

describe.each(Object.keys(ENTRIES) as Entry[])('the public API %s', (entry) => {
  it('is named exports only (no export *)', () => {
    expect(readFileSync(path.join(root, ENTRIES[entry]), 'utf8')).not.toMatch(/export\s+\*/);
  });

  it('exports only what the CLI, the desktop or the e2e tests import', () => {
    const used = importedNames()[entry];
    expect(
      exportsOf(entry)
        .map((exported) => exported.name)
        .filter((name) => !used.has(name)),
    ).toEqual([]);
  });

  it('documents every export (TSDoc where it is declared)', () => {
    expect(
      exportsOf(entry)
        .filter((exported) => !exported.documented)
        .map((exported) => exported.name),
    ).toEqual([]);
  });
});
