import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/index.js';

// What oclif does with a command's definitions, checked for every command (@oclif/core 5 parser/parse.js,
// validate.js): an argument not given is read from stdin unless `ignoreStdin`, and `dependsOn` counts a default as
// a value given, so a flag depended on must have none.
type Definition = {
  readonly args?: Readonly<Record<string, { readonly ignoreStdin?: boolean }>>;
  readonly flags?: Readonly<
    Record<string, { readonly default?: unknown; readonly dependsOn?: readonly string[] }>
  >;
  readonly baseFlags?: Readonly<Record<string, { readonly default?: unknown }>>;
};
const DEFINITIONS = Object.entries(COMMANDS as Readonly<Record<string, Definition>>);

describe('command definitions', () => {
  it('every argument of every command is taken from the command line only, never from stdin', () => {
    const readFromStdin = DEFINITIONS.flatMap(([id, command]) =>
      Object.entries(command.args ?? {})
        .filter(([, arg]) => arg.ignoreStdin !== true)
        .map(([name]) => `${id} ${name}`),
    );
    expect(readFromStdin).toEqual([]);
    expect(
      DEFINITIONS.filter(([, command]) => Object.keys(command.args ?? {}).length > 0).length,
    ).toBeGreaterThan(3);
  });

  it('a flag another depends on has no default, so giving the other alone is refused', () => {
    const defaulted = DEFINITIONS.flatMap(([id, command]) => {
      const flags = { ...command.baseFlags, ...command.flags };
      return Object.entries(command.flags ?? {}).flatMap(([name, flag]) =>
        (flag.dependsOn ?? [])
          .filter((other) => flags[other]?.default !== undefined)
          .map((other) => `${id} --${name} depends on --${other}, which has a default`),
      );
    });
    expect(defaulted).toEqual([]);
    const dependent = DEFINITIONS.flatMap(([id, command]) =>
      Object.entries(command.flags ?? {})
        .filter(([, flag]) => (flag.dependsOn ?? []).length > 0)
        .map(([name]) => `${id} --${name}`),
    );
    expect(dependent).toEqual(
      expect.arrayContaining([
        'assess --quick',
        'assess --scratch',
        'assess --target-spare-base',
        'collect --quick',
        'collect --scratch',
        'plan --target-spare-base',
        'benchmark:io --yes',
      ]),
    );
  });
});
