import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { REPO_ROOT } from '../support/fake-tools.js';

// What scripts/bundle-cli.mjs does to the bundle after rolldown wrote it (start-up, issue 28): module bodies
// written as `function` expressions V8 compiles with the file (scripts/eager-compile.mjs), and the source in
// ASCII alone (scripts/ascii-source.mjs). Both must leave the program meaning what it meant. And while bundling,
// the core's module-level zod schemas are made to be built on first use (scripts/lazy-schemas.mjs).
type Transform = (code: string) => string;
const load = async (file: string): Promise<Record<string, Transform>> =>
  (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', file)).href)) as Record<string, Transform>;
const { markEagerFunctions } = (await load('eager-compile.mjs')) as { markEagerFunctions: Transform };
const { asciiSource } = (await load('ascii-source.mjs')) as { asciiSource: Transform };
const { builtinsWithoutFacade } = (await load('builtin-imports.mjs')) as { builtinsWithoutFacade: Transform };
const { lazySchemas } = (await load('lazy-schemas.mjs')) as {
  lazySchemas: (code: string, runtime?: string) => string;
};
const { lazySchema } = (await load('lazy-schema-runtime.mjs')) as unknown as {
  lazySchema: <Schema extends object>(build: () => Schema) => Schema;
};

/** What a program leaves in its `result` variable. */
const evaluate = (code: string): unknown =>
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluating the transformed program is the check
  (new Function(`${code}\nreturn result;`) as () => unknown)();

const RUNTIME = `
  const __commonJSMin = (cb, mod) => () => (mod || (cb((mod = { exports: {} }).exports, mod, mod.exports), cb = null), mod.exports);
  const __esmMin = (fn, res) => () => (fn && (res = fn(fn = 0)), res);
  const $constructor = (name, init) => { const inst = {}; init(inst, { name }); return inst; };
`;

describe('eager-compile: module bodies as function expressions', () => {
  it('rewrites the CommonJS, lazy-ESM and zod constructor arrows, and the program gives the same', () => {
    const program = `${RUNTIME}
      const require_a = __commonJSMin(((exports, module) => { module.exports = { answer: 42, inner() { return typeof this; } }; }));
      const init_b = __esmMin((() => { return 'b'; }));
      const schema = $constructor('S', (inst, def) => { inst.name = def.name; });
      const result = [require_a().answer, require_a().inner(), init_b(), schema.name];`;
    const rewritten = markEagerFunctions(program);
    expect(rewritten).toContain('__commonJSMin(((function (exports, module) {');
    expect(rewritten).toContain('__esmMin(((function () {');
    expect(rewritten).toContain("$constructor('S', (function (inst, def) {");
    expect(evaluate(rewritten)).toEqual(evaluate(program));
    expect(evaluate(rewritten)).toEqual([42, 'object', 'b', 'S']);
  });

  it('leaves an arrow whose own this, arguments or new.target would change meaning, and async or expression bodies', () => {
    for (const body of [
      '(() => { return this; })',
      '(() => { return arguments.length; })',
      '(() => { return new.target; })',
      '(async () => { return 1; })',
      '(() => 1)',
    ]) {
      const program = `${RUNTIME} function outer() { return __esmMin(${body}); }`;
      expect(markEagerFunctions(program)).toBe(program);
    }
    // A nested function's own `this` is not the arrow's: the arrow is rewritten.
    expect(markEagerFunctions('__esmMin((() => { function g() { return this; } }));')).toContain(
      '(function () {',
    );
  });
});

describe('ascii-source: the bundle in ASCII alone', () => {
  it('escapes strings, templates, regular expressions, identifiers and comments to the same values', () => {
    const program = String.raw`
      // a comment with – and …
      const café = "naïve … \… 😀";
      const template = ${'`'}${'$'}{café} × ${'`'};
      const plain = /[–—]+|😀/g;
      const unicode = /[😀…]/u;
      const result = [café, template, plain.source.length, 'a–—b'.replace(plain, '-'), unicode.test('😀'), unicode.test('…'), '😀'.replace(plain, 'x')];`;
    const escaped = asciiSource(program);
    expect(escaped).not.toMatch(/[\u0080-\u{10ffff}]/u);
    const [value, template, , dashes, astral, ellipsis, replaced] = evaluate(escaped) as unknown[];
    const original = evaluate(program) as unknown[];
    expect([value, template, dashes, astral, ellipsis, replaced]).toEqual([
      original[0],
      original[1],
      original[3],
      original[4],
      original[5],
      original[6],
    ]);
    expect(value).toBe('naïve … … 😀');
  });

  it("leaves a tagged template's text alone: its raw form is part of its meaning", () => {
    const program = 'const result = String.raw`a…b`;';
    expect(asciiSource(program)).toBe(program);
    expect(evaluate(asciiSource(program))).toBe('a…b');
  });

  it('returns ASCII source untouched', () => {
    expect(asciiSource('const a = "plain";')).toBe('const a = "plain";');
  });
});

describe('lazy-schemas: module-level zod schemas built on first use', () => {
  const LAZY = '/* @__PURE__ */ __encplanLazySchema(() => (';
  const rewrite = (code: string) => lazySchemas(code, '/runtime.mjs');

  it('defers each top-level schema-building call, the outermost one, and imports the runtime', () => {
    const module = [
      "import { z } from 'zod';",
      "import { baseSchema } from './base.js';",
      'const a = z.object({ n: z.number() }).strict();',
      'export const b = a.extend({ s: z.string() });',
      'export const c = baseSchema.extend({ d: z.boolean() }).optional();',
      "export const d = define('doc', [1, 0], envelopeSchema('x', a), aSchema.extend({}));",
    ].join('\n');
    const out = rewrite(module);
    expect(out.split('\n')[0]).toBe('import { lazySchema as __encplanLazySchema } from "/runtime.mjs";');
    expect(out).toContain(`const a = ${LAZY}z.object({ n: z.number() }).strict()));`);
    expect(out).toContain(`export const b = ${LAZY}a.extend({ s: z.string() })));`);
    expect(out).toContain(`export const c = ${LAZY}baseSchema.extend({ d: z.boolean() }).optional()));`);
    expect(out).toContain(
      `define('doc', [1, 0], ${LAZY}envelopeSchema('x', a))), ${LAZY}aSchema.extend({}))));`,
    );
  });

  it('leaves what is not a schema: property reads, parses, JSON Schemas, function bodies, modules without zod', () => {
    for (const line of [
      'const names = fooSchema.options.filter((name) => name !== "x");',
      'const keys = Object.keys(rowSchema.shape);',
      'const parsed = fooSchema.safeParse(input);',
      'const json = z.toJSONSchema(fooSchema);',
      'function later() { return z.object({}); }',
      'const build = () => z.string();',
      'let count = 0;',
    ]) {
      const module = `import { z } from 'zod';\n${line}`;
      expect(rewrite(module)).toBe(module);
    }
    expect(rewrite("import { z } from 'zod';\nconst a = fooSchema.extend({});")).toContain(
      `const a = ${LAZY}fooSchema.extend({})));`,
    );
  });

  it('builds the schema on the first read, once, and it then behaves as the schema itself', () => {
    let builds = 0;
    const color = lazySchema(() => {
      builds += 1;
      return z.enum(['red', 'green']);
    });
    const point = lazySchema(() => {
      builds += 1;
      return z.object({ x: z.number().int(), color: color.optional() });
    });
    const maybe = lazySchema(() => {
      builds += 1;
      return point.nullable();
    });
    const pair = lazySchema(() => {
      builds += 1;
      return z.object({ a: point, b: maybe });
    });
    expect(builds).toBe(0);
    expect(pair.safeParse({ a: { x: 1 }, b: null }).success).toBe(true);
    expect(builds).toBe(4);
    expect(
      pair.safeParse({ a: { x: 1.5 }, b: { x: 2, color: 'blue' } }).error?.issues.map((issue) => issue.path),
    ).toEqual([
      ['a', 'x'],
      ['b', 'color'],
    ]);
    expect(color.options).toEqual(['red', 'green']);
    expect(point instanceof z.ZodObject).toBe(true);
    expect('shape' in point).toBe(true);
    expect(z.toJSONSchema(pair)).toEqual(
      z.toJSONSchema(
        z.object({
          a: z.object({ x: z.number().int(), color: z.enum(['red', 'green']).optional() }),
          b: z.object({ x: z.number().int(), color: z.enum(['red', 'green']).optional() }).nullable(),
        }),
      ),
    );
    expect(builds).toBe(4);
  });

  it('leaves the schema with fast properties (V8 would keep an Object.create(null) one as a dictionary)', () => {
    const runtime = pathToFileURL(path.join(REPO_ROOT, 'scripts/lazy-schema-runtime.mjs')).href;
    const program = [
      "import { z } from 'zod';",
      `import { lazySchema } from '${runtime}';`,
      'const schema = lazySchema(() => z.object({ a: z.string() }));',
      "schema.parse({ a: 'x' });",
      'process.stdout.write(String(%HasFastProperties(schema)));',
    ].join('\n');
    const run = spawnSync(
      process.execPath,
      ['--allow-natives-syntax', '--input-type=module', '-e', program],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      },
    );
    expect({ stdout: run.stdout, stderr: run.stderr }).toEqual({ stdout: 'true', stderr: '' });
  });
});

describe("builtin-imports: Node's built-ins through getBuiltinModule, without an ES namespace", () => {
  it('rewrites named, aliased, default and mixed imports to the same bindings', () => {
    const program = [
      'import { readFileSync, constants as fsConstants } from "node:fs";',
      'import path, { sep } from "node:path";',
      'import os from "node:os";',
      'import { default as osAgain, "EOL" as eol } from "node:os";',
      'import { something } from "./chunk.js";',
      'import * as url from "node:url";',
      'import "node:tty";',
    ].join('\n');
    const out = builtinsWithoutFacade(program);
    const module = (name: string) => `globalThis.process.getBuiltinModule("node:${name}")`;
    expect(out.split('\n')).toEqual([
      `const { readFileSync, constants: fsConstants } = ${module('fs')};`,
      `const path = ${module('path')}, { sep } = path;`,
      `const os = ${module('os')};`,
      `const osAgain = ${module('os')}, { EOL: eol } = osAgain;`,
      'import { something } from "./chunk.js";',
      'import * as url from "node:url";',
      'import "node:tty";',
    ]);
  });

  it('gives the very objects the imports gave, and reads the global process even where a chunk imports its own', async () => {
    const check = [
      'import { readFileSync, constants as c } from "node:fs";',
      'import process from "node:process";',
      'import path, { join } from "node:path";',
      'export const result = [readFileSync, c, process, path, join];',
    ].join('\n');
    const imported = (await import(`data:text/javascript,${encodeURIComponent(check)}`)) as {
      result: unknown[];
    };
    const rewritten = (await import(
      `data:text/javascript,${encodeURIComponent(builtinsWithoutFacade(check))}`
    )) as { result: unknown[] };
    expect(builtinsWithoutFacade(check)).not.toContain('from "node:');
    expect(rewritten.result).toHaveLength(5);
    rewritten.result.forEach((value, index) => expect(value).toBe(imported.result[index]));
  });
});

describe('the built bundle', () => {
  const bundle = path.join(REPO_ROOT, 'packages/cli/bundle');
  const files = ['', 'chunks']
    .flatMap((folder) => readdirSync(path.join(bundle, folder)).map((name) => path.join(folder, name)))
    .filter((file) => file.endsWith('.js'));

  it('is ASCII in every file, so that V8 keeps each source as a one-byte string', () => {
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const source = readFileSync(path.join(bundle, file), 'utf8');
      expect({ file, ascii: !/[\u0080-\u{10ffff}]/u.test(source) }).toEqual({ file, ascii: true });
    }
  });

  it('keeps no JSDoc comment (V8 keeps each source in memory), but licences, module names and pure annotations', () => {
    for (const file of files) {
      const source = readFileSync(path.join(bundle, file), 'utf8');
      const jsdoc = [...source.matchAll(/\/\*\*\s[\s\S]*?\*\//gu)].filter(
        ([comment]) => !/@license|@preserve/u.test(comment),
      );
      expect({ file, jsdoc: jsdoc.length }).toEqual({ file, jsdoc: 0 });
    }
    const core = files.map((file) => readFileSync(path.join(bundle, file), 'utf8')).join('\n');
    expect(core).toMatch(/^\/\/ packages\/core\/dist\/domain\//mu);
    expect(core).toContain('/* @__PURE__ */');
  });

  it("imports no Node built-in as an ES module (its namespace would load each lazy export's modules)", () => {
    for (const file of files) {
      const source = readFileSync(path.join(bundle, file), 'utf8');
      const esImports = parseAst(source).body.filter(
        (node) =>
          node.type === 'ImportDeclaration' &&
          String(node.source.value).startsWith('node:') &&
          node.specifiers.length > 0 &&
          node.specifiers.every((specifier) => specifier.type !== 'ImportNamespaceSpecifier'),
      );
      expect({ file, esImports: esImports.length }).toEqual({ file, esImports: 0 });
    }
  });

  it('wraps CommonJS module bodies in function expressions (an arrow only where it binds this)', () => {
    const sources = files.map((file) => readFileSync(path.join(bundle, file), 'utf8')).join('\n');
    const eager = sources.match(/__commonJSMin\(\(\(function \(/gu) ?? [];
    const arrows = sources.match(/__commonJSMin\(\(\([\w$, ]*\) => \{/gu) ?? [];
    expect(eager.length).toBeGreaterThan(100);
    expect(arrows.length).toBeLessThan(eager.length / 10);
  });
});

describe("the core's modules, which scripts/bundle-cli.mjs tells rolldown are side-effect free", () => {
  // rolldown then leaves a module none of whose exports an entry uses out of that entry's chunks (a one-disk
  // `assess` does not load the fleet report). That holds only while evaluating a core module does nothing but
  // declare: imports, exports, functions, classes and constants whose top-level code (outside any function)
  // assigns nothing, registers nothing and touches no global.
  const dist = path.join(REPO_ROOT, 'packages/core/dist');
  const modules = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.js'),
  );
  const DECLARATIONS = new Set([
    'ImportDeclaration',
    'ExportAllDeclaration',
    'ExportNamedDeclaration',
    'ExportDefaultDeclaration',
    'FunctionDeclaration',
    'ClassDeclaration',
    'VariableDeclaration',
  ]);
  const MUTATING_METHODS =
    /^(push|unshift|splice|set|add|delete|clear|on|once|register|assign|defineProperty)$/;
  const GLOBALS = new Set(['process', 'globalThis', 'console', 'window', 'document']);
  type Node = { type: string; start: number; [key: string]: unknown };
  /** What the module's evaluation would do besides declaring, as `type at offset`. */
  function effectsOf(code: string): string[] {
    const found: string[] = [];
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object') {
        return;
      }
      if (Array.isArray(node)) {
        node.forEach(visit);
        return;
      }
      const { type, start } = node as Node;
      if (/Function|MethodDefinition/.test(type)) {
        return;
      }
      const callee = (node as { callee?: Node & { property?: { name?: string } } }).callee;
      if (
        /AssignmentExpression|UpdateExpression/.test(type) ||
        (type === 'Identifier' && GLOBALS.has((node as { name?: string }).name ?? '')) ||
        (type === 'CallExpression' && MUTATING_METHODS.test(callee?.property?.name ?? '')) ||
        (type === 'UnaryExpression' && (node as { operator?: string }).operator === 'delete')
      ) {
        found.push(`${type} at ${String(start)}`);
      }
      for (const [key, value] of Object.entries(node)) {
        if (key !== 'parent') {
          visit(value);
        }
      }
    };
    for (const statement of parseAst(code).body as unknown as Node[]) {
      const voidExpression = statement.expression as { operator?: string } | undefined;
      if (!DECLARATIONS.has(statement.type) && voidExpression?.operator !== 'void') {
        found.push(`${statement.type} at ${String(statement.start)}`);
      }
      visit(statement);
    }
    return found;
  }

  it('declare and do nothing else when evaluated', () => {
    expect(modules.length).toBeGreaterThan(100);
    for (const module of modules) {
      expect({ module, effects: effectsOf(readFileSync(path.join(dist, module), 'utf8')) }).toEqual({
        module,
        effects: [],
      });
    }
  });

  it('the check sees an effect', () => {
    expect(effectsOf('export const a = [];\nregistry.push(a);')).toEqual([
      'ExpressionStatement at 21',
      'CallExpression at 21',
    ]);
    expect(effectsOf("export const b = (process.env.X = '1');")).not.toEqual([]);
    expect(effectsOf('const m = new Map([[1, 2]]).set(3, 4);')).not.toEqual([]);
    expect(effectsOf('export function f() { globalThis.x = 1; }\nvoid f;')).toEqual([]);
  });
});
