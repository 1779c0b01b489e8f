import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { completionScript, type CompletionCommand } from '../../src/completion-script.js';

const COMMANDS: CompletionCommand[] = [
  {
    words: ['assess'],
    summary: 'Inspect a disk',
    flags: [
      { name: 'json', char: null, summary: 'JSON', takesValue: false, options: [] },
      {
        name: 'target',
        char: null,
        summary: "Tool: it's luks2 by default",
        takesValue: true,
        options: ['luks2', 'veracrypt', 'apfs'],
      },
    ],
  },
  {
    words: ['benchmark', 'io'],
    summary: 'Plain vs encrypted I/O',
    flags: [{ name: 'quick', char: 'q', summary: 'Shorter', takesValue: false, options: [] }],
  },
  { words: ['benchmark', 'ciphers'], summary: 'Cipher speed', flags: [] },
];

/** Runs bash's completion function for the words typed so far and returns what it offers. */
function completeInBash(words: string[]): string[] {
  const script = `${completionScript('bash', COMMANDS)}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${String(words.length - 1)}
_encplan; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', script], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');
}

describe('completionScript', () => {
  it('completes commands, sub-commands, flags and flag values in a real bash', () => {
    expect(completeInBash(['encplan', 'as'])).toEqual(['assess']);
    expect(completeInBash(['encplan', 'benchmark', ''])).toEqual(['ciphers', 'io']);
    expect(completeInBash(['encplan', 'assess', '--t'])).toEqual(['--target']);
    expect(completeInBash(['encplan', 'assess', '--target', 'v'])).toEqual(['veracrypt']);
    expect(completeInBash(['encplan', 'benchmark', 'io', '-'])).toEqual(['--quick', '-q']);
  });

  it('writes scripts that bash and zsh parse, with quotes in summaries kept safe', () => {
    execFileSync('bash', ['-n', '-c', completionScript('bash', COMMANDS)]);
    const zsh = completionScript('zsh', COMMANDS);
    expect(zsh.startsWith('#compdef encplan\n')).toBe(true);
    expect(zsh).toContain("'benchmark io:Plain vs encrypted I/O'");
    expect(zsh).toContain('(luks2 veracrypt apfs)');
    const fish = completionScript('fish', COMMANDS);
    expect(fish).toContain(
      "complete -c encplan -n '__fish_seen_subcommand_from benchmark' -a 'io' -d 'Plain vs encrypted I/O'",
    );
    expect(fish).toContain("-l target -x -a 'luks2 veracrypt apfs' -d 'Tool: it'\\''s luks2 by default'");
  });
});
