#!/usr/bin/env node
// Ends a test run: one line per vitest project's JSON report in test-artifacts/, then every skipped test with
// the reason its file recorded (tests/support/skip-reasons.ts → test-artifacts/skip-reasons.jsonl), then the
// closing line "tests: N passed, N failed, N skipped" that CI reads. Exits 1 when a test failed or none ran.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
// ENCPLAN_TEST_ARTIFACTS names another folder (tests/cli-e2e/test-summary.test.ts).
const directory = process.env.ENCPLAN_TEST_ARTIFACTS ?? path.join(root, 'test-artifacts');
const reports = existsSync(directory)
  ? readdirSync(directory).filter((name) => /^vitest-.+\.json$/.test(name))
  : [];

/** Reasons by test file: `file` for the whole file, `file\0test` for one test. */
const reasons = new Map();
const reasonsFile = path.join(directory, 'skip-reasons.jsonl');
if (existsSync(reasonsFile)) {
  for (const line of readFileSync(reasonsFile, 'utf8').split('\n')) {
    if (line.trim() === '') {
      continue;
    }
    const { file, test, reason } = JSON.parse(line);
    const key = test === undefined ? file : `${file}\0${test}`;
    const known = reasons.get(key) ?? [];
    if (!known.includes(reason)) {
      reasons.set(key, [...known, reason]);
    }
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const skippedTests = [];
for (const name of reports.sort()) {
  const report = JSON.parse(readFileSync(path.join(directory, name), 'utf8'));
  const project = name.replace(/^vitest-|\.json$/g, '');
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(
    `${project}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
  );
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'skipped' && test.status !== 'pending' && test.status !== 'todo') {
        continue;
      }
      const why = reasons.get(`${relative}\0${test.title}`) ??
        reasons.get(relative) ?? [
          'no reason recorded (the test should call noteSkip, tests/support/skip-reasons.ts)',
        ];
      skippedTests.push(`  ${project} · ${relative} › ${test.fullName}\n      why: ${why.join('; ')}`);
    }
  }
}
if (skippedTests.length > 0) {
  console.log(`skipped tests (${skippedTests.length}), each with why:`);
  for (const line of skippedTests) {
    console.log(line);
  }
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
