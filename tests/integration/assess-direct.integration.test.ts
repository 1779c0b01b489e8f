import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bothPaths } from '../support/direct-compare.js';
import { noteSkip } from '../support/skip-reasons.js';
import { createLoopStack, loopDeviceSkipReason, type LoopStack } from './support/loop-device.js';

// Issue 28: `encplan assess LOOP …` on a real disk runs without oclif (packages/cli/src/direct.ts) and prints
// what oclif prints, timestamps and the order of concurrent calls aside (tests/support/direct-compare.ts).
const skipReason = loopDeviceSkipReason();
noteSkip(import.meta.url, skipReason);

describe.skipIf(skipReason !== null)('encplan assess LOOP: the direct path and oclif agree (root)', () => {
  let stack: LoopStack;
  const work = mkdtempSync(path.join(tmpdir(), 'encplan-test-direct-loop-'));
  beforeAll(() => {
    stack = createLoopStack({ sizeBytes: 256 * 1024 * 1024, partitionPercent: 78, mount: false });
  });
  afterAll(() => {
    stack?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it.each([
    [['--json']],
    [[]],
    [['--commands']],
    [['--verbose', '--json']],
    [['--fail-on-unknown', '--json']],
    // --scratch needs --benchmark; a folder that does not exist is refused (exit 2) before anything runs.
    [['--benchmark', '--scratch', '/nonexistent', '--json']],
  ])('assess LOOP %j', (flags) => {
    const runs = bothPaths(['assess', stack.device, ...flags], path.join(work, 'trace.txt'));
    expect(runs.direct).toBe(true);
    expect(runs.user).toEqual(runs.oclif);
  });
});
