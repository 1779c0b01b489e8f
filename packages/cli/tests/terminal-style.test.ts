import { describe, expect, it } from 'vitest';
import { sanitizeChunk, sgr } from '../src/terminal-sink.js';
import { colourEnabled, terminalTextOptions } from '../src/terminal-style.js';

describe('colour on a terminal only (https://no-color.org, FORCE_COLOR)', () => {
  it('colours a terminal, not a pipe, and honours NO_COLOR, FORCE_COLOR and TERM=dumb', () => {
    expect(colourEnabled({}, true)).toBe(true);
    expect(colourEnabled({}, false)).toBe(false);
    expect(colourEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    // An empty NO_COLOR does not count (no-color.org: "present and not an empty string").
    expect(colourEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ TERM: 'dumb' }, true)).toBe(false);
  });

  it('wraps to the terminal width, and in a pipe only when COLUMNS says so', () => {
    expect(terminalTextOptions(false, { isTTY: true, columns: 120 }, {}).width).toBe(120);
    expect(terminalTextOptions(false, { isTTY: false }, {}).width).toBeNull();
    expect(terminalTextOptions(false, { isTTY: false }, { COLUMNS: '80' }).width).toBe(80);
    expect(terminalTextOptions(false, { isTTY: false }, {}).paint).toBeUndefined();
  });
});

describe('encplan colours pass the sanitising sink; colours inside data do not', () => {
  it('turns its own markers into SGR and escapes an ESC that came with the data', () => {
    const text = sgr('33', 'CAUTION  model \u001b[31mEVIL\u001b[0m');
    expect(sanitizeChunk(text)).toBe('\u001b[33mCAUTION  model \\u001b[31mEVIL\\u001b[0m\u001b[0m');
    // A forged marker without the process's key stays inert text.
    expect(sanitizeChunk('\uE000abc31\uE001x')).toBe('\uE000abc31\uE001x');
  });
});
