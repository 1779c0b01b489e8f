// Preloaded (`node --import`) by tests/cli-e2e/startup-modules.test.ts: records the file of every module the
// process loads, ES modules and CommonJS alike (node:module registerHooks, Node >= 22.15), and writes them,
// one URL a line, to the file named by ENCPLAN_MODULE_TRACE when the process exits, followed by the Node
// built-in modules it loaded by any means (`node:crypto`, `node:internal/fs/promises`, …; from
// process.moduleLoadList), and `intl:collator` if anything compared strings by locale (`localeCompare`,
// `Intl.Collator`: the first use builds ICU's collator), and `zod:instances N`, the number of zod schemas (and checks) the run constructed: zod's `$constructor` gives each
// instance its internals with `Object.defineProperty(inst, "_zod", …)` (zod/v4/core/core.js).
// Built-ins through getBuiltinModule, as the CLI takes them (scripts/builtin-imports.mjs): an ES import of
// node:fs would itself load node:fs/promises and the streams, and hide whether the run did.
const { writeFileSync } = process.getBuiltinModule('node:fs');
const { registerHooks } = process.getBuiltinModule('node:module');

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) {
      loaded.add(url);
    }
    return nextLoad(url, context);
  },
});
let collator = false;
const localeCompare = String.prototype.localeCompare;
String.prototype.localeCompare = function (...args) {
  collator = true;
  return localeCompare.apply(this, args);
};
Intl.Collator = new Proxy(Intl.Collator, {
  apply(target, self, args) {
    collator = true;
    return Reflect.apply(target, self, args);
  },
  construct(target, args, newTarget) {
    collator = true;
    return Reflect.construct(target, args, newTarget);
  },
});
let zodInstances = 0;
const defineProperty = Object.defineProperty;
Object.defineProperty = function (target, key, descriptor) {
  if (key === '_zod') {
    zodInstances += 1;
  }
  return defineProperty(target, key, descriptor);
};
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule '))
    .map((entry) => `node:${entry.slice('NativeModule '.length)}`);
  writeFileSync(
    process.env.ENCPLAN_MODULE_TRACE ?? 'module-trace.txt',
    [
      ...loaded,
      ...builtins,
      ...(collator ? ['intl:collator'] : []),
      `zod:instances ${String(zodInstances)}`,
    ].join('\n'),
  );
});
