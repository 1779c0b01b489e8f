import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The core's layer order (packages/core/layers.json) checked three ways: the docs table says the same, no
// core import goes up the list except the known issue-9 violations, and no module graph has a cycle except
// the known ones below. eslint.config.js enforces the same order file by file while editing.
const root = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const coreSrc = path.join(root, 'packages/core/src');

interface Layer {
  readonly name: string;
  readonly paths: readonly string[];
  readonly role: string;
}
interface KnownViolation {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}
const { layers, knownViolations } = JSON.parse(
  readFileSync(path.join(root, 'packages/core/layers.json'), 'utf8'),
) as {
  layers: readonly Layer[];
  knownViolations: readonly KnownViolation[];
};

/**
 * Module cycles that exist today and are being removed elsewhere for issue 9. Each entry is the sorted files
 * of one cycle, relative to the repository. The lead empties this list after merging; a listed cycle that no
 * longer exists fails the test. (The rules ↔ plan cycle of issue 9 item 1 is between layers, not modules:
 * it is a known violation in layers.json.)
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) {
      return entry === 'node_modules' || entry === 'dist' ? [] : sourceFiles(full);
    }
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  '@encplan/core': 'packages/core/src/index.ts',
  '@encplan/core/node': 'packages/core/src/node/index.ts',
  '@encplan/desktop/server': 'packages/desktop/src/server/index.ts',
};

/** Every module of the three packages' sources and the modules it imports (type imports included). */
function importGraph(): Map<string, string[]> {
  const files = ['core', 'cli', 'desktop'].flatMap((name) =>
    sourceFiles(path.join(root, 'packages', name, 'src')),
  );
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const imports = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.flatMap(({ fileName }) => {
        const entry = PACKAGE_ENTRIES[fileName];
        if (entry !== undefined) {
          return [path.join(root, entry)];
        }
        if (!fileName.startsWith('.')) {
          return [];
        }
        const base = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '');
        return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]
          .filter((candidate) => known.has(candidate))
          .slice(0, 1);
      });
    graph.set(file, imports);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one module (or a module importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
        found.push(component.map((file) => path.relative(root, file)).sort());
      }
    }
  };
  for (const node of graph.keys()) {
    if (!index.has(node)) {
      visit(node);
    }
  }
  return found;
}

/** The layer of a core source file (relative to core/src), or -1. */
function layerIndex(relative: string): number {
  return layers.findIndex((layer) =>
    layer.paths.some((entry) => relative === entry || relative.startsWith(`${entry}/`)),
  );
}

function isKnownViolation(from: string, toLayer: string): boolean {
  return knownViolations.some(
    (known) => known.to === toLayer && (known.from === from || layers[layerIndex(from)]?.name === known.from),
  );
}

describe('the core layer list (packages/core/layers.json)', () => {
  it('places every file of core/src in exactly one layer', () => {
    const unplaced = sourceFiles(coreSrc)
      .map((file) => path.relative(coreSrc, file))
      .filter(
        (relative) =>
          layers.filter((layer) =>
            layer.paths.some((entry) => relative === entry || relative.startsWith(`${entry}/`)),
          ).length !== 1,
      );
    expect(unplaced).toEqual([]);
  });

  it('is the layer table of docs/architecture.md, in the same order', () => {
    const docs = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const table = docs.slice(
      docs.indexOf('<!-- core-layers:start -->'),
      docs.indexOf('<!-- core-layers:end -->'),
    );
    const rows = table
      .split('\n')
      .filter((line) => /^\|\s*\d+\s*\|/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map((cells) => [Number(cells[1]), cells[2], cells[3]])).toEqual(
      layers.map((layer, position) => [
        position + 1,
        `\`${layer.name}\``,
        layer.paths.map((entry) => `\`${entry}\``).join(', '),
      ]),
    );
  });

  it('is obeyed: no core module imports a layer above its own (but the known issue-9 violations)', () => {
    const upward: string[] = [];
    const used = new Set<KnownViolation>();
    for (const [file, imports] of importGraph()) {
      if (!file.startsWith(coreSrc)) {
        continue;
      }
      const from = path.relative(coreSrc, file);
      for (const target of imports.filter((imported) => imported.startsWith(coreSrc))) {
        const to = layerIndex(path.relative(coreSrc, target));
        if (to > layerIndex(from)) {
          const toLayer = layers[to]!.name;
          const known = knownViolations.find(
            (violation) =>
              violation.to === toLayer &&
              isKnownViolation(from, toLayer) &&
              (violation.from === from || violation.from === layers[layerIndex(from)]!.name),
          );
          if (known === undefined) {
            upward.push(
              `${from} → ${path.relative(coreSrc, target)} (${layers[layerIndex(from)]!.name} → ${toLayer})`,
            );
          } else {
            used.add(known);
          }
        }
      }
    }
    expect(upward).toEqual([]);
    // A fixed violation leaves the list, so the list only ever shrinks.
    expect(
      knownViolations
        .filter((violation) => !used.has(violation))
        .map((violation) => `${violation.from} → ${violation.to}`),
      'known violations that no longer exist: remove them from layers.json',
    ).toEqual([]);
  });
});

describe('the import graph of core, cli and desktop', () => {
  it('has no cycle (but the known ones being removed for issue 9)', () => {
    const found = cycles(importGraph()).map((cycle) => cycle.join(' ↔ '));
    expect(found.filter((cycle) => !KNOWN_CYCLES.some((known) => known.join(' ↔ ') === cycle))).toEqual([]);
    expect(
      KNOWN_CYCLES.map((known) => known.join(' ↔ ')).filter((known) => !found.includes(known)),
      'known cycles that no longer exist',
    ).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c'].map((file) => path.relative(root, file)).sort()]);
  });
});
