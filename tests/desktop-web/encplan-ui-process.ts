import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { REPO_ROOT } from '../support/fake-tools.js';

const CLI = path.join(REPO_ROOT, 'packages/cli/bin/run.js');

/** A running `encplan ui` child, its printed URL, and everything it wrote. */
export interface EncplanUiProcess {
  readonly child: ChildProcess;
  readonly url: URL;
  output(): string;
  /** Ctrl-C, then waits for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/** Spawns the built CLI's `ui` command and waits for the URL it prints (needs `npx tsc -b` first). */
export async function startEncplanUi(args: readonly string[]): Promise<EncplanUiProcess> {
  const child = spawn(process.execPath, [CLI, 'ui', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let printed: RegExpExecArray | null = null;
  for (let i = 0; i < 300 && printed === null && child.exitCode === null; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    printed = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/.exec(output);
  }
  if (printed?.[1] === undefined) {
    child.kill('SIGKILL');
    throw new Error(`encplan ui printed no URL (run npx tsc -b first):\n${output}`);
  }
  return {
    child,
    url: new URL(printed[1]),
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) {
        return child.exitCode;
      }
      child.kill('SIGINT');
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
