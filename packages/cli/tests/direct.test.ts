import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { parseDirect, runDirect, type DirectCommand } from '../src/direct.js';

// The direct parser gives what oclif's parser (@oclif/core 5 parser/parse.js, validate.js) gives, or
// undefined wherever oclif would fail, show help, or read the words otherwise. tests/cli-e2e/assess-direct.test.ts
// compares whole runs of both.
const COMMAND: DirectCommand = {
  args: [{ name: 'device', required: false }],
  flags: {
    json: { type: 'boolean', default: false },
    benchmark: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false, dependsOn: ['benchmark'] },
    bare: { type: 'boolean' },
    after: { type: 'option', dependsOn: ['bare'] },
    verbose: { type: 'boolean', char: 'v', default: false },
    bundle: { type: 'option' },
    'fail-on': { type: 'option', options: ['warning', 'failing'] },
    label: { type: 'option', default: 'encplan' },
    'entropy-bits': { type: 'option', multiple: true },
  },
};

describe('parseDirect', () => {
  it('reads flags, a char alias, inline and next values, and applies defaults as oclif does', () => {
    expect(
      parseDirect(['/dev/sda', '--json', '-v', '--bundle=x=y', '--fail-on', 'warning'], COMMAND),
    ).toEqual({
      args: { device: '/dev/sda' },
      flags: {
        json: true,
        benchmark: false,
        quick: false,
        verbose: true,
        bundle: 'x=y',
        'fail-on': 'warning',
        label: 'encplan',
      },
      readsStdin: false,
    });
  });

  it('hands the words after a multiple flag to it, until the next option flag (parse.js currentFlag)', () => {
    expect(
      parseDirect(['--entropy-bits', '40', '50', '--json', '60'], COMMAND)?.flags['entropy-bits'],
    ).toEqual(['40', '50', '60']);
    const after = parseDirect(['--entropy-bits', '40', '--label', 'a', '/dev/sda'], COMMAND);
    expect(after?.args).toEqual({ device: '/dev/sda' });
  });

  it('says when oclif reads stdin for the argument, and that it does not for one with ignoreStdin', () => {
    expect(parseDirect(['--json'], COMMAND)).toMatchObject({ args: {}, readsStdin: true });
    const argvOnly = { ...COMMAND, args: [{ name: 'device', required: false, ignoreStdin: true }] };
    expect(parseDirect(['--json'], argvOnly)).toMatchObject({ args: {}, readsStdin: false });
  });

  it('checks dependsOn as validate.js does: a default counts as a value', () => {
    expect(parseDirect(['--quick'], COMMAND)).toBeDefined();
    expect(parseDirect(['--after', 'x'], COMMAND)).toBeUndefined();
    expect(parseDirect(['--after', 'x', '--bare'], COMMAND)).toBeDefined();
  });

  it.each([
    [['--jsno']],
    [['--help']],
    [['-h']],
    [['-vx']],
    [['--no-json']],
    [['--json=true']],
    [['--', '/dev/sda']],
    [['--bundle']],
    [['--bundle', '--json']],
    [['--label', '-x']],
    [['--fail-on', 'bad']],
    [['--entropy-bits', '40', '-1']],
    [['--bundle', 'a', '--bundle', 'b']],
    [['/dev/sda', '/dev/sdb']],
  ])('%j: left to oclif', (argv) => {
    expect(parseDirect(argv, COMMAND)).toBeUndefined();
  });

  it('a required argument missing is left to oclif', () => {
    expect(parseDirect([], { ...COMMAND, args: [{ name: 'file', required: true }] })).toBeUndefined();
  });
});

describe('runDirect', () => {
  // A folder with neither package.json nor oclif.manifest.json: had it got as far as reading them, it would say no
  // for that reason; these say no before, and run nothing.
  const root = pathToFileURL(`${path.resolve('no-such-cli-folder')}/`);
  it('leaves ENCPLAN_DIRECT=0, another command and a missing manifest to oclif', async () => {
    expect(await runDirect(['assess', '/dev/sda'], root, { ENCPLAN_DIRECT: '0' })).toBe(false);
    expect(await runDirect(['asses', '/dev/sda'], root, {})).toBe(false);
    expect(await runDirect(['assess', '/dev/sda'], root, {})).toBe(false);
  });
});
