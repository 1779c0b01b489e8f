import { describe, expect, it } from 'vitest';
import { sanitizeChunk, sanitizeForTerminal } from '../src/terminal-sink.js';

describe('the terminal sink', () => {
  it.each([
    [
      'ESC sequences (clear screen, OSC title)',
      'Samsung\u001b[2J\u001b]0;owned\u0007 SSD',
      'Samsung\\u001b[2J\\u001b]0;owned\\u0007 SSD',
    ],
    ['CR that would overwrite the line', 'FAILED\rPASSED', 'FAILED\\u000dPASSED'],
    ['backspace and DEL', 'ab\u0008\u007fc', 'ab\\u0008\\u007fc'],
    ['an 8-bit CSI (C1)', 'x\u009b31my', 'x\\u009b31my'],
    ['a bidi override', 'serial\u202eevil', 'serial\\u202eevil'],
  ])('prints %s as inert, visible escapes', (_name, hostile, shown) => {
    expect(sanitizeForTerminal(hostile)).toBe(shown);
  });

  it('keeps newlines, tabs and ordinary Unicode', () => {
    const text = 'Model\tWDC WD40EFRX\nSpare 100 %  · 42 °C — ✓ ünïcødé\n';
    expect(sanitizeForTerminal(text)).toBe(text);
  });

  it('keeps a JSON document equal once parsed, C1 controls included', () => {
    const document = { model: 'x\u009b31m\u001b[2J\u202e', serial: 'a\rb' };
    const printed = sanitizeForTerminal(JSON.stringify(document, null, 2));
    // eslint-disable-next-line no-control-regex -- asserting that none is left
    expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/u);
    expect(JSON.parse(printed)).toEqual(document);
  });

  it("keeps the progress bar's own status-line rewrite, and sanitises the text inside it", () => {
    expect(sanitizeChunk('\r[####----] 50% 1/2 ETA 0:10 fio on /dev/sda\u001b[K')).toBe(
      '\r[####----] 50% 1/2 ETA 0:10 fio on /dev/sda\u001b[K',
    );
    expect(sanitizeChunk('\rstep \u001b]0;x\u0007\u001b[K\n')).toBe('\rstep \\u001b]0;x\\u0007\u001b[K\n');
    expect(sanitizeChunk('a\rb\u001b[K')).toBe('a\\u000db\\u001b[K');
  });
});

describe('one escaped form for control characters', () => {
  it('the sink writes each control character exactly as core’s views do (escapedControl)', async () => {
    const { escapedControl } = await import('../../core/src/report/printable.js');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x9f }), (code) => {
        const character = String.fromCharCode(code);
        const sunk = sanitizeForTerminal(`a${character}b`);
        if (sunk !== `a${character}b` && character !== '\r') {
          expect(sunk).toBe(`a${escapedControl(character)}b`);
        }
      }),
    );
  });
});
