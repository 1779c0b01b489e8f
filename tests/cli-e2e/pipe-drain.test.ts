import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { runCli } from '../support/cli.js';

/** 128 partitions: its assessment is several times a pipe's 64 KiB buffer. */
const BUNDLE = 'fixtures/bundles/loop-gpt-128-partitions-debian12';

/**
 * Runs the built CLI with stdout on a pipe that nobody reads until the CLI has said on stderr that it is done
 * (`doneOnStderr`), then reads it all: a CLI that ends with process.exit at that point loses what the pipe could not
 * hold; one that sets the exit code and returns waits for the reader.
 */
function runWithSlowReader(
  args: readonly string[],
  doneOnStderr: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'packages/cli/bin/run.js'), ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    const chunks: Buffer[] = [];
    let stderr = '';
    let reading = false;
    const startReading = () => {
      if (reading) {
        return;
      }
      reading = true;
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stdout.resume();
    };
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes(doneOnStderr)) {
        // Give a process that would exit now the time to do so before anything is read.
        setTimeout(startReading, 500);
      }
    });
    child.on('error', reject);
    // A process that exited without the message (a crash) is read at once.
    child.on('exit', startReading);
    child.on('close', (status) => {
      resolve({ status, stdout: Buffer.concat(chunks).toString('utf8'), stderr });
    });
  });
}

describe('a long report on a slow pipe (built binary)', () => {
  it('arrives whole with the --fail-on exit code', async () => {
    const args = ['assess', '--bundle', BUNDLE, '--json', '--fail-on', 'warning', '--fail-on-unknown'];
    const whole = runCli(args);
    expect(whole.status, whole.stderr).toBe(5);
    expect(whole.stdout.length).toBeGreaterThan(4 * 65_536);

    const slow = await runWithSlowReader(args, 'health gate: the drive is unknown');
    expect(slow.status).toBe(5);
    expect(slow.stdout.length).toBe(whole.stdout.length);
    expect(JSON.parse(slow.stdout)).toMatchObject({ schema: 'encplan.assessment' });
  });
});
