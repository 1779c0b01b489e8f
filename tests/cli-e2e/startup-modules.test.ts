import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { createFakeTools, REPO_ROOT } from '../support/fake-tools.js';

// What each command loads (issue 18, start-up): the CLI runs from its rolldown bundle (scripts/bundle-cli.mjs),
// `--help` from oclif alone, and no command loads what only another needs. tests/support/module-trace.mjs
// records every module file a run loads; the lists are compared, never the time they take.
const work = mkdtempSync(path.join(tmpdir(), 'encplan-modules-'));
const cli = path.join(REPO_ROOT, 'packages/cli');
const bundleDir = path.join(REPO_ROOT, 'fixtures/bundles/loop-gpt-ext4-78pct-debian12');
const macBundleDir = path.join(REPO_ROOT, 'fixtures/bundles/darwin-intel-catalina-filevault-disk1s5');
afterAll(() => rmSync(work, { recursive: true, force: true }));

let runs = 0;
/**
 * The module files one run loads (relative to packages/cli), the built-in modules, whether it compared strings
 * by locale (which builds ICU's collator), how many zod schemas it constructed, and the exit status.
 */
function loadedBy(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  stdin: 'pipe' | 'ignore' = 'pipe',
): {
  status: number;
  files: string[];
  builtins: string[];
  collator: boolean;
  zodInstances: number;
} {
  runs += 1;
  const trace = path.join(work, `trace-${String(runs)}.txt`);
  const hook = pathToFileURL(path.join(REPO_ROOT, 'tests/support/module-trace.mjs')).href;
  const run = runCli(args, {
    stdin,
    // As a user runs it: under NODE_ENV test or development (vitest sets test), oclif also loads typescript
    // to look for a tsconfig.json.
    env: { NODE_OPTIONS: `--import ${hook}`, ENCPLAN_MODULE_TRACE: trace, NODE_ENV: 'production', ...env },
  });
  const urls = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((url) => url !== '' && url !== hook);
  const files = urls
    .filter((url) => url.startsWith('file:'))
    .map((url) => path.relative(cli, fileURLToPath(url)));
  const builtins = urls.filter((url) => url.startsWith('node:'));
  const zodInstances = Number(/^zod:instances (\d+)$/m.exec(urls.join('\n'))?.[1]);
  return { status: run.status, files, builtins, collator: urls.includes('intl:collator'), zodInstances };
}

/** Which bundled packages a chunk holds: rolldown names each module's path in a comment. */
function packagesIn(file: string): Set<string> {
  const source = readFileSync(path.join(cli, file), 'utf8');
  return new Set(
    [
      ...source.matchAll(/^\/\/ (node_modules\/(?:@[^/\s]+\/)?[^/\s]+|packages\/[^/\s]+\/dist\/[^/\s]+)/gm),
    ].map((match) => match[1] ?? ''),
  );
}
const loadedPackages = (files: readonly string[]) =>
  new Set(files.filter((file) => file.startsWith('bundle/')).flatMap((file) => [...packagesIn(file)]));
/** The bundled modules (`packages/core/dist/fleet/fleet-csv.js`, …) of the bundle files a run loaded. */
const loadedModules = (files: readonly string[]) =>
  files
    .filter((file) => file.startsWith('bundle/'))
    .flatMap((file) => [
      ...readFileSync(path.join(cli, file), 'utf8').matchAll(/^\/\/ ((?:node_modules|packages)\/\S+)/gm),
    ])
    .map((match) => match[1] ?? '');

// The help oclif rendered at build time (bundle/help-text.json) is printed without oclif (src/help-fast.ts);
// ENCPLAN_HELP_CACHE=0 asks oclif, as a run whose text is neither in that file nor in the user's cache does.
const askOclif = { ENCPLAN_HELP_CACHE: '0' };
const pipeUser = { XDG_CACHE_HOME: path.join(work, 'cache'), COLUMNS: undefined, OCLIF_COLUMNS: undefined };

describe('what a command loads', () => {
  it('encplan --help, COMMAND --help, help COMMAND: the pre-rendered text alone, neither oclif nor the core', () => {
    for (const args of [
      ['--help'],
      [],
      ['help'],
      ['assess', '--help'],
      ['help', 'benchmark', 'io'],
      ['fleet', '-h'],
    ]) {
      const { status, files, builtins } = loadedBy(args, pipeUser);
      expect({ args, status, files }).toEqual({
        args,
        status: 0,
        files: ['bin/run.js', 'bundle/help-fast.js'],
      });
      expect(builtins).not.toContain('node:crypto');
      expect(builtins).not.toContain('node:child_process');
      // Node's built-ins without their ES namespaces (scripts/builtin-imports.mjs): importing node:fs as an ES
      // module loaded fs.promises (and readline, fs watchers) only to fill the namespace.
      expect(builtins).not.toContain('node:internal/fs/promises');
      expect(builtins).not.toContain('node:internal/readline/interface');
    }
  });

  it('encplan --help answered by oclif: oclif and the help class alone from the bundle, neither the commands nor the core', () => {
    const { status, files } = loadedBy(['--help'], askOclif);
    expect(status).toBe(0);
    expect(files[0]).toBe('bin/run.js');
    expect(files.filter((file) => !file.startsWith('bundle/')).slice(1)).toEqual([]);
    expect(files).toContain('bundle/oclif-entry.js');
    expect(files).not.toContain('bundle/main.js');
    const packages = loadedPackages(files);
    expect(packages).toContain('node_modules/@oclif/core');
    // encplan's help class (help-class.ts), the output sink it prints through, the `help WORDS` rewriting
    // (help-argv.ts), the fast path that found no text (help-fast.ts) and the launcher's execute (execute.ts):
    // nothing else of encplan.
    expect(
      [...packages].filter((name) => name.startsWith('packages/') || name === 'node_modules/zod').sort(),
    ).toEqual([
      'packages/cli/dist/execute.js',
      'packages/cli/dist/help-argv.js',
      'packages/cli/dist/help-class.js',
      'packages/cli/dist/help-fast.js',
      'packages/cli/dist/terminal-sink.js',
    ]);
  });

  it('encplan help COMMAND: answered as COMMAND --help, from oclif alone; help --json runs the help command', () => {
    const help = loadedBy(['help', 'benchmark', 'io'], askOclif);
    expect(help.status).toBe(0);
    expect(help.files).toContain('bundle/oclif-entry.js');
    expect(help.files).not.toContain('bundle/main.js');
    expect(loadedPackages(help.files)).not.toContain('packages/core/dist/use-cases');
    const json = loadedBy(['help', '--json']);
    expect(json.status).toBe(0);
    expect(json.files).toContain('bundle/main.js');
  });

  it('encplan help WORDS prints what WORDS --help prints, and an unknown word is still the help command’s error', () => {
    for (const words of [[], ['assess'], ['benchmark'], ['benchmark', 'io'], ['fleet', 'report'], ['man']]) {
      const viaHelp = runCli(['help', ...words]);
      const viaFlag = runCli([...words, '--help']);
      expect({ words, status: viaHelp.status, stdout: viaHelp.stdout }).toEqual({
        words,
        status: 0,
        stdout: viaFlag.stdout,
      });
    }
    const unknown = runCli(['help', 'nonexistent']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('nonexistent not found');
  });

  it('encplan --version: the version line alone', () => {
    const { status, files } = loadedBy(['--version']);
    expect(status).toBe(0);
    expect(files).toEqual(['bin/run.js', 'bundle/version-line.js']);
  });

  it('encplan assess DISK: without oclif (src/direct.ts), the command body and the core alone', () => {
    for (const [args, status, stdin] of [
      [['assess', '/dev/encplan-test-no-such-disk', '--json'], 4, 'pipe'],
      [['assess', '--bundle', bundleDir, '--json'], 0, 'ignore'],
    ] as const) {
      const { status: exit, files } = loadedBy(args, {}, stdin);
      expect({ args, exit }).toEqual({ args, exit: status });
      expect(files.filter((file) => !file.startsWith('bundle/')).slice(1)).toEqual([]);
      expect(files).toContain('bundle/direct.js');
      expect(files).not.toContain('bundle/oclif-entry.js');
      expect(files).not.toContain('bundle/main.js');
      const packages = loadedPackages(files);
      expect(packages).toContain('packages/cli/dist/assess-run.js');
      expect(packages).toContain('packages/core/dist/use-cases');
      expect(packages).not.toContain('node_modules/@oclif/core');
      expect(packages).not.toContain('node_modules/ejs');
    }
    // What only other commands use is not in the chunks it loads: the core's modules are side-effect free
    // (scripts/bundle-cli.mjs), so `import … from '@encplan/core'` no longer brings every module its index
    // re-exports (before: the fleet report, its CSV columns' 117 zod schemas, node:readline, the saved
    // assessments' readers).
    const direct = loadedBy(['assess', '/dev/encplan-test-no-such-disk', '--json'], {}, 'ignore');
    const modules = loadedModules(direct.files);
    expect(modules).toContain('packages/core/dist/use-cases/assess.js');
    expect(
      modules.filter((module) => /\/fleet|saved-assessments|assessment-jobs|doctor/.test(module)),
    ).toEqual([]);
    expect(direct.builtins).not.toContain('node:readline');
    // `--json` prints the envelope: the report view, the text and HTML reports and the commands script load
    // only when one of them is asked for (src/assess-views.ts, a chunk of its own).
    expect(modules.filter((module) => module.startsWith('packages/core/dist/report/'))).toEqual([]);
    expect(modules).not.toContain('packages/cli/dist/terminal-style.js');
    // Nor the progress bar of --benchmark and the text-width libraries it measures lines with.
    expect(modules).not.toContain('packages/cli/dist/render/progress-bar.js');
    expect(modules.filter((module) => module.startsWith('node_modules/wrap-ansi/'))).toEqual([]);
    // Nor the macOS and Windows assessment (use-cases/assess.ts imports it when the host is one of them): their
    // probes, parsers and I/O benchmark runners.
    const otherPlatforms =
      /use-cases\/assess-platform|probes\/(darwin|windows)\/|parsers\/(plist|powershell|manage-bde|system-profiler|diskutil|diskspd)\/|run-(windows|darwin)-io-benchmark/;
    expect(modules.filter((module) => otherPlatforms.test(module))).toEqual([]);
    const mac = loadedBy(['assess', '--bundle', macBundleDir, '--json'], {}, 'ignore');
    expect(mac.status).toBe(0);
    expect(loadedModules(mac.files)).toContain('packages/core/dist/probes/darwin/probe-darwin-storage.js');
    const text = loadedBy(['assess', '--bundle', bundleDir], {}, 'ignore');
    expect(text.status).toBe(0);
    expect(text.files).toContain('bundle/direct.js');
    expect(loadedModules(text.files)).toContain('packages/core/dist/report/text-report.js');
    // A flag oclif must judge (here a misspelt one) is oclif's, as before.
    const misspelt = loadedBy(['assess', '/dev/encplan-test-no-such-disk', '--jsno']);
    expect(misspelt.status).toBe(2);
    expect(loadedPackages(misspelt.files)).toContain('node_modules/@oclif/core');
  });

  it('encplan assess --bundle: the bundled commands and core, not the ui server nor systeminformation', () => {
    // The direct path (src/direct.ts; ENCPLAN_DIRECT=0 has oclif run it, as in the next test).
    const { status, files, builtins } = loadedBy(['assess', '--bundle', bundleDir, '--json'], {}, 'ignore');
    expect(status).toBe(0);
    // Everything from the bundle: no module of node_modules/ or of a package's tsc output is read.
    expect(files.filter((file) => !file.startsWith('bundle/')).slice(1)).toEqual([]);
    expect(files).toContain('bundle/direct.js');
    const packages = loadedPackages(files);
    expect(packages).toContain('packages/core/dist/use-cases');
    expect(packages).toContain('node_modules/zod');
    expect(packages).not.toContain('packages/desktop/dist/server');
    expect(packages).not.toContain('packages/desktop/dist/backend');
    expect(packages).not.toContain('node_modules/systeminformation');
    // The chart library and its DOM load only when an HTML report is written (next test).
    expect(packages).not.toContain('node_modules/@observablehq/plot');
    expect(packages).not.toContain('node_modules/linkedom');
    expect(files.length).toBeLessThanOrEqual(10);
    // Random keys (benchmark file names, the colour marker) are drawn only by runs that need them.
    expect(builtins).toContain('node:child_process');
    expect(builtins).not.toContain('node:crypto');
  });

  it('encplan assess: oclif’s command list is not sorted by locale (no ICU collator); a listing command still is', () => {
    // src/execute.ts: the order is never read by assess, and the first localeCompare builds ICU's collator.
    // (ENCPLAN_DIRECT=0: oclif runs it, src/direct.ts.)
    const assess = loadedBy(['assess', '--bundle', bundleDir, '--json'], { ENCPLAN_DIRECT: '0' });
    expect(assess.files).toContain('bundle/oclif-entry.js');
    expect(assess.status).toBe(0);
    expect(assess.collator).toBe(false);
    // `completion` lists the commands: oclif sorts them by locale there, as before (and the trace sees it).
    const completion = loadedBy(['completion', 'bash']);
    expect(completion.status).toBe(0);
    expect(completion.collator).toBe(true);
  });

  it("encplan assess: no worker_threads nor perf_hooks, which only node:util's ES namespace and the performance global load", async () => {
    // `import { promisify } from 'node:util'` makes Node read every lazy export of util for the ES namespace
    // (parseArgs, diff, … and worker_threads: 12 built-ins), and the first `performance.now()` builds the global
    // from perf_hooks (11): ~3 ms of each run (core node/write-user-file.ts `settled`, node/clock.ts). `--all`
    // with a fake lsblk that lists no disk starts one child through the runner.
    const fakes = await createFakeTools({ lsblk: [{ stdout: '{"blockdevices": []}' }] });
    try {
      const all = loadedBy(['assess', '--all', '--json'], {
        PATH: `${fakes.binDir}:${process.env.PATH ?? ''}`,
      });
      expect((await fakes.calls()).map((call) => call.tool)).toContain('lsblk');
      const missing = loadedBy(['assess', '/dev/encplan-test-no-such-disk', '--json']);
      for (const run of [all, missing]) {
        expect(run.builtins).toContain('node:child_process');
        expect(run.builtins).not.toContain('node:worker_threads');
        expect(run.builtins).not.toContain('node:perf_hooks');
      }
    } finally {
      await fakes.remove();
    }
  });

  it('encplan assess --json builds the few zod schemas it reads, not the whole contract (scripts/lazy-schemas.mjs)', () => {
    // `schema assessment` builds every schema of an assessment; one assessment from a bundle, printed without
    // validation, builds only what reading the bundle checks (121 instances; before: 2,104 against 2,137). A live
    // disk's builds none (tests/cli-e2e/zod-free-assess.test.ts).
    const whole = loadedBy(['schema', 'assessment']);
    const assess = loadedBy(['assess', '--bundle', bundleDir, '--json']);
    expect([whole.status, assess.status]).toEqual([0, 0]);
    expect(whole.zodInstances).toBeGreaterThan(1000);
    expect(assess.zodInstances).toBeLessThan(whole.zodInstances / 3);
  });

  it('a command that validates nothing builds no zod schema when the core is imported', () => {
    // `version --json` runs through oclif and bundle/main.js, which evaluates every module of the core. Before:
    // 165 instances, the fleet CSV's columns (core/src/fleet/fleet-csv.ts) and the flag definitions
    // (rules/flag-definitions.ts) built at import; both are now built on first use.
    const version = loadedBy(['version', '--json']);
    expect(version.status).toBe(0);
    expect(version.files).toContain('bundle/main.js');
    expect(version.zodInstances).toBeLessThan(20);
  });

  it('encplan assess --bundle --html: the chart library (Observable Plot, linkedom) is loaded to draw the charts', () => {
    const html = path.join(work, 'report.html');
    const { status, files } = loadedBy(['assess', '--bundle', bundleDir, '--json', '--html', html]);
    expect(status).toBe(0);
    const packages = loadedPackages(files);
    expect(packages).toContain('node_modules/@observablehq/plot');
    expect(packages).toContain('node_modules/linkedom');
    expect(readFileSync(html, 'utf8')).not.toContain('<script');
  });
});
