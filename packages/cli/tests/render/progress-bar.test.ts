import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '@encplan/core';
import { formatProgress } from '../../src/render/progress-bar.js';

const event: ProgressEvent = {
  phase: 'measure',
  message: 'fscrypt: SEQ1M Q8T1 read (run 3 of 16)',
  runIndex: 3,
  runCount: 16,
  fraction: 0.125,
  etaMs: 75_000,
};

describe('formatProgress', () => {
  it('draws a bar with percent, run counter and ETA for a terminal, redrawing the same line', () => {
    expect(formatProgress(event, true, 100)).toBe(
      `\r[###---------------------]  13% 3/16 ETA 1:15 fscrypt: SEQ1M Q8T1 read (run 3 of 16)\u001b[K`,
    );
  });

  it('writes plain lines without control characters when stderr is not a terminal', () => {
    expect(formatProgress({ ...event, etaMs: null }, false)).toBe(
      '[ 13%] 3/16 ETA --:-- fscrypt: SEQ1M Q8T1 read (run 3 of 16)\n',
    );
  });

  it('ends the bar with a newline when done', () => {
    expect(formatProgress({ ...event, phase: 'done', fraction: 1, etaMs: 0 }, true).endsWith('\n')).toBe(
      true,
    );
  });

  it('keeps the bar inside a narrow terminal, ending at a whole word (a wrapped bar would not redraw)', () => {
    const long = {
      ...event,
      message: 'luks2 aes-xts-plain64 on a loop device: SEQ1M Q8T1 read, run 3 of 16',
    };
    const drawn = formatProgress(long, true, 60).replace('\r', '').replace('\u001b[K', '');
    expect(stringWidth(drawn)).toBeLessThanOrEqual(59);
    expect(drawn).toBe('[###---------------------]  13% 3/16 ETA 1:15 luks2');
  });
});
