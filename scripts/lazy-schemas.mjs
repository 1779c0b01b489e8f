// Builds the core's module-level zod schemas on first use instead of when the core is imported (issue 28).
//
// Importing the core built every schema of domain/, contract/, rules/ … (2,104 zod instances), the largest
// share of the core's module bodies in a CPU profile of `assess DISK --json` (docs/performance.md), though such a
// run reads few of them: it builds the facts, plans and prints them without validating them. This rolldown plugin
// rewrites, in each module of packages/core/dist, every schema-building call that runs when the module is
// evaluated (the outermost one: `z.object(…)`, `z.enum(…).optional()`, `deviceSchema.extend(…)`,
// `envelopeSchema(…)`, also inside another call's arguments, never inside a function) as
// `lazySchema(() => …)` (scripts/lazy-schema-runtime.mjs): an object that becomes that schema when something
// first reads it. The source stays as it is (no churn in ~50 modules, and a schema added tomorrow is lazy too);
// `npm run schema`'s drift check, which generates every JSON Schema from the bundled CLI, and the e2e tests run
// the result; tests/cli-e2e/bundle-transforms.test.ts checks the rewrite and the runtime.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'rolldown/parseAst';
import { applyEdits } from './ast-walk.mjs';

const RUNTIME = fileURLToPath(new URL('./lazy-schema-runtime.mjs', import.meta.url));
const HELPER = '__encplanLazySchema';

/** zod's functions and methods that return something other than a schema (and so are never deferred). */
const NOT_SCHEMAS = new Set([
  'parse',
  'safeParse',
  'parseAsync',
  'safeParseAsync',
  'spa',
  'encode',
  'decode',
  'safeEncode',
  'safeDecode',
  'isOptional',
  'isNullable',
  'toJSONSchema',
  'config',
  'registry',
  'treeifyError',
  'prettifyError',
  'flattenError',
  'formatError',
]);

/** Whether a binding holds a schema: named `…Schema`, or a constant of this module that is one. */
const isSchemaName = (name, zod) => /Schema$/.test(name) || zod.schemas.has(name);

/**
 * Whether `node` builds a schema: a call of zod's (`z.object(…)`, or a function imported from zod by name), a call
 * of a `…Schema` function (`envelopeSchema(…)`), or a schema method called on one of these or on a `…Schema`
 * binding (`deviceSchema.extend(…)`, `z.enum(…).optional()`), with no property read in between (so
 * `fooSchema.options.filter(…)` is not one).
 */
function buildsSchema(node, zod) {
  if (node.type !== 'CallExpression') {
    return false;
  }
  const { callee } = node;
  if (callee.type === 'Identifier') {
    return (
      (zod.functions.has(callee.name) || isSchemaName(callee.name, zod)) && !NOT_SCHEMAS.has(callee.name)
    );
  }
  if (callee.type !== 'MemberExpression' || callee.computed || NOT_SCHEMAS.has(callee.property.name)) {
    return false;
  }
  const { object } = callee;
  return object.type === 'Identifier'
    ? zod.namespaces.has(object.name) || isSchemaName(object.name, zod)
    : buildsSchema(object, zod);
}

/** The outermost schema-building calls in `node` that run when the module is evaluated (not in a function). */
function schemaCalls(node, zod, found = []) {
  if (node === null || typeof node !== 'object') {
    return found;
  }
  if (Array.isArray(node)) {
    node.forEach((child) => schemaCalls(child, zod, found));
    return found;
  }
  if (buildsSchema(node, zod)) {
    found.push(node);
    return found;
  }
  if (/Function|Class/.test(node.type)) {
    return found;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'parent' && value !== null && typeof value === 'object') {
      schemaCalls(value, zod, found);
    }
  }
  return found;
}

/** `code` (one ES module) with its top-level schemas built on first use; `code` itself if it builds none. */
export function lazySchemas(code, runtime = RUNTIME) {
  const ast = parseAst(code);
  const zod = { namespaces: new Set(), functions: new Set(), schemas: new Set() };
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration' && node.source.value === 'zod' && node.importKind !== 'type') {
      for (const specifier of node.specifiers) {
        const imported = specifier.type === 'ImportSpecifier' ? specifier.imported.name : null;
        if (specifier.type === 'ImportNamespaceSpecifier' || imported === 'z') {
          zod.namespaces.add(specifier.local.name);
        } else if (imported !== null && /^[a-z]/.test(imported)) {
          zod.functions.add(specifier.local.name);
        }
      }
    }
  }
  const edits = [];
  for (const statement of ast.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type !== 'VariableDeclaration') {
      continue;
    }
    for (const { id, init } of declaration.declarations) {
      const calls = schemaCalls(init, zod);
      if (calls[0] === init && id.type === 'Identifier') {
        zod.schemas.add(id.name);
      }
      for (const call of calls) {
        edits.push({ start: call.start, end: call.start, text: `/* @__PURE__ */ ${HELPER}(() => (` });
        edits.push({ start: call.end, end: call.end, text: '))' });
      }
    }
  }
  if (edits.length === 0) {
    return code;
  }
  const header = `import { lazySchema as ${HELPER} } from ${JSON.stringify(runtime.split(path.sep).join('/'))};\n`;
  return header + applyEdits(code, edits);
}

/** The rolldown plugin: {@link lazySchemas} on every module of the core's tsc output. */
export function lazySchemasPlugin(coreDist) {
  const prefix = `${path.resolve(coreDist)}${path.sep}`;
  return {
    name: 'encplan-lazy-schemas',
    transform: {
      filter: { id: /\.js$/ },
      handler(code, id) {
        return id.startsWith(prefix) ? { code: lazySchemas(code), map: null } : null;
      },
    },
  };
}
