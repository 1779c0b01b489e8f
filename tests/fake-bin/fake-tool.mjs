#!/usr/bin/env node
// A fake executable that replays captured tool output (docs/testing.md "Fake executables").
// Tests link it under a tool's name (smartctl, fio, …) into a private directory, next to script.json:
//   { "<tool>": [ { "args": [...] | null, "stdoutFile": "…", "stdout": "…", "stderr": "…", "exitCode": 0,
//                   "sleepMs": 0, "floodBytes": 0, "writeFiles": { "<path from --output=…>": "fixture" },
//                   "ignoreSigterm": false, "backgroundHoldsStdout": false } ] }
// Hostile cases: `ignoreSigterm` makes the tool survive SIGTERM (only SIGKILL ends it); `backgroundHoldsStdout`
// leaves a child in the tool's process group that keeps stdout and stderr open after the tool exits, and
// writes its pid to background.pid next to the script.
// The first case whose args equal the real argv (null matches any) answers. Every call is appended to
// calls.jsonl: the exact argv and stdin the tool received (and what its fd 0 is), which is what tests assert on.
// eslint-disable-next-line no-restricted-imports -- a fake tool that leaves a child behind has to start one
import { spawn } from 'node:child_process';
import { appendFileSync, fstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Called by a generated wrapper as: node fake-tool.mjs <wrapper path> <args…>
const self = process.argv[2];
const dir = path.dirname(self);
const tool = path.basename(self);
const argv = process.argv.slice(3);
const script = JSON.parse(readFileSync(path.join(dir, 'script.json'), 'utf8'));

// What fd 0 is: the null device, a pipe (Node's child pipes are socket pairs) or anything else.
let stdinKind;
try {
  const fd0 = fstatSync(0);
  stdinKind =
    fd0.isCharacterDevice() && fd0.rdev === statSync('/dev/null').rdev
      ? 'null'
      : fd0.isFIFO() || fd0.isSocket()
        ? 'pipe'
        : 'other';
} catch {
  stdinKind = 'closed';
}
let stdin;
try {
  stdin = readFileSync(0, 'utf8');
} catch {
  stdin = '';
}
appendFileSync(
  path.join(dir, 'calls.jsonl'),
  `${JSON.stringify({ tool, argv, stdin, stdinKind, cwd: process.cwd() })}\n`,
);

const cases = script[tool] ?? [];
const match = cases.find(
  (c) => c.args === null || c.args === undefined || JSON.stringify(c.args) === JSON.stringify(argv),
);
if (!match) {
  process.stderr.write(`fake ${tool}: no case for ${JSON.stringify(argv)}\n`);
  process.exit(127);
}
if (match.ignoreSigterm) {
  process.on('SIGTERM', () => undefined);
}
if (match.backgroundHoldsStdout) {
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  writeFileSync(path.join(dir, 'background.pid'), String(holder.pid));
  holder.unref();
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
if (match.sleepMs) {
  await sleep(match.sleepMs);
}
if (match.writeFiles) {
  for (const [flag, source] of Object.entries(match.writeFiles)) {
    const arg = argv.find((a) => a.startsWith(`${flag}=`));
    if (arg) {
      writeFileSync(arg.slice(flag.length + 1), readFileSync(path.resolve(dir, source)));
    }
  }
}
if (match.floodBytes) {
  const chunk = 'x'.repeat(65536);
  for (let written = 0; written < match.floodBytes; written += chunk.length) {
    if (!process.stdout.write(chunk)) {
      await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
  }
}
if (match.stdoutFile) {
  process.stdout.write(readFileSync(path.resolve(dir, match.stdoutFile)));
}
if (match.stdout) {
  process.stdout.write(match.stdout);
}
if (match.stderr) {
  process.stderr.write(match.stderr);
}
process.exitCode = match.exitCode ?? 0;
