import { afterEach, describe, expect, it, vi } from 'vitest';

// oclif's execute and Config.load, replaced by ones that record what the launcher's wrapper gives them: how
// `localeCompare` orders 'b' and 'a' while Config.load runs (the collator's order and code units agree on those
// two; 'Z' and 'a' tell them apart: code units put 'Z' first, the collator 'a') and after it.
const seen: { duringLoad: number[]; afterLoad: number[]; loads: number } = {
  duringLoad: [],
  afterLoad: [],
  loads: 0,
};
vi.mock('@oclif/core', () => {
  class Config {
    // eslint-disable-next-line @typescript-eslint/require-await -- stands for oclif's async Config.load
    static async load(): Promise<Config> {
      seen.loads += 1;
      seen.duringLoad.push('Z'.localeCompare('a'));
      return new Config();
    }
  }
  return {
    Config,
    execute: async () => {
      await Config.load();
      seen.afterLoad.push('Z'.localeCompare('a'));
      await Config.load();
      return 'done';
    },
  };
});

const { Config } = await import('@oclif/core');
const { commandOrderUnused, execute } = await import('../src/execute.js');

const descriptor = (object: object, key: string) => Object.getOwnPropertyDescriptor(object, key);

afterEach(() => {
  seen.duringLoad = [];
  seen.afterLoad = [];
  seen.loads = 0;
});

describe('execute: oclif without the collator where the command order is unused (issue 28)', () => {
  it('names assess without a help flag as a run that never reads the order of the command list', () => {
    expect(commandOrderUnused(['assess', '/dev/sda', '--json'])).toBe(true);
    expect(commandOrderUnused(['assess', '--all'])).toBe(true);
    expect(commandOrderUnused(['assess', '--help'])).toBe(false);
    expect(commandOrderUnused(['assess', '/dev/sda', '-h'])).toBe(false);
    expect(commandOrderUnused(['help', 'assess'])).toBe(false);
    expect(commandOrderUnused(['completion'])).toBe(false);
    expect(commandOrderUnused(['asess'])).toBe(false);
    expect(commandOrderUnused([])).toBe(false);
  });

  it('assess: the first Config.load compares code units, then localeCompare and Config.load are put back', async () => {
    const before = {
      load: descriptor(Config, 'load'),
      localeCompare: descriptor(String.prototype, 'localeCompare'),
    };
    await expect(execute({ dir: 'file:///encplan/bin/run.js', args: ['assess', '--json'] })).resolves.toBe(
      'done',
    );
    // 'Z' < 'a' by code unit; the second load (the command's reload) is oclif's own again.
    expect(seen.duringLoad).toEqual([-1, 1]);
    expect(seen.afterLoad).toEqual([1]);
    expect(seen.loads).toBe(2);
    expect({
      load: descriptor(Config, 'load'),
      localeCompare: descriptor(String.prototype, 'localeCompare'),
    }).toEqual(before);
  });

  it('every other run is oclif’s execute as it is: the locale order throughout', async () => {
    await execute({ dir: 'file:///encplan/bin/run.js', args: ['--help'] });
    await execute({ dir: 'file:///encplan/bin/run.js', args: ['assess', '--help'] });
    expect(seen.duringLoad).toEqual([1, 1, 1, 1]);
    expect(seen.afterLoad).toEqual([1, 1]);
  });
});
