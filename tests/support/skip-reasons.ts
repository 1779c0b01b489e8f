import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './fake-tools.js';

/**
 * Where every test that skips says why, one JSON line each ({ file, reason }): scripts/test-summary.mjs ends the
 * run with each skipped test and the reason its file recorded here (scripts/test.sh empties it first).
 */
const SKIP_REASONS_FILE = path.join(REPO_ROOT, 'test-artifacts/skip-reasons.jsonl');

/**
 * Records why the tests of `testFileUrl` (pass `import.meta.url`) skip, prints it at once on stderr, and
 * returns the reason so that a call can stand where the condition is computed:
 * `const skipReason = noteSkip(import.meta.url, loopDeviceSkipReason());`. Nothing is recorded for null. With
 * `test` (a test's title) the reason is that test's alone (a test that calls `context.skip` at run time).
 */
export function noteSkip<Reason extends string | null>(
  testFileUrl: string,
  reason: Reason,
  test?: string,
): Reason {
  if (reason !== null) {
    const file = path.relative(REPO_ROOT, fileURLToPath(testFileUrl));
    process.stderr.write(`${file}${test === undefined ? '' : ` › ${test}`}: skipped: ${reason}\n`);
    mkdirSync(path.dirname(SKIP_REASONS_FILE), { recursive: true });
    appendFileSync(SKIP_REASONS_FILE, `${JSON.stringify({ file, test, reason })}\n`);
  }
  return reason;
}
