import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  answerHelp,
  asciiJson,
  helpCacheFile,
  helpConditions,
  helpSubject,
  oclifWouldDiffer,
} from '../src/help-fast.js';

const subjects = new Set(['', 'assess', 'benchmark', 'benchmark io', 'help']);
const pipe = { stdoutIsTTY: false, stderrIsTTY: false, columns: undefined };
const terminal = { stdoutIsTTY: true, stderrIsTTY: true, columns: 80 };
const runtime = 'linux-x64 node-v22.0.0';

describe('helpSubject', () => {
  it.each([
    [[], ''],
    [['--help'], ''],
    [['-h'], ''],
    [['help'], ''],
    [['assess', '--help'], 'assess'],
    [['assess', '-h'], 'assess'],
    [['help', 'assess'], 'assess'],
    [['benchmark', 'io', '--help'], 'benchmark io'],
    [['help', 'benchmark', 'io'], 'benchmark io'],
    [['help', 'benchmark'], 'benchmark'],
    [['help', 'help'], 'help'],
    [['help', '--help'], 'help'],
  ])('%j is the help of %j', (argv, subject) => {
    expect(helpSubject(argv, subjects)).toBe(subject);
  });

  it.each([
    // Unknown words (oclif's "not found" and did-you-mean), flags and values, `--`, the help command's own flags.
    [['asess', '--help']],
    [['help', 'asess']],
    [['benchmark', 'nope', '--help']],
    [['assess', '--json', '--help']],
    [['assess', '/dev/sda', '--help']],
    [['--help', 'assess']],
    [['assess', '--', '--help']],
    [['help', '--json']],
    [['help', 'assess', '--help']],
    [['--help', '--help']],
    [['assess']],
    [['Assess', '--help']],
  ])('%j is left to oclif', (argv) => {
    expect(helpSubject(argv, subjects)).toBeUndefined();
  });
});

describe('helpConditions', () => {
  it('on a pipe without FORCE_COLOR: width, NODE_ENV and the runtime matter, colour variables do not', () => {
    const plain = helpConditions({}, pipe, runtime);
    expect(
      helpConditions({ TERM: 'xterm-256color', COLORTERM: 'truecolor', CI: 'true' }, pipe, runtime),
    ).toBe(plain);
    expect(helpConditions({}, { ...pipe, stderrIsTTY: true }, runtime)).toBe(plain);
    expect(helpConditions({ OCLIF_COLUMNS: '120' }, pipe, runtime)).not.toBe(plain);
    expect(helpConditions({ COLUMNS: '120' }, pipe, runtime)).not.toBe(plain);
    expect(helpConditions({ NODE_ENV: 'test' }, pipe, runtime)).not.toBe(plain);
    expect(helpConditions({ NODE_ENV: 'development' }, pipe, runtime)).not.toBe(plain);
    expect(helpConditions({ NODE_ENV: 'production' }, pipe, runtime)).toBe(plain);
    expect(helpConditions({}, pipe, 'linux-x64 node-v22.1.0')).not.toBe(plain);
    expect(helpConditions({ FORCE_COLOR: '1' }, pipe, runtime)).not.toBe(plain);
  });

  it('on a terminal: the columns, stderr and every colour variable matter', () => {
    const base = helpConditions({ TERM: 'xterm-256color' }, terminal, runtime);
    expect(helpConditions({ TERM: 'xterm-256color' }, terminal, runtime)).toBe(base);
    expect(helpConditions({ TERM: 'xterm-256color' }, { ...terminal, columns: 120 }, runtime)).not.toBe(base);
    expect(helpConditions({ TERM: 'xterm-256color' }, { ...terminal, stderrIsTTY: false }, runtime)).not.toBe(
      base,
    );
    expect(helpConditions({ TERM: 'dumb' }, terminal, runtime)).not.toBe(base);
    for (const name of ['NO_COLOR', 'FORCE_COLOR', 'CI', 'COLORTERM', 'TEAMCITY_VERSION', 'TERM_PROGRAM']) {
      expect(helpConditions({ TERM: 'xterm-256color', [name]: '1' }, terminal, runtime)).not.toBe(base);
    }
    // ansis looks at variable names starting with GITHUB, GITEA or TEAMCI.
    expect(helpConditions({ TERM: 'xterm-256color', GITHUB_WORKSPACE: '/w' }, terminal, runtime)).not.toBe(
      base,
    );
    expect(helpConditions({ TERM: 'xterm-256color', UNRELATED: '1' }, terminal, runtime)).toBe(base);
  });
});

describe('oclifWouldDiffer', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'encplan-help-fast-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('a user theme or user plugins (oclif’s folders, XDG or scoped variables), debugging, or Windows', () => {
    expect(oclifWouldDiffer({ HOME: home }, 'linux')).toBe(false);
    expect(oclifWouldDiffer({ HOME: home }, 'win32')).toBe(true);
    expect(oclifWouldDiffer({ HOME: home, DEBUG: '*' }, 'linux')).toBe(true);
    expect(oclifWouldDiffer({ HOME: home, ENCPLAN_DEBUG: '1' }, 'linux')).toBe(true);

    mkdirSync(path.join(home, '.config/encplan'), { recursive: true });
    writeFileSync(path.join(home, '.config/encplan/theme.json'), '{"sectionHeader":"red"}');
    expect(oclifWouldDiffer({ HOME: home }, 'linux')).toBe(true);
    expect(oclifWouldDiffer({ HOME: home, XDG_CONFIG_HOME: path.join(home, 'elsewhere') }, 'linux')).toBe(
      false,
    );
    expect(oclifWouldDiffer({ HOME: home, ENCPLAN_CONFIG_DIR: path.join(home, 'elsewhere') }, 'linux')).toBe(
      false,
    );
    rmSync(path.join(home, '.config/encplan/theme.json'));

    mkdirSync(path.join(home, 'data/encplan'), { recursive: true });
    writeFileSync(path.join(home, 'data/encplan/package.json'), '{}');
    expect(oclifWouldDiffer({ HOME: home }, 'linux')).toBe(false);
    expect(oclifWouldDiffer({ HOME: home, XDG_DATA_HOME: path.join(home, 'data') }, 'linux')).toBe(true);
    expect(oclifWouldDiffer({ HOME: home, ENCPLAN_DATA_DIR: path.join(home, 'data/encplan') }, 'linux')).toBe(
      true,
    );
  });
});

describe('the files', () => {
  it('the cache file lies in the user cache folder, one per build, conditions and subject', () => {
    const file = helpCacheFile({ XDG_CACHE_HOME: '/c' }, 'b1', 'x', 'assess');
    expect(path.dirname(file)).toBe('/c/encplan');
    expect(path.basename(file)).toMatch(/^help-b1-[0-9a-f]{8}\.json$/u);
    expect(helpCacheFile({ XDG_CACHE_HOME: '/c' }, 'b1', 'y', 'assess')).not.toBe(file);
    expect(helpCacheFile({ XDG_CACHE_HOME: '/c' }, 'b1', 'x', 'plan')).not.toBe(file);
    expect(helpCacheFile({ XDG_CACHE_HOME: '/c' }, 'b2', 'x', 'assess')).not.toBe(file);
    expect(path.dirname(helpCacheFile({ XDG_CACHE_HOME: 'relative', HOME: '/h' }, 'b1', 'x', ''))).toBe(
      '/h/.cache/encplan',
    );
  });

  it('asciiJson escapes everything outside printable ASCII and reads back the same', () => {
    const value = { text: 'a … b\n\u001b[1mUSAGE\u001b[22m ×' };
    const json = asciiJson(value);
    expect(json).toMatch(/^[\x20-\x7e]*\n$/u);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('answerHelp', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'encplan-help-answer-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const environment = { HOME: folder, XDG_CACHE_HOME: path.join(folder, 'cache') };
  // The conditions of this very process, as answerHelp computes them.
  const here = helpConditions(environment, {
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
  });
  const textFile = (name: string, content: string): URL => {
    const file = path.join(folder, name);
    writeFileSync(file, content);
    return new URL(`file://${file}`);
  };
  const good = textFile(
    'help-text.json',
    asciiJson({ format: 1, build: 'b', conditions: here, texts: { '': 'ROOT\n', assess: 'ASSESS\n' } }),
  );

  /** What answerHelp returned and printed (only answers that print nothing or hit are asked here). */
  function answer(argv: readonly string[], url: URL, env: NodeJS.ProcessEnv = environment) {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      return { answered: answerHelp(argv, url, env), printed: written.join('') };
    } finally {
      spy.mockRestore();
    }
  }

  it('prints the text of a known subject under the same conditions', () => {
    expect(answer(['assess', '--help'], good)).toEqual({ answered: true, printed: 'ASSESS\n' });
    expect(answer([], good)).toEqual({ answered: true, printed: 'ROOT\n' });
  });

  it('leaves to oclif: ENCPLAN_HELP_CACHE=0, a missing or corrupt file, an unknown subject, debugging', () => {
    const none = { answered: false, printed: '' };
    expect(answer(['assess', '--help'], good, { ...environment, ENCPLAN_HELP_CACHE: '0' })).toEqual(none);
    expect(answer(['assess', '--help'], new URL(`file://${path.join(folder, 'missing.json')}`))).toEqual(
      none,
    );
    expect(answer(['assess', '--help'], textFile('corrupt.json', '{"format":1,'))).toEqual(none);
    expect(answer(['assess', '--help'], textFile('other.json', '{"format":2,"texts":{}}'))).toEqual(none);
    expect(answer(['asess', '--help'], good)).toEqual(none);
    expect(answer(['assess', '--help'], good, { ...environment, DEBUG: '*' })).toEqual(none);
  });
});
