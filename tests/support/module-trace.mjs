// Preloaded (`node --import`) by tests/cli-e2e/startup-modules.test.ts: records the file of every module the
// process loads, ES modules and CommonJS alike (node:module registerHooks, Node >= 22.15), and writes them,
// one URL a line, to the file named by ENCPLAN_MODULE_TRACE when the process exits, followed by the Node
// built-in modules it loaded by any means (`node:crypto`, …; from process.moduleLoadList).
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) {
      loaded.add(url);
    }
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule ') && !entry.includes(' internal/'))
    .map((entry) => `node:${entry.slice('NativeModule '.length)}`);
  writeFileSync(process.env.ENCPLAN_MODULE_TRACE ?? 'module-trace.txt', [...loaded, ...builtins].join('\n'));
});
