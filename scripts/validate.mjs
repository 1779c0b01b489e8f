#!/usr/bin/env node
// `npm run validate`: the performance model and the rules against published measurements
// (fixtures/validation/, docs/validation.md). Prints one row per case: the published figure, encplan's
// prediction, the error and whether the recommendation matches. Exits 1 when a case fails (a case outside
// tolerance that names what the model cannot know is reported, not failed). Needs `npm run build` first.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { formatValidationTable, resolveValidationCase, runValidationCase } = await import(
  path.join(root, 'packages/core/dist/plan/validation.js')
);
const readJson = (relative) => JSON.parse(readFileSync(path.join(root, relative), 'utf8'));
const directory = 'fixtures/validation';
const results = readdirSync(path.join(root, directory))
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => runValidationCase(resolveValidationCase(readJson(`${directory}/${name}`), readJson)));
process.stdout.write(`${formatValidationTable(results)}\n`);
for (const result of results.filter((row) => row.note !== null && row.status !== 'pass')) {
  process.stdout.write(`\n${result.id}: ${result.note}\n`);
}
process.exitCode = results.some((row) => row.status === 'fail') ? 1 : 0;
