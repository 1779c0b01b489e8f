import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { createRunner } from '@encplan/core/node';
import { removeAtFileEnd } from './temp-dirs.js';

/** One answer of a fake tool; see tests/fake-bin/fake-tool.mjs. */
export interface FakeCase {
  readonly args?: readonly string[] | null;
  /** A file to print, relative to the repository root (usually under fixtures/). */
  readonly stdoutFixture?: string;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exitCode?: number;
  readonly sleepMs?: number;
  readonly floodBytes?: number;
  /** Writes a fixture to the path given by a `--flag=path` argument (fio's --output). */
  readonly writeFiles?: Readonly<Record<string, string>>;
  /** The tool survives SIGTERM; only SIGKILL ends it. */
  readonly ignoreSigterm?: boolean;
  /** The tool leaves a child in its process group that holds stdout open (pid in `<binDir>/background.pid`). */
  readonly backgroundHoldsStdout?: boolean;
}

/** A call a fake tool received. */
export interface FakeCall {
  readonly tool: string;
  readonly argv: string[];
  readonly stdin: string;
  /** What the tool's fd 0 was: the null device, a pipe, something else, or closed. */
  readonly stdinKind: 'null' | 'pipe' | 'other' | 'closed';
}

/** A private directory of fake tools, to put first on PATH. */
export interface FakeTools {
  readonly binDir: string;
  calls(): Promise<FakeCall[]>;
  remove(): Promise<void>;
}

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAKE_TOOL = path.join(REPO_ROOT, 'tests/fake-bin/fake-tool.mjs');

/**
 * Creates fake executables named after tools, each replaying the given cases. `nonExecutable` tools are
 * created without the execute bit (EACCES). Tools not listed do not exist (TOOL_NOT_FOUND).
 */
export async function createFakeTools(
  cases: Readonly<Record<string, readonly FakeCase[]>>,
  options: { nonExecutable?: readonly string[] } = {},
): Promise<FakeTools> {
  // Removed by `remove()`, and when the test file ends in any case (a test that made two sets left the first).
  const binDir = removeAtFileEnd(await mkdtemp(path.join(tmpdir(), 'encplan-test-fakebin-')));
  const script: Record<string, unknown[]> = {};
  for (const [tool, list] of Object.entries(cases)) {
    script[tool] = list.map(({ stdoutFixture, writeFiles, ...rest }) => ({
      ...rest,
      ...(stdoutFixture === undefined ? {} : { stdoutFile: path.join(REPO_ROOT, stdoutFixture) }),
      ...(writeFiles === undefined
        ? {}
        : {
            writeFiles: Object.fromEntries(
              Object.entries(writeFiles).map(([flag, file]) => [flag, path.join(REPO_ROOT, file)]),
            ),
          }),
    }));
    const target = path.join(binDir, tool);
    if (options.nonExecutable?.includes(tool)) {
      await writeFile(target, '#!/bin/sh\nexit 0\n');
      await chmod(target, 0o644);
    } else {
      // A /bin/sh wrapper with absolute paths, so the fake works whatever PATH the runner gives its children.
      await writeFile(target, `#!/bin/sh\nexec '${process.execPath}' '${FAKE_TOOL}' "$0" "$@"\n`);
      await chmod(target, 0o755);
    }
  }
  await writeFile(path.join(binDir, 'script.json'), JSON.stringify(script));
  return {
    binDir,
    async calls() {
      const text = await readFile(path.join(binDir, 'calls.jsonl'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as FakeCall);
    },
    remove: () => rm(binDir, { recursive: true, force: true }),
  };
}

/**
 * Fake tools for the tests of one file: `runnerWith(cases)` makes a fresh set and a runner that finds only
 * them; `fakes()` is that set (its calls); it is removed after each test. Call once, at the top of the file.
 */
export function fakeToolsPerTest(runnerOptions: { killGraceMs?: number } = {}): {
  readonly runnerWith: (
    cases: Parameters<typeof createFakeTools>[0],
  ) => Promise<ReturnType<typeof createRunner>>;
  readonly fakes: () => FakeTools;
} {
  let current: FakeTools | undefined;
  afterEach(async () => {
    await current?.remove();
    current = undefined;
  });
  return {
    runnerWith: async (cases) => {
      current = await createFakeTools(cases);
      return createRunner({ searchPath: current.binDir, includeSystemDirectories: false, ...runnerOptions });
    },
    fakes: () => {
      if (current === undefined) {
        throw new Error('No fake tools yet: call runnerWith first.');
      }
      return current;
    },
  };
}
