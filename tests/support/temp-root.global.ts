import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The folders tests make under the temp dir start with this (mkdtemp prefixes); none may outlive the run. */
const TEST_DIR_PREFIX = 'encplan-test-';

/** The `encplan-test-*` folders left in `root`, sorted. */
function leftoverTestDirs(root: string): string[] {
  return readdirSync(root)
    .filter((name) => name.startsWith(TEST_DIR_PREFIX))
    .sort();
}

/**
 * Global setup of the unit and e2e projects (vitest.config.ts): the run gets a fresh temp folder of its own, set as
 * TMPDIR before the workers start (os.tmpdir() reads it, and the CLI an e2e test starts inherits it), so what
 * remains in it is this run's and not another run's on a shared machine. The teardown fails the run when an
 * `encplan-test-*` folder remains, naming it (a test must remove what it made: tests/support/temp-dirs.ts),
 * then removes the folder whatever it holds. When both projects run at once, the first one's folder serves both.
 */
export default function setup(): () => void {
  if (process.env.ENCPLAN_TEST_TMPDIR !== undefined) {
    return () => undefined;
  }
  const outer = process.env.TMPDIR;
  const root = mkdtempSync(path.join(tmpdir(), 'encplan-vitest-'));
  process.env.TMPDIR = root;
  process.env.ENCPLAN_TEST_TMPDIR = root;
  return () => {
    const left = leftoverTestDirs(root);
    rmSync(root, { recursive: true, force: true });
    if (outer === undefined) {
      delete process.env.TMPDIR;
    } else {
      process.env.TMPDIR = outer;
    }
    delete process.env.ENCPLAN_TEST_TMPDIR;
    if (left.length > 0) {
      throw new Error(
        `${String(left.length)} temporary folder(s) outlived their tests: ${left.join(', ')}. Remove what a test makes when it ends (tests/support/temp-dirs.ts).`,
      );
    }
  };
}
