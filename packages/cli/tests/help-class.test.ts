import { describe, expect, it } from 'vitest';
import { fitLines, helpWidth } from '../src/help-class.js';
import { keepOwnSgr, sanitizeChunk } from '../src/terminal-sink.js';

describe('encplan help on a terminal', () => {
  it('keeps oclif’s own bold headers as colours through the sink instead of escaping them as text', () => {
    const printed = sanitizeChunk(keepOwnSgr('\u001b[1mUSAGE\u001b[22m\n  $ encplan'));
    expect(printed).toBe('\u001b[1mUSAGE\u001b[22m\n  $ encplan');
    expect(printed).not.toContain(String.raw`\u001b`);
  });

  it('still escapes a control character that is not an SGR sequence', () => {
    expect(sanitizeChunk(keepOwnSgr('a\u001b]0;title\u0007b'))).toBe(String.raw`a\u001b]0;title\u0007b`);
  });

  it('asks oclif for 2 columns less than the terminal (its multi-line flag list overshoots by 2)', () => {
    expect(helpWidth(80)).toBe(78);
    expect(helpWidth(undefined)).toBe(78);
    expect(helpWidth(20)).toBe(40);
  });

  it('wraps a line wider than the width at words, at the line’s own indentation', () => {
    const line = `  ${'word '.repeat(20).trim()}`;
    const fitted = fitLines(`short\n${line}`, 40).split('\n');
    expect(fitted[0]).toBe('short');
    expect(fitted.slice(1).every((part) => part.startsWith('  word') && part.length <= 40)).toBe(true);
    expect(fitted.slice(1).join(' ').replaceAll(/\s+/gu, ' ').trim()).toBe(line.trim());
  });
});
