#!/usr/bin/env node
// The I/O part of `npm run bench` (issue #4, "Speed of the tool itself"). On one scratch ext4 (loop device over
// a sparse file in a private temp dir) it runs encplan's SEQ1M Q8T1 read and RND4K Q32T1 read (runFioProfile:
// the runner, the output file, the parser) and fio started directly with the identical argv, alternating which
// goes first each round. It prints the median of per-round encplan ÷ direct ratios (goal 0.97–1.03) and then the wall time of a quick
// `encplan benchmark io` on the same directory. Needs root (loop devices, mount) and a build (npx tsc -b).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(path.join(root, 'packages/core/dist/index.js'))) {
  console.log('bench-io: skipped, build first (npm run build).');
  process.exit(0);
}
if (process.getuid?.() !== 0) {
  console.log('bench-io: skipped, needs root for loop devices and mounts.');
  process.exit(0);
}
// The modules themselves, not the public API: this measures encplan's own fio path against fio run directly.
const { createNodeHost } = await import('../packages/core/dist/node/host.js');
const { createRunner } = await import('../packages/core/dist/node/process/run-command.js');
const { CleanupRegistry } = await import('../packages/core/dist/use-cases/benchmark/cleanup-registry.js');
const { prepareScratchFilesystem, preparePlain } =
  await import('../packages/core/dist/use-cases/benchmark/targets.js');
const { runFioProfile, runIoBenchmark } =
  await import('../packages/core/dist/use-cases/benchmark/run-io-benchmark.js');
const { FIO_MODES, STANDARD_PROFILES, buildFioArgs, chooseFioAccess } =
  await import('../packages/core/dist/plan/fio-jobs.js');
const { resourceName } = await import('../packages/core/dist/plan/encrypted-backends.js');
const { median } = await import('../packages/core/dist/analyses/run-summary.js');

// 12 rounds: with 8, the SEQ1M ratio on a loop device over /tmp swung outside the band on an unchanged fio path
// (1.080 in one quiet run, 1.004 and 0.993 with 12: docs/performance.md, issue 28).
const ROUNDS = Number(process.env.ENCPLAN_BENCH_ROUNDS ?? 12);
// 3 s per run: long enough that fio's start-up is a small part of each sample.
const settings = { ...FIO_MODES.quick, runtimeSeconds: 3 };
const profiles = STANDARD_PROFILES.filter((p) => p.id === 'seq1m-q8t1-read' || p.id === 'rnd4k-q32t1-read');

const runner = createRunner({ searchPath: process.env.PATH ?? '' });
const host = createNodeHost(runner);
const fio = await runner.resolveTool('fio');
const parent = await mkdtemp(path.join(tmpdir(), 'encplan-bench-io-'));
// The default state directory, so `encplan cleanup` finds what a killed bench left.
const registry = await CleanupRegistry.create(host);
const workDir = path.join(parent, resourceName(process.pid, 'bench'));
const controller = new AbortController();
const stop = () => controller.abort();
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.stdout.on('error', stop);
try {
  await registry.register({ kind: 'directory', path: workDir });
  await mkdir(workDir, { mode: 0o700 });
  const context = { host, registry, workDir, pid: process.pid, fileSizeBytes: settings.fileSizeBytes };
  const scratch = await prepareScratchFilesystem(context, null);
  const target = await preparePlain(context, scratch);
  const access = chooseFioAccess(host.platform, await host.effects.directIoAllowed(target.directory));

  const direct = (profile, tag) => {
    const outputPath = path.join(workDir, `direct-${tag}.json`);
    const args = buildFioArgs({
      profile,
      filePath: path.join(target.directory, 'encplan.fio'),
      outputPath,
      access,
      settings,
    });
    const result = spawnSync(fio, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) {
      throw new Error(`fio failed: ${result.stderr}`);
    }
    return readFile(outputPath, 'utf8').then((text) => JSON.parse(text).jobs[0].read.bw_bytes);
  };
  const viaEncplan = async (profile, tag) =>
    (
      await runFioProfile(
        host,
        { profile, directory: target.directory, workDir, access, settings, tag },
        controller.signal,
      )
    ).runs[0].bytesPerSecond;

  console.log(
    `bench-io: ${ROUNDS} alternated rounds of ${settings.runtimeSeconds} s, ${settings.fileSizeBytes / 2 ** 20} MiB file, fio ${access.ioEngine} direct=${access.directIo ? 1 : 0}`,
  );
  for (const profile of profiles) {
    const ours = [];
    const theirs = [];
    await direct(profile, 'warmup');
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) {
        ours.push(await viaEncplan(profile, `e${round}`));
        theirs.push(await direct(profile, `d${round}`));
      } else {
        theirs.push(await direct(profile, `d${round}`));
        ours.push(await viaEncplan(profile, `e${round}`));
      }
    }
    // Paired: each round's two runs are adjacent in time, so the median of per-round ratios cancels the slow
    // drift of a shared virtual disk better than a ratio of medians.
    const ratio = median(ours.map((value, index) => value / theirs[index]));
    if (process.env.ENCPLAN_BENCH_VERBOSE === '1') {
      console.log(
        `  samples MiB/s encplan ${ours.map((v) => (v / 2 ** 20).toFixed(0)).join(' ')}; direct ${theirs.map((v) => (v / 2 ** 20).toFixed(0)).join(' ')}`,
      );
    }
    const mib = (value) => (value / 2 ** 20).toFixed(1);
    console.log(
      `${profile.label} ${profile.direction}: encplan ${mib(median(ours))} MiB/s, fio direct ${mib(median(theirs))} MiB/s, ratio ${ratio.toFixed(3)} ${ratio >= 0.97 && ratio <= 1.03 ? '(within 0.97–1.03)' : '(OUTSIDE 0.97–1.03)'}`,
    );
  }
} finally {
  await registry.releaseAll();
}

try {
  controller.signal.throwIfAborted();
  const started = performance.now();
  const quick = await runIoBenchmark(host, {
    target: parent,
    backends: 'auto',
    mode: 'quick',
    sweep: false,
    destructive: { allowDestructive: false, typedDevice: null, yes: false },
    cipherBytesPerSecondPerCore: null,
    signal: controller.signal,
  });
  const wallSeconds = (performance.now() - started) / 1000;
  console.log(
    `quick I/O assessment (plain + ${quick.result.encrypted.map((m) => m.variant).join(', ') || 'no encrypted backend'}; skipped: ${quick.result.skipped.map((s) => `${s.variant} ${s.code}`).join(', ') || 'none'}): ${wallSeconds.toFixed(1)} s wall ${wallSeconds <= 60 ? '(within 60 s)' : '(OVER 60 s)'}`,
  );
} finally {
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  await rm(parent, { recursive: true, force: true });
}
