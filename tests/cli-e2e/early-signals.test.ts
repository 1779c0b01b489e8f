import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';

/*
 * Issue 25 item 7: Ctrl-C and SIGTERM in the first 200 ms of a run, as the issue measured (20 SIGINTs, 10
 * SIGTERMs at spread offsets). bin/run.js installs its handlers on its first line, but Node's own start-up
 * (PlatformInit, the ESM loader, reading bin/run.js) comes first: a signal there ends the process by the
 * default action before any code of encplan's has run (docs/architecture.md "Signals"). Either outcome must leave
 * nothing behind; a run that finished before the signal came is complete. Nothing here asserts a duration.
 */
const CLI = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
const BUNDLE = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-early-signals-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Starts `assess --bundle … --html FILE` (it writes FILE at the end), sends `signal` after `offsetMs`. */
async function interrupted(signal: 'SIGINT' | 'SIGTERM', offsetMs: number, index: number) {
  const folder = path.join(work, `${signal}-${String(index)}`);
  const html = path.join(folder, 'report.html');
  mkdirSync(folder);
  const child = spawn(process.execPath, [CLI, 'assess', '--bundle', BUNDLE, '--html', html], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await new Promise((resolve) => setTimeout(resolve, offsetMs));
  child.kill(signal);
  const [code, killedBy] = await exited;
  const left = readdirSync(folder);
  return { code, killedBy, left, stderr, html };
}

/** 'handled' (exit 130), 'default-action' (killed by the signal), 'finished' (exit 0), else what happened. */
function outcomeOf(signal: NodeJS.Signals, run: Awaited<ReturnType<typeof interrupted>>): string {
  if (run.killedBy === signal && run.code === null) {
    return 'default-action';
  }
  if (run.killedBy === null && run.code === 130) {
    return 'handled';
  }
  if (run.killedBy === null && run.code === 0) {
    return 'finished';
  }
  return `unexpected: exit ${String(run.code)}, signal ${String(run.killedBy)}`;
}

const SIGNALS: readonly { signal: 'SIGINT' | 'SIGTERM'; offsetMs: number }[] = [
  ...Array.from({ length: 20 }, (_, i) => ({ signal: 'SIGINT' as const, offsetMs: i * 10 })),
  ...Array.from({ length: 10 }, (_, i) => ({ signal: 'SIGTERM' as const, offsetMs: 5 + i * 20 })),
];

describe('a signal in the first 200 ms (built binary)', () => {
  it('ends the run by our handler (exit 130) or, before any code of ours ran, by the default action; never anything left behind', async () => {
    const outcomes: string[] = [];
    for (const [index, { signal, offsetMs }] of SIGNALS.entries()) {
      const run = await interrupted(signal, offsetMs, index);
      const outcome = outcomeOf(signal, run);
      outcomes.push(`${signal}@${String(offsetMs)}ms: ${outcome}`);
      if (outcome === 'finished') {
        // The run was done before the signal came: its report is whole, and the only file.
        expect(run.left).toEqual(['report.html']);
        expect(readFileSync(run.html, 'utf8')).toMatch(/<\/html>\s*$/);
      } else {
        expect(outcome, outcomes.join('\n')).toMatch(/^(handled|default-action)$/);
        // Never a temporary file of the atomic writer, never a part of a report: either no report, or (the
        // signal came after the report got its name, while the run printed its text) the whole report.
        if (run.left.length > 0) {
          expect(run.left, `${signal}@${String(offsetMs)}ms`).toEqual(['report.html']);
          expect(readFileSync(run.html, 'utf8')).toMatch(/<\/html>\s*$/);
        }
      }
      // Never a stack trace, whatever the moment.
      expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }
    // What happened at each offset, for the record (docs/architecture.md "Signals").
    console.info(outcomes.join('\n'));
  }, 120_000);

  it('a signal once bin/run.js has run is ours: exit 130 for SIGINT and SIGTERM alike', async () => {
    for (const [index, signal] of (['SIGINT', 'SIGTERM'] as const).entries()) {
      // Offsets past Node's start-up: the handler is in place and the report not yet written.
      let run = await interrupted(signal, 0, 100 + index);
      for (let offset = 50; outcomeOf(signal, run) === 'default-action' && offset <= 5000; offset += 50) {
        run = await interrupted(signal, offset, 100 + index * 1000 + offset);
      }
      const outcome = outcomeOf(signal, run);
      expect(['handled', 'finished']).toContain(outcome);
      if (outcome === 'handled') {
        expect(run.left).toEqual([]);
      }
    }
  }, 300_000);
});
