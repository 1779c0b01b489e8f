import type { IoBenchmarkPort } from '../use-cases/assess.js';
import type { Clock, Host } from '../ports.js';
import { runIoBenchmark } from './benchmark/run-io-benchmark.js';
import { createNodeHost } from './host.js';
import { createRunner, type RunnerOptions } from './process/run-command.js';

/** The composition root: the real host (runner, files, systeminformation), the clock and the I/O benchmark. */
export interface NodeEnvironment {
  readonly host: Host;
  readonly clock: Clock;
  readonly ioBenchmark: IoBenchmarkPort;
}

/** Wires the ports to the real adapters. `searchPath` defaults to the process's PATH. */
export function createEnvironment(options: Partial<RunnerOptions> & { cwd?: string } = {}): NodeEnvironment {
  const runner = createRunner({ searchPath: options.searchPath ?? process.env.PATH ?? '', ...options });
  const host = createNodeHost(runner, options.cwd ?? process.cwd());
  return {
    host,
    clock: { now: () => new Date() },
    // assess measures only in a scratch directory of a mounted filesystem: never destructive.
    ioBenchmark: async (request) => {
      const outcome = await runIoBenchmark(host, {
        target: request.directory,
        backends: 'auto',
        mode: request.quick ? 'quick' : 'full',
        sweep: false,
        destructive: { allowDestructive: false, typedDevice: null, yes: false },
        cipherBytesPerSecondPerCore: request.cipherBytesPerSecondPerCore,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(request.onProgress === undefined ? {} : { onProgress: request.onProgress }),
      });
      return { result: outcome.result, warnings: outcome.warnings };
    },
  };
}
