// Preloaded (`node --import`) by tests/cli-e2e/early-start.test.ts: records, in the order they happen, every
// module file the process loads (`load file:…`) and every child process it starts (`spawn FILE ARGS…`, through
// node:child_process's ChildProcess, which every spawn goes through), and writes them one a line to the file
// named by ENCPLAN_SPAWN_TRACE when the process exits. The order, never the time, is what tests assert on.
// eslint-disable-next-line no-restricted-imports -- it records the children the process starts; it starts none
import { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const events = [];
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) {
      events.push(`load ${url}`);
    }
    return nextLoad(url, context);
  },
});
const spawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  events.push(`spawn ${[options.file, ...options.args.slice(1)].join(' ')}`);
  return spawn.call(this, options);
};
process.on('exit', () => {
  writeFileSync(process.env.ENCPLAN_SPAWN_TRACE ?? 'spawn-trace.txt', events.join('\n'));
});
