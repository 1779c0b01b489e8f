// Marks the bundle's module bodies for eager compilation, so that Node's compile cache holds their bytecode.
//
// V8 compiles a function lazily, on its first call, unless the parser sees a hint that it will be called at
// once: a `function` expression right after an opening parenthesis ("PIFE", V8's blog "Blazingly fast parsing,
// part 2: lazy parsing", https://v8.dev/blog/preparser). Node's compile cache (module.enableCompileCache, on in
// bin/run.js) stores the code V8 produced when it compiled the file, before it ran: functions compiled later are
// compiled again at every start. rolldown wraps each bundled CommonJS module (oclif, semver, ejs …) in
// `__commonJSMin((exports, module) => { … })` and each lazily initialised ES module in `__esmMin(() => { … })`,
// and zod builds every schema class from `$constructor("Name", (inst, def) => { … })`: arrow functions, which
// get no such hint, so all of them were compiled at every run (the largest share of the time spent "in" the
// rolldown runtime in a CPU profile of `encplan --help`). Rewritten as `(function (exports, module) { … })`
// they are compiled with the file and their code comes from the cache.
//
// Only an arrow whose body cannot tell the difference is rewritten: a block body, not async, and no `this`,
// `arguments`, `super` or `new.target` of its own (they would then mean the function's own, not the enclosing
// scope's). The rest is left as it was.
import { parseAst } from 'rolldown/parseAst';
import { applyEdits, walkAst } from './ast-walk.mjs';

/** The callees whose arrow-function arguments run at once (or, for zod, once per schema class). */
const EAGER_CALLEES = new Set(['__commonJSMin', '__esmMin', '$constructor']);

/** Whether `node` (an arrow's params and body) uses what a `function` would bind differently. */
function bindsLexically(node) {
  if (node === null || typeof node !== 'object') {
    return false;
  }
  if (Array.isArray(node)) {
    return node.some(bindsLexically);
  }
  switch (node.type) {
    case 'ThisExpression':
    case 'Super':
    case 'MetaProperty':
      return true;
    case 'Identifier':
      return node.name === 'arguments';
    case 'FunctionExpression':
    case 'FunctionDeclaration':
      // Its own `this` and `arguments`: what it uses is not the arrow's. Default values of its parameters are
      // evaluated in its own scope too.
      return false;
    default:
      return Object.entries(node).some(([key, value]) => key !== 'parent' && bindsLexically(value));
  }
}

/** `code` with the eligible module-body arrows rewritten as parenthesised function expressions. */
export function markEagerFunctions(code) {
  const edits = [];
  walkAst(parseAst(code), (node) => {
    if (
      node.type === 'CallExpression' &&
      node.callee.type === 'Identifier' &&
      EAGER_CALLEES.has(node.callee.name)
    ) {
      for (const argument of node.arguments) {
        if (
          argument.type === 'ArrowFunctionExpression' &&
          !argument.async &&
          argument.body.type === 'BlockStatement' &&
          !bindsLexically(argument.params) &&
          !bindsLexically(argument.body)
        ) {
          const params = argument.params.map((param) => code.slice(param.start, param.end)).join(', ');
          edits.push({ start: argument.start, end: argument.body.start, text: `(function (${params}) ` });
          edits.push({ start: argument.end, end: argument.end, text: ')' });
        }
      }
    }
  });
  return applyEdits(code, edits);
}
