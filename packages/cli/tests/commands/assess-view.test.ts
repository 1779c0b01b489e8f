import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as core from '@encplan/core';
import Assess from '../../src/commands/assess.js';

// `assess --json` prints the envelope: the report view (what the text report, the HTML report and the script
// are drawn from) is built only for an output that uses it (issue 28: ~3 % of a one-disk assessment's CPU).
vi.mock('@encplan/core', async (importOriginal) => {
  const original = await importOriginal<typeof core>();
  return { ...original, toReportView: vi.fn(original.toReportView) };
});

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bundleDir = path.resolve(cliRoot, '../../fixtures/bundles/loop-gpt-ext4-78pct-debian12');

/** Runs `encplan assess ARGS` in this process; what it printed on stdout. */
async function assessPrinting(args: readonly string[]): Promise<string> {
  const printed: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await Assess.run([...args], await Config.load(cliRoot));
  } finally {
    write.mockRestore();
  }
  return printed.join('');
}

afterEach(() => vi.mocked(core.toReportView).mockClear());

describe('encplan assess builds the report view only for the outputs drawn from it', () => {
  it('--json: the envelope, without the view', async () => {
    const printed = await assessPrinting(['--bundle', bundleDir, '--json']);
    expect(JSON.parse(printed)).toMatchObject({ schema: 'encplan.assessment', status: expect.any(String) });
    expect(core.toReportView).not.toHaveBeenCalled();
  });

  it('the text report and --commands: the view, once', async () => {
    // (Printed through the terminal sink, which keeps the stdout it found first: the text is checked by the
    // end-to-end tests.)
    await assessPrinting(['--bundle', bundleDir]);
    expect(core.toReportView).toHaveBeenCalledTimes(1);
    vi.mocked(core.toReportView).mockClear();
    await assessPrinting(['--bundle', bundleDir, '--commands']);
    expect(core.toReportView).toHaveBeenCalledTimes(1);
  });
});
