import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { fitText, formatTextTable } from '../../src/report/text-report.js';

describe('formatTextTable', () => {
  const header = ['Tool', 'Version', 'Gives encplan'];
  const rows = [
    ['cryptsetup', '2.6.1', 'LUKS2 formatting, in-place encryption and the key-derivation benchmark'],
    ['smartctl', '7.3', 'drive health: SMART attributes, wear and the self-test log'],
    ['日本語ツール', '1.0', 'a name two columns per character wide'],
  ];

  it('pads columns to their widest cell without a width', () => {
    const lines = formatTextTable(header, rows).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      '  cryptsetup    2.6.1    LUKS2 formatting, in-place encryption and the key-derivation benchmark',
    );
    // Wide characters count two columns: the next column starts at the same screen column.
    expect(stringWidth(lines[3]!.slice(0, lines[3]!.indexOf('1.0')))).toBe(lines[1]!.indexOf('2.6.1'));
  });

  it('wraps long cells inside their column at spaces, so every line fits and no word is split', () => {
    const text = formatTextTable(header, rows, '  ', [], 50);
    const lines = text.split('\n');
    expect(lines.filter((line) => stringWidth(line) > 50)).toEqual([]);
    expect(lines.length).toBeGreaterThan(4);
    const column = lines[1]!.indexOf('LUKS2');
    // Continuation lines leave the other columns empty and continue in the same column.
    expect(lines[2]!.slice(0, column).trim()).toBe('');
    const words = rows.flatMap((row) => row.join(' ').split(' '));
    const printed = new Set(text.split(/\s+/));
    for (const word of words) {
      expect(printed).toContain(word);
    }
  });

  it('leaves a table that fits as it is', () => {
    expect(formatTextTable(header, rows.slice(0, 1), '  ', [], 200)).toBe(
      formatTextTable(header, rows.slice(0, 1)),
    );
  });
});

describe('fitText', () => {
  it('wraps each line under its text (list marker or label), measured in terminal columns', () => {
    const text = [
      '  1. The CPU has AES instructions but the kernel driver is generic, so load the accelerated module first.',
      '  Key derivation  argon2id, 1.0 GiB memory, benchmarked iterations, 2 threads, about 2.0 s to unlock',
    ].join('\n');
    expect(fitText(text, 60).split('\n')).toEqual([
      '  1. The CPU has AES instructions but the kernel driver is',
      '     generic, so load the accelerated module first.',
      '  Key derivation  argon2id, 1.0 GiB memory, benchmarked',
      '                  iterations, 2 threads, about 2.0 s to',
      '                  unlock',
    ]);
    expect(fitText(text, null)).toBe(text);
  });

  it('keeps colour sequences whole and does not count them as columns', () => {
    const painted = `\u001b[33m${'word '.repeat(20).trim()}\u001b[39m`;
    const lines = fitText(painted, 40).split('\n');
    // eslint-disable-next-line no-control-regex -- measuring the text without its SGR sequences
    expect(lines.map((line) => line.replaceAll(/\u001b\[\d+m/g, '').length)).toEqual([39, 39, 19]);
  });
});
