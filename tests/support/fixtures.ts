import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './fake-tools.js';

/** The text of a fixture file, relative to fixtures/. */
export function readFixture(relative: string): string {
  return readFileSync(path.join(REPO_ROOT, 'fixtures', relative), 'utf8');
}

/** The case folders of one tool under fixtures/<tool>/ (a new folder is a new test). */
export function fixtureCases(tool: string): string[] {
  return readdirSync(path.join(REPO_ROOT, 'fixtures', tool), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort();
}
