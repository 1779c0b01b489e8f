import { describe, expect, it } from 'vitest';
import { helpAsFlag } from '../src/help-argv.js';

const IDS = ['assess', 'benchmark:io', 'benchmark:ciphers', 'fleet:report', 'help', 'man'];

describe('helpAsFlag: `help WORDS…` as `WORDS… --help`', () => {
  it('rewrites help for a command, a topic, a nested command and encplan itself', () => {
    expect(helpAsFlag(['help', 'assess'], IDS)).toEqual(['assess', '--help']);
    expect(helpAsFlag(['help', 'benchmark'], IDS)).toEqual(['benchmark', '--help']);
    expect(helpAsFlag(['help', 'benchmark', 'io'], IDS)).toEqual(['benchmark', 'io', '--help']);
    expect(helpAsFlag(['help', 'help'], IDS)).toEqual(['help', '--help']);
    expect(helpAsFlag(['help'], IDS)).toEqual(['--help']);
  });

  it('leaves flags, unknown words and other commands to the help command (its own messages and exit codes)', () => {
    for (const argv of [
      ['help', '--json'],
      ['help', 'assess', '--json'],
      ['help', 'nonexistent'],
      ['help', 'assess', 'extra'],
      ['help', 'bench'],
      ['help', 'Assess'],
      ['assess', 'help'],
      [],
    ]) {
      expect(helpAsFlag(argv, IDS)).toEqual(argv);
    }
  });
});
