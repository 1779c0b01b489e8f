import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FLAG_DEFINITIONS } from '@encplan/core';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';

// Issue 25 item 4: one definition per flag. The same table of bad values is given to every command that takes
// the flag; each must end with exit 2, INVALID_ARGUMENT and the accepted form, before any disk is read.
const BUNDLE = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
const MACHINE_BUNDLE = path.join(
  REPO_ROOT,
  'fixtures/bundles/machine-all-loops-and-virtio-node-missing-debian12',
);

const BAD_VALUES: readonly { flag: keyof typeof FLAG_DEFINITIONS; value: string }[] = [
  { flag: 'unlockMemory', value: '2048' },
  { flag: 'unlockMemory', value: '0GiB' },
  { flag: 'unlockMemory', value: '64KiB' },
  { flag: 'unlockMemory', value: 'lots' },
  { flag: 'unlockCores', value: '0' },
  { flag: 'unlockCores', value: '2.5' },
  { flag: 'unlockCores', value: '1e3' },
  { flag: 'unlockTime', value: '0' },
  { flag: 'unlockTime', value: '-5' },
  { flag: 'unlockTime', value: '99999999999' },
  { flag: 'passwordLength', value: '0' },
  { flag: 'passwordLength', value: '100000' },
  { flag: 'entropyBits', value: '0' },
  { flag: 'entropyBits', value: '5000' },
  { flag: 'entropyBits', value: 'NaN' },
  { flag: 'targetSparePercent', value: '95' },
  { flag: 'targetSparePercent', value: '-1' },
  { flag: 'mappingName', value: 'x;rm -rf /' },
  { flag: 'mappingName', value: '-x' },
  { flag: 'mappingName', value: 'a'.repeat(128) },
  { flag: 'mappingName', value: 'new\nline' },
  { flag: 'label', value: 'label with space' },
  { flag: 'label', value: 'seventeen-chars-x' },
];

const COMMANDS: readonly { name: string; args: readonly string[] }[] = [
  { name: 'plan --bundle', args: ['plan', '--bundle', BUNDLE] },
  { name: 'assess --bundle', args: ['assess', '--bundle', BUNDLE] },
  { name: 'assess --all --bundle', args: ['assess', '--all', '--bundle', MACHINE_BUNDLE] },
  // A live device: the value is refused before the disk is opened (no root needed, nothing read).
  { name: 'assess DEVICE', args: ['assess', '/dev/encplan-never-opened'] },
];

const cases = COMMANDS.flatMap((command) =>
  BAD_VALUES.map(({ flag, value }) => ({
    command: command.name,
    cliFlag: FLAG_DEFINITIONS[flag].flag,
    accepted: FLAG_DEFINITIONS[flag].accepted,
    value,
    args: [...command.args, `--${FLAG_DEFINITIONS[flag].flag}`, value],
  })),
);

describe('every command given the same bad flag values (built binary)', () => {
  it.each(cases)(
    '$command --$cliFlag $value: exit 2 with the accepted form',
    ({ args, accepted, cliFlag }) => {
      const run = runCli([...args, '--json']);
      expect(run.status, run.stderr).toBe(2);
      const document = JSON.parse(run.stdout) as {
        status: string;
        error: { code: string; message: string; hint: string };
      };
      expect(document.error.code).toBe('INVALID_ARGUMENT');
      expect(document.error.message).toContain(`--${cliFlag}`);
      expect(document.error.hint).toContain(accepted);
    },
  );

  it.each(BAD_VALUES)(
    'says the accepted form on stderr in text mode too (--$flag $value)',
    ({ flag, value }) => {
      const text = runCli(['plan', '--bundle', BUNDLE, `--${FLAG_DEFINITIONS[flag].flag}`, value]);
      expect(text.status).toBe(2);
      expect(text.stderr).toContain(FLAG_DEFINITIONS[flag].accepted);
    },
  );

  it('plans --unlock-memory 2048 no more: the smallest accepted size still gives a cryptsetup-valid KDF', () => {
    const run = runCli(['plan', '--bundle', BUNDLE, '--unlock-memory', '128KiB', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const plan = (
      JSON.parse(run.stdout) as {
        result: { settings: { luks2Pbkdf: { memoryKiB: number; iterations: number } } };
      }
    ).result.settings.luks2Pbkdf;
    // cryptsetup refuses Argon2 memory below 32 KiB (lib/utils_pbkdf.c); iterations stay finite.
    expect(plan.memoryKiB).toBeGreaterThanOrEqual(32);
    // Without an argon2 benchmark in the bundle cryptsetup picks the iterations (null); never Infinity.
    expect(plan.iterations === null || Number.isFinite(plan.iterations)).toBe(true);
  });

  it('collect refuses the same bad device paths as assess', () => {
    for (const device of ['x;rm', '-rf', 'relative/sda']) {
      for (const command of [
        ['assess', device],
        ['collect', device, '--out', path.join(REPO_ROOT, 'never-written')],
      ]) {
        const run = runCli([...command, '--json']);
        expect(run.status, `${command.join(' ')}: ${run.stderr}`).toBe(2);
      }
    }
  });
});

describe('--scratch: one definition for every command that benchmarks (built binary)', () => {
  const SCRATCH = FLAG_DEFINITIONS.scratch;
  const out = path.join(REPO_ROOT, 'never-written-scratch-bundle');
  const commands = [
    ['assess', '/dev/encplan-never-opened', '--benchmark'],
    ['collect', '/dev/encplan-never-opened', '--benchmark', '--out', out],
  ];
  const values = [
    { value: path.join(REPO_ROOT, 'no-such-folder'), why: 'it does not exist' },
    { value: path.join(REPO_ROOT, 'package.json'), why: 'it is not a folder' },
    { value: 'bell\u0007folder', why: null },
    { value: '', why: null },
  ];
  const cases = commands.flatMap((args) => values.map((value) => ({ command: args[0], args, ...value })));

  it.each(cases)(
    '$command --scratch $value: exit 2 with the accepted form, nothing read or written',
    ({ args, value, why }) => {
      const run = runCli([...args, '--scratch', value, '--json']);
      expect(run.status, run.stderr).toBe(2);
      const document = JSON.parse(run.stdout) as { error: { code: string; message: string; hint: string } };
      expect(document.error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: `--scratch ${JSON.stringify(value)} is not accepted${why === null ? '' : `: ${why}`}.`,
        hint: `Accepted: ${SCRATCH.accepted}.`,
      });
      expect(existsSync(out)).toBe(false);
    },
  );

  it.each(commands)('%s lists --scratch in its help with the accepted form', (command) => {
    const help = runCli([command, '--help'], { env: { COLUMNS: '1000' } });
    expect(help.stdout).toContain('--scratch=<value>');
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(SCRATCH.accepted);
  });
});

describe('the fleet role takes its choices from the same definitions', () => {
  it('encplan_apply_fail_on offers the --fail-on values (and none)', () => {
    const spec = readFileSync(
      path.join(REPO_ROOT, 'ansible/ansible_collections/encplan/fleet/roles/apply/meta/argument_specs.yml'),
      'utf8',
    );
    const choices = /encplan_apply_fail_on:[\s\S]*?choices: \[([^\]]*)\]/
      .exec(spec)?.[1]
      ?.split(',')
      .map((c) => c.trim());
    expect(choices?.filter((choice) => choice !== 'none').sort()).toEqual(
      [...FLAG_DEFINITIONS.failOn.schema.options].sort(),
    );
  });

  // Issue 25 item 4: the assess role takes every plan option `encplan assess` takes, from the same definitions.
  const ROLE = path.join(REPO_ROOT, 'ansible/ansible_collections/encplan/fleet/roles/assess');
  const spec = readFileSync(path.join(ROLE, 'meta/argument_specs.yml'), 'utf8');
  const tasks = readFileSync(path.join(ROLE, 'tasks/main.yml'), 'utf8');
  /** One option's block of the argument spec: its lines up to the next option. */
  function blockOf(name: string): string | null {
    const match = new RegExp(`^ {6}${name}:\\n((?: {8,}.*\\n)*)`, 'm').exec(spec);
    return match?.[1] ?? null;
  }
  // --fail-on is the apply role's gate (encplan_apply_fail_on, above): assess publishes every verdict.
  const roleFlags = Object.values(FLAG_DEFINITIONS).filter((definition) => definition.flag !== 'fail-on');

  it.each(roleFlags.map((definition) => ({ flag: definition.flag, definition })))(
    "encplan_$flag: an option of the assess role with the definition's values or accepted form, passed as --$flag",
    ({ flag, definition }) => {
      const name = `encplan_${flag.replace(/-/g, '_')}`;
      const block = blockOf(name);
      expect(block, `${name} in meta/argument_specs.yml`).not.toBeNull();
      const options = (definition.schema as { options?: readonly string[] }).options;
      if (options === undefined) {
        expect(block).toContain(`Accepted: ${definition.accepted}.`);
      } else {
        const choices = /choices: \[([^\]]*)\]/
          .exec(block ?? '')?.[1]
          ?.split(',')
          .map((c) => c.trim());
        expect(choices).toEqual([...options]);
      }
      // Passed under its own flag: the loop of plan options, or --scratch with the benchmark.
      expect(tasks).toMatch(new RegExp(`\\{ var: ${name}, flag: ${flag} \\}|'--${flag}=' ~ ${name}`));
    },
  );

  it('lists no plan option the definitions do not know', () => {
    const names = new Set(roleFlags.map((definition) => `encplan_${definition.flag.replace(/-/g, '_')}`));
    const looped = [...tasks.matchAll(/\{ var: (\S+), flag: /g)].map((match) => match[1]);
    expect(looped.filter((name) => !names.has(name!))).toEqual([]);
  });
});
