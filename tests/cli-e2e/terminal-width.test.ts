import { spawnSync } from 'node:child_process';
import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { noteSkip } from '../support/skip-reasons.js';

// Each command run as a person runs it: in a real pseudo-terminal (util-linux script(1)) 80 columns wide. On a
// terminal encplan colours its text, so escape sequences must arrive as sequences (never as the text
// "\u001b[1m"), and no line may be wider than the terminal (the terminal would break it inside a word).
const COLUMNS = 80;
const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0;
noteSkip(import.meta.url, hasScript ? null : 'needs script(1) from util-linux for a pseudo-terminal');

/** The screen text of `encplan ARGS` in an 80-column pseudo-terminal, SGR sequences removed. */
function onTerminal(args: readonly string[]): { status: number | null; raw: string; lines: string[] } {
  const command = [process.execPath, path.join(REPO_ROOT, 'packages/cli/bin/run.js'), ...args]
    .map((word) => `'${word.replaceAll("'", String.raw`'\''`)}'`)
    .join(' ');
  const result = spawnSync('script', ['-qec', `stty cols ${COLUMNS} rows 50; ${command}`, '/dev/null'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm-256color' },
  });
  const raw = result.stdout.replaceAll('\r\n', '\n');
  // eslint-disable-next-line no-control-regex -- removing the SGR colour sequences to measure the text
  const lines = raw.replaceAll(/\u001b\[[0-9;]*m/gu, '').split('\n');
  return { status: result.status, raw, lines };
}

describe.skipIf(!hasScript)(`on an ${COLUMNS}-column terminal`, () => {
  const commands = [
    ['help'],
    ['help', 'assess'],
    ['assess', '--help'],
    ['help', 'plan'],
    ['benchmark', 'io', '--help'],
    ['fleet', 'report', '--help'],
  ];
  it.each(commands.map((args) => ({ name: args.join(' '), args })))(
    'encplan $name: colours as escape sequences, never as text, and every line fits',
    ({ args }) => {
      const { status, raw, lines } = onTerminal(args);
      expect(status).toBe(0);
      expect(raw).not.toContain(String.raw`\u001b`);
      // eslint-disable-next-line no-control-regex -- on a terminal the section headers are bold
      expect(raw).toMatch(/\u001b\[1m[A-Z]+/u);
      const tooWide = lines.filter((line) => stringWidth(line) > COLUMNS);
      expect(tooWide).toEqual([]);
    },
  );
});
