import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { hasScript, onTerminal as onTerminalOf } from '../support/pseudo-terminal.js';
import { noteSkip } from '../support/skip-reasons.js';

// Each command run as a person runs it: in a real pseudo-terminal (util-linux script(1)) 80 columns wide. On a
// terminal encplan colours its text, so escape sequences must arrive as sequences (never as the text
// "\u001b[1m"), and no line may be wider than the terminal (the terminal would break it inside a word).
const COLUMNS = 80;
noteSkip(import.meta.url, hasScript ? null : 'needs script(1) from util-linux for a pseudo-terminal');

/** The screen text of `encplan ARGS` in an 80-column pseudo-terminal, SGR sequences removed. */
async function onTerminal(
  args: readonly string[],
): Promise<{ status: number | null; raw: string; lines: string[] }> {
  const { status, raw } = await onTerminalOf(args, COLUMNS);
  // eslint-disable-next-line no-control-regex -- removing the SGR colour sequences to measure the text
  const lines = raw.replaceAll(/\u001b\[[0-9;]*m/gu, '').split('\n');
  return { status, raw, lines };
}

describe.skipIf(!hasScript)(`on an ${COLUMNS}-column terminal`, () => {
  const commands = [
    ['help'],
    ['help', 'assess'],
    ['assess', '--help'],
    ['help', 'plan'],
    ['benchmark', 'io', '--help'],
    ['fleet', 'report', '--help'],
  ];
  it.each(commands.map((args) => ({ name: args.join(' '), args })))(
    'encplan $name: colours as escape sequences, never as text, and every line fits',
    async ({ args }) => {
      const { status, raw, lines } = await onTerminal(args);
      expect(status).toBe(0);
      expect(raw).not.toContain(String.raw`\u001b`);
      // eslint-disable-next-line no-control-regex -- on a terminal the section headers are bold
      expect(raw).toMatch(/\u001b\[1m[A-Z]+/u);
      const tooWide = lines.filter((line) => stringWidth(line) > COLUMNS);
      expect(tooWide).toEqual([]);
    },
  );
});

// The reports, over committed bundles and assessments (no root, no device): their tables wrap long cells
// inside their column and their prose wraps at spaces, so no line is wider than the terminal and no word is cut
// by it. `assess --all` exits 4: one disk of the machine bundle could not be assessed.
const MACHINE = 'fixtures/bundles/machine-all-loops-and-virtio-node-missing-debian12';
const ONE_DISK = 'fixtures/bundles/loop-gpt-ext4-78pct-debian12';
describe.skipIf(!hasScript)(`reports on an ${COLUMNS}-column terminal`, () => {
  const reports: { name: string; args: string[]; status: number }[] = [
    { name: 'doctor', args: ['doctor'], status: 0 },
    { name: 'assess --bundle', args: ['assess', '--bundle', ONE_DISK], status: 0 },
    { name: 'assess --bundle --verbose', args: ['assess', '--bundle', ONE_DISK, '--verbose'], status: 0 },
    { name: 'plan --bundle', args: ['plan', '--bundle', ONE_DISK], status: 0 },
    { name: 'assess --all', args: ['assess', '--all', '--bundle', MACHINE], status: 4 },
    {
      name: 'assess --all --verbose',
      args: ['assess', '--all', '--verbose', '--bundle', MACHINE],
      status: 4,
    },
    { name: 'fleet report', args: ['fleet', 'report', 'fixtures/assessments', ONE_DISK], status: 0 },
  ];
  it.each(reports)('encplan $name: every line fits', async ({ args, status }) => {
    const run = await onTerminal(args);
    expect(run.status).toBe(status);
    expect(run.lines.filter((text) => text.trim() !== '').length).toBeGreaterThan(10);
    expect(run.lines.filter((text) => stringWidth(text) > COLUMNS)).toEqual([]);
  });

  it('assess --all leads with each disk’s verdict word and answer, as its own report prints them', async () => {
    const { lines } = await onTerminal(['assess', '--all', '--bundle', MACHINE]);
    const text = lines.join('\n');
    // Each disk's own report follows under "════ DEVICE ════", as `encplan assess DEVICE` prints it.
    const sections = text.split(/^════ /mu).slice(1);
    expect(sections.length).toBe(4);
    let compared = 0;
    for (const section of sections) {
      const device = section.slice(0, section.indexOf(' '));
      const own = /^([A-Z][A-Z ]*?) {2}(\S.*)$/mu.exec(section);
      if (own === null) {
        continue;
      }
      const [, verdict = '', headline = ''] = own;
      // The lead row: the device, its verdict word, the start of its answer.
      const start = headline.split(' ').slice(0, 3).join(' ');
      expect(text).toMatch(
        new RegExp(`^${device} +${verdict} +${start.replaceAll(/[()/]/gu, '\\$&')}`, 'mu'),
      );
      compared += 1;
    }
    expect(compared).toBe(3);
    // No "nothing to fix" beside a disk whose report asks to fix something; the reason for no commands shows.
    expect(text).not.toMatch(/\bnothing\b/u);
    expect(text.replaceAll(/\s+/gu, ' ')).toContain('No commands: No partition or format commands');
  });
});
