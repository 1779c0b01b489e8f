import { readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './fake-tools.js';

/** The case folders of one tool under fixtures/<tool>/ (a new folder is a new test). */
export function fixtureCases(tool: string): string[] {
  return readdirSync(path.join(REPO_ROOT, 'fixtures', tool), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .map((entry) => entry.name)
    .sort();
}
