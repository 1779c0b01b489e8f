#!/usr/bin/env node
// Prints one closing line over every vitest project's JSON report in test-artifacts/:
// "tests: N passed, N failed, N skipped". CI reads it; exits 1 when a test failed or none ran.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const directory = fileURLToPath(new URL('../test-artifacts/', import.meta.url));
const reports = existsSync(directory)
  ? readdirSync(directory).filter((name) => /^vitest-.+\.json$/.test(name))
  : [];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of reports.sort()) {
  const report = JSON.parse(readFileSync(path.join(directory, name), 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(
    `${name.replace(/^vitest-|\.json$/g, '')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
  );
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
