#!/usr/bin/env node
// `npm run bench`: encplan's own speed (issue 2), measured in one run on a loop device.
//  - median wall time of `encplan assess --json` on a loop device (goal < 1 s)
//  - median wall time of `encplan --version` against `node -e 0` (goal < 3×)
// Needs root for the loop device; without root it assesses the disk holding the current directory.
// Other parts of the benchmark (I/O ratio against fio) live in scripts/bench-*.mjs and run after this one.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'packages/cli/bin/run.js');
const ROUNDS = Number(process.env.ENCPLAN_BENCH_ROUNDS ?? 9);
const env = { ...process.env, PATH: `/usr/sbin:/sbin:${process.env.PATH ?? ''}` };

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function time(command, args) {
  const started = performance.now();
  const result = spawnSync(command, args, { env, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return elapsed;
}

let directory = null;
let device = null;
const isRoot = process.getuid?.() === 0;
try {
  if (isRoot) {
    directory = mkdtempSync(path.join(tmpdir(), 'encplan-bench-assess-'));
    const image = path.join(directory, 'disk.img');
    execFileSync('truncate', ['-s', '1G', image], { env });
    device = execFileSync('losetup', ['--find', '--show', '--partscan', image], {
      env,
      encoding: 'utf8',
    }).trim();
    execFileSync('sgdisk', ['-n', '1:2048:+798M', '-t', '1:8300', device], { env });
    execFileSync('partx', ['-u', device], { env });
    execFileSync('mkfs.ext4', ['-q', '-F', `${device}p1`], { env });
  }
  const target = device === null ? [] : [device];
  time(process.execPath, [cli, 'assess', '--json', ...target]); // warm the page cache once
  const assessMs = [];
  const versionMs = [];
  const nodeMs = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    assessMs.push(time(process.execPath, [cli, 'assess', '--json', ...target]));
    versionMs.push(time(process.execPath, [cli, '--version']));
    nodeMs.push(time(process.execPath, ['-e', '0']));
  }
  const assessMedian = median(assessMs);
  const ratio = median(versionMs) / median(nodeMs);
  console.log(
    `encplan assess --json ${device ?? '(disk of the current directory)'}: median ${assessMedian.toFixed(0)} ms over ${ROUNDS} runs (goal < 1000 ms) ${assessMedian < 1000 ? 'OK' : 'SLOW'}`,
  );
  console.log(
    `encplan --version: median ${median(versionMs).toFixed(0)} ms; node -e 0: median ${median(nodeMs).toFixed(0)} ms; ratio ${ratio.toFixed(2)}× (goal < 3×) ${ratio < 3 ? 'OK' : 'SLOW'}`,
  );
} finally {
  if (device !== null) {
    spawnSync('losetup', ['--detach', device], { env });
  }
  if (directory !== null) {
    rmSync(directory, { recursive: true, force: true });
  }
}

for (const extra of readdirSync(path.join(root, 'scripts'))
  .filter((name) => /^bench-.+\.mjs$/.test(name))
  .sort()) {
  if (existsSync(path.join(root, 'scripts', extra))) {
    const result = spawnSync(process.execPath, [path.join(root, 'scripts', extra)], {
      stdio: 'inherit',
      env,
    });
    if (result.status !== 0) {
      process.exitCode = result.status ?? 1;
    }
  }
}
