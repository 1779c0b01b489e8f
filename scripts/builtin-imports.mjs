// Takes Node's built-in modules with `process.getBuiltinModule()` instead of `import … from "node:…"` in the
// bundle (Node >= 22.3; the CLI needs >= 22.12).
//
// An ES import of a built-in makes Node build the module's ES namespace, and to fill it Node reads every
// export, including the lazy ones: `import { readFileSync } from "node:fs"` loads fs/promises (and with it
// readline, fs watchers, directories) and the stream modules for `fs.ReadStream`; `import { promisify } from
// "node:util"` loads 12 more, worker_threads among them. getBuiltinModule returns the module's exports object, as
// `require` would, and reads nothing. Measured on Node 22.23 (docs/performance.md, issue 28): a script that reads
// one file with `import { readFileSync } from "node:fs"` costs ~5 ms more CPU than with getBuiltinModule.
//
// Each top-level `import d, { a, b as c } from "node:x"` becomes `const d = <module>, { a, b: c } = d;` where
// it stood (a built-in has no side effects to order). A namespace import (`import * as`) and a bare `import
// "node:x"` are left as they are. `globalThis.process`, so that a chunk that imports `process` itself still
// reads the global.
import { parseAst } from 'rolldown/parseAst';
import { applyEdits } from './ast-walk.mjs';

const nameOf = (node) => (node.type === 'Identifier' ? node.name : node.value);

/** `source` (an ES module) with its static imports of `node:` built-ins taken through getBuiltinModule. */
export function builtinsWithoutFacade(source) {
  const edits = [];
  for (const node of parseAst(source).body) {
    if (node.type !== 'ImportDeclaration' || !String(node.source.value).startsWith('node:')) {
      continue;
    }
    const { specifiers } = node;
    if (specifiers.length === 0 || specifiers.some((s) => s.type === 'ImportNamespaceSpecifier')) {
      continue;
    }
    const module = `globalThis.process.getBuiltinModule(${JSON.stringify(node.source.value)})`;
    // `import { default as x }` is the default import written another way.
    const isDefault = (s) => s.type === 'ImportDefaultSpecifier' || nameOf(s.imported) === 'default';
    const whole = specifiers.filter(isDefault).map((s) => s.local.name);
    const named = specifiers
      .filter((s) => !isDefault(s))
      .map((s) => {
        const imported = nameOf(s.imported);
        const key = /^[A-Za-z_$][\w$]*$/.test(imported) ? imported : JSON.stringify(imported);
        return imported === s.local.name ? imported : `${key}: ${s.local.name}`;
      });
    const [first, ...aliases] = whole;
    const declarations =
      first === undefined
        ? [`{ ${named.join(', ')} } = ${module}`]
        : [
            `${first} = ${module}`,
            ...aliases.map((alias) => `${alias} = ${first}`),
            ...(named.length > 0 ? [`{ ${named.join(', ')} } = ${first}`] : []),
          ];
    edits.push({ start: node.start, end: node.end, text: `const ${declarations.join(', ')};` });
  }
  return applyEdits(source, edits);
}
