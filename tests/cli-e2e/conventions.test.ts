import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/fake-tools.js';
import { runCli } from '../support/cli.js';

const BIN = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
const BUNDLE = 'fixtures/bundles/loop-gpt-ext4-78pct-debian12';
const scratch = mkdtempSync(path.join(tmpdir(), 'encplan-e2e-conventions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const version = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }
).version;

describe('CLI conventions (built binary)', () => {
  it('answers help, -h and --help alike, for the whole CLI and for one command', () => {
    const help = runCli(['help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('USAGE');
    expect(help.stdout).toContain('assess');
    expect(runCli(['-h']).stdout).toBe(help.stdout);
    expect(runCli(['--help']).stdout).toBe(help.stdout);
    const assess = runCli(['help', 'assess']);
    expect(assess.status).toBe(0);
    expect(assess.stdout).toContain('encplan assess [DEVICE]');
    expect(runCli(['assess', '-h']).stdout).toBe(assess.stdout);
    expect(runCli(['help', 'benchmark', 'io']).stdout).toContain('encplan benchmark io');
  });

  it('prints one version string for --version, -v and the version command', () => {
    const line = `encplan/${version} ${process.platform}-${process.arch} node-${process.version}\n`;
    expect(runCli(['--version']).stdout).toBe(line);
    expect(runCli(['-v']).stdout).toBe(line);
    expect(runCli(['version']).stdout).toBe(line);
    expect(runCli(['help']).stdout).toContain(line.trim());
    const envelope = JSON.parse(runCli(['version', '--json']).stdout) as {
      schema: string;
      result: { version: string };
    };
    expect(envelope).toMatchObject({ schema: 'encplan.version', result: { version } });
  });

  it.each([
    ['asess', 'encplan assess'],
    ['benchmark ioo', 'encplan benchmark io'],
    ['halth', 'encplan health'],
  ])('says "did you mean" for %s, with a usage exit code', (typed, suggestion) => {
    const run = runCli(typed.split(' '));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`"${typed}" is not an encplan command.`);
    expect(run.stderr).toContain(`Did you mean "${suggestion}"?`);
  });

  it.each([[['--help']], [['assess', '--bundle', BUNDLE]], [['assess', '--bundle', BUNDLE, '--json']]])(
    'exits 0 without warnings when the reader closes stdout after the first byte: %j',
    async (args) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      // Like `| head -c 1`: take one byte, then close the pipe while encplan is still writing.
      child.stdout.once('data', () => child.stdout.destroy());
      const status = await new Promise<number | null>((resolve) =>
        child.on('close', (code) => resolve(code)),
      );
      expect(stderr).toBe('');
      expect(status).toBe(0);
    },
  );

  it('refuses an output file it cannot write with a usage error, not an internal one', () => {
    const missing = runCli([
      'assess',
      '--bundle',
      BUNDLE,
      '--html',
      path.join(scratch, 'no-such-folder', 'r.html'),
    ]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('Cannot write the HTML report');
    expect(missing.stderr).toContain('its folder does not exist');
    expect(missing.stderr).not.toContain('Internal error');
    const folder = runCli(['assess', '--bundle', BUNDLE, '--html', scratch, '--json']);
    expect(folder.status).toBe(2);
    expect(JSON.parse(folder.stdout)).toMatchObject({ status: 'error', error: { code: 'INVALID_ARGUMENT' } });
  });

  it('prints a bash completion script that completes the real commands', () => {
    const script = runCli(['completion', 'bash']).stdout;
    const offered = spawnSync(
      'bash',
      [
        '-c',
        `${script}\nCOMP_WORDS=(encplan bench); COMP_CWORD=1; _encplan; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(offered.stdout.trim()).toBe('benchmark');
    const flags = spawnSync(
      'bash',
      [
        '-c',
        `${script}\nCOMP_WORDS=(encplan assess --threat); COMP_CWORD=2; _encplan; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(flags.stdout.trim()).toBe('--threat-model');
  });
});
