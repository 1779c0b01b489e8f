#!/usr/bin/env node
// `npm run bench`: encplan's own speed at every scale, each figure paired IN THE SAME RUN with the raw tool
// calls the same answer needs and with `node -e 0`, so that a busy machine moves both sides alike.
//
// Scenarios (docs/performance.md explains each and the goals):
//   help            encplan --help                          vs node -e 0
//   help-command    encplan help assess                     vs node -e 0
//   assess-1        encplan assess LOOP --json (GPT, 2 partitions, ext4)   vs its raw calls
//   all-N           encplan assess --all --json over N loop disks (N = 1, 8, 32, 64) vs the raw calls of every
//                   disk run one after another
//   partitions-128  encplan assess LOOP --json on a disk with 128 GPT partitions, and the text report's length
//   quick           encplan assess LOOP --benchmark --quick --json (cipher, KDF and fio), once: goal 30 s
//   fleet-N         encplan fleet report DIR --json over N generated assessments (default 100,000: a quarter
//                   each of two real Linux assessments and of replayed macOS and Windows bundles, one folder per
//                   machine, every 1,000th machine's disk listed twice): wall time and peak RSS, goal 60 s and
//                   256 MiB; no raw-call pairing (there is no tool to compare with)
// Rounds are interleaved (encplan, raw, node, encplan, …); medians with min–max. Child processes come from one
// extra run under `strace -f -e trace=execve`, peak memory from GNU time's maximum resident set size.
// Writes docs/performance.json and the table between the markers in docs/performance.md.
// Needs root (loop devices); every loop device and file it creates is removed on exit, Ctrl-C included.
// Options: --rounds N (default 7), --only a,b (scenario names), --no-write (print only), --skip-quick,
// --fleet-size N (default 100000), --before DIR (another built checkout, e.g. a `git worktree` of the commit
// before a change: each paired scenario also runs DIR's CLI in the same rounds, alternating which goes first,
// and reports its figures and the per-round difference, so that a before/after comparison shares the machine's
// moment instead of comparing two bench runs minutes apart).
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'packages/cli/bin/run.js');
const env = { ...process.env, PATH: `/usr/sbin:/sbin:${process.env.PATH ?? ''}`, LC_ALL: 'C' };
const argv = process.argv.slice(2);
const option = (name) => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
};
const ROUNDS = Number(option('--rounds') ?? 7);
const ONLY = option('--only')?.split(',') ?? null;
const WRITE = !argv.includes('--no-write');
const SKIP_QUICK = argv.includes('--skip-quick');
const FLEET_SIZE = Number(option('--fleet-size') ?? 100_000);
const BEFORE = option('--before');
const beforeCli =
  BEFORE === undefined ? undefined : path.join(path.resolve(BEFORE), 'packages/cli/bin/run.js');

if (process.getuid?.() !== 0) {
  console.error('npm run bench needs root: it creates loop devices (and removes them on exit).');
  process.exit(2);
}

// ---- cleanup of everything this run creates --------------------------------------------------------------
const work = mkdtempSync(path.join(tmpdir(), 'encplan-bench-'));
const loops = [];
const mounts = [];
let cleaned = false;
function cleanup() {
  if (cleaned) {
    return;
  }
  cleaned = true;
  for (const mount of mounts.reverse()) {
    spawnSync('umount', [mount], { env });
  }
  for (const loop of loops) {
    spawnSync('losetup', ['--detach', loop], { env });
  }
  rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}

const run = (command, args, options = {}) =>
  execFileSync(command, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

function loopDisk(name, size) {
  const image = path.join(work, `${name}.img`);
  run('truncate', ['-s', size, image]);
  const device = run('losetup', ['--find', '--show', '--partscan', image]).trim();
  loops.push(device);
  return device;
}

/** A GPT disk with a partition per size in MiB; a size of 0 takes the rest of the disk. */
function partitioned(device, sizesMiB) {
  const args = ['--clear'];
  sizesMiB.forEach((sizeMiB, offset) => {
    const index = offset + 1;
    args.push(`--new=${index}:0:${sizeMiB === 0 ? '0' : `+${sizeMiB}M`}`, `--typecode=${index}:8300`);
  });
  run('sgdisk', [...args, device]);
  run('partx', ['-u', device]);
}

// ---- measuring ---------------------------------------------------------------------------------------------
function timed(command, args) {
  const started = performance.now();
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - started;
  return { ms, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a list of argv arrays one after another; the wall time of all. */
function timedSequence(calls) {
  const started = performance.now();
  for (const [command, ...args] of calls) {
    spawnSync(command, args, { env, stdio: 'ignore' });
  }
  return performance.now() - started;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) => ({
  medianMs: Math.round(median(values)),
  minMs: Math.round(Math.min(...values)),
  maxMs: Math.round(Math.max(...values)),
  runs: values.length,
});

/** Child processes one run starts (execve calls that succeeded, the node process itself not counted). */
function childProcesses(args, program = cli) {
  const trace = path.join(work, 'trace.txt');
  spawnSync('strace', ['-f', '-qq', '-e', 'trace=execve', '-o', trace, process.execPath, program, ...args], {
    env,
    stdio: 'ignore',
  });
  // Children that exec at the same time (issue 28: calls started early) split a line in two:
  // `PID execve("…", … <unfinished ...>` and, later, `PID <... execve resumed>) = 0`.
  const unfinished = new Map();
  const started = [];
  for (const line of readFileSync(trace, 'utf8').split('\n')) {
    const pid = line.split(' ', 1)[0];
    const file = /execve\("([^"]+)"/.exec(line)?.[1];
    if (file !== undefined && line.endsWith('<unfinished ...>')) {
      unfinished.set(pid, file);
    } else if (file !== undefined ? /= 0$/.test(line) : /<\.\.\. execve resumed>.*= 0$/.test(line)) {
      started.push(file ?? unfinished.get(pid) ?? '?');
    }
  }
  const programs = new Map();
  for (const file of started.slice(1)) {
    const program = path.basename(file);
    programs.set(program, (programs.get(program) ?? 0) + 1);
  }
  return {
    count: started.length - 1,
    programs: Object.fromEntries([...programs].sort((a, b) => b[1] - a[1])),
  };
}

/** Peak resident memory of one run, in MiB (GNU time's maximum resident set size). */
function peakMiB(args, program = cli) {
  // stdout is not read: `assess --all` over 32 disks writes more than spawnSync's 1 MiB buffer, which ended
  // the run early and left GNU time's line missing (an empty line read as 0 MiB).
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, program, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = result.stderr.trim().split('\n').at(-1) ?? '';
  const kib = /^\d+$/.test(last) ? Number(last) : Number.NaN;
  return Number.isFinite(kib) && kib > 0 ? Math.round(kib / 102.4) / 10 : null;
}

/** The raw calls one disk's assessment needs: what encplan itself must ask, once each. */
function rawDiskCalls(device) {
  const partitions = run('lsblk', ['--noheadings', '--list', '--output', 'PATH', device]).trim().split('\n');
  return [
    ['lsblk', '--json', '--bytes', '-O', device],
    ['sfdisk', '--json', device],
    ...partitions.map((partition) => ['blkid', '-p', partition]),
    ['smartctl', '--json=c', '-x', device],
  ];
}
/** The raw reads of the host facts, needed once per run. */
const RAW_HOST_CALLS = [
  ['cat', '/proc/cpuinfo', '/proc/crypto', '/proc/meminfo', '/proc/self/mountinfo', '/proc/swaps'],
  ['cryptsetup', '--version'],
];

/**
 * One paired scenario: `rounds` interleaved runs of encplan, of the raw calls and of `node -e 0`.
 * `expect` checks the answer of encplan's first run (a wrong answer fails the bench: a fast wrong run is no figure).
 */
function paired(name, encplanArgs, rawCalls, { rounds = ROUNDS, expect } = {}) {
  const first = timed(process.execPath, [cli, ...encplanArgs]);
  if (expect !== undefined) {
    expect(first);
  }
  const encplanMs = [];
  const beforeMs = [];
  const rawMs = [];
  const nodeMs = [];
  if (beforeCli !== undefined) {
    timed(process.execPath, [beforeCli, ...encplanArgs]);
  }
  for (let round = 0; round < rounds; round += 1) {
    // With --before, the two CLIs take turns going first (a run warms the page cache for the next).
    const order = round % 2 === 0 ? [cli, beforeCli] : [beforeCli, cli];
    for (const program of order) {
      if (program !== undefined) {
        (program === cli ? encplanMs : beforeMs).push(timed(process.execPath, [program, ...encplanArgs]).ms);
      }
    }
    rawMs.push(rawCalls.length === 0 ? 0 : timedSequence(rawCalls));
    nodeMs.push(timed(process.execPath, ['-e', '0']).ms);
  }
  const result = {
    scenario: name,
    command: `encplan ${encplanArgs.join(' ')}`,
    encplan: summary(encplanMs),
    raw: { calls: rawCalls.length, ...summary(rawMs) },
    node: summary(nodeMs),
    ratioToRaw: rawCalls.length === 0 ? null : round2(median(encplanMs) / median(rawMs)),
    ratioToNodePlusRaw: round2(median(encplanMs) / (median(nodeMs) + median(rawMs))),
    childProcesses: childProcesses(encplanArgs),
    peakMiB: peakMiB(encplanArgs),
    ...(beforeCli === undefined
      ? {}
      : {
          before: {
            cli: BEFORE,
            ...summary(beforeMs),
            ratioToNodePlusRaw: round2(median(beforeMs) / (median(nodeMs) + median(rawMs))),
            // Per round: this checkout's time minus the other's, and in how many rounds this one was faster.
            pairedDifferenceMs: round2(median(encplanMs.map((ms, index) => ms - (beforeMs[index] ?? ms)))),
            fasterIn: encplanMs.filter((ms, index) => ms < (beforeMs[index] ?? ms)).length,
            childProcesses: childProcesses(encplanArgs, beforeCli).count,
            peakMiB: peakMiB(encplanArgs, beforeCli),
          },
        }),
  };
  console.error(
    `${name}: encplan ${result.encplan.medianMs} ms (${result.encplan.minMs}–${result.encplan.maxMs}), raw ${result.raw.medianMs} ms, node ${result.node.medianMs} ms, ${result.childProcesses.count} children, ${result.peakMiB} MiB`,
  );
  if (result.before !== undefined) {
    const { before } = result;
    console.error(
      `${name}: before ${before.medianMs} ms (${before.minMs}–${before.maxMs}) = ${before.ratioToNodePlusRaw} × (node + raw), ${before.childProcesses} children, ${before.peakMiB} MiB; paired difference ${before.pairedDifferenceMs} ms, faster in ${before.fasterIn} of ${rounds} rounds`,
    );
  }
  return result;
}
const round2 = (value) => Math.round(value * 100) / 100;

const envelope = (answer) => {
  if (answer.status !== 0 && answer.status !== 5) {
    throw new Error(`encplan exited ${answer.status}: ${answer.stderr.slice(0, 2000)}`);
  }
  return JSON.parse(answer.stdout);
};

// ---- scenarios ---------------------------------------------------------------------------------------------
const wanted = (name) => ONLY === null || ONLY.some((prefix) => name.startsWith(prefix));
const results = [];
const notes = [];

if (wanted('help')) {
  // A help is printed whole, from text oclif rendered (packages/cli/src/help-fast.ts) or by oclif itself.
  const isHelp = (answer) => {
    if (answer.status !== 0 || !answer.stdout.includes('USAGE')) {
      throw new Error(`encplan exited ${answer.status} without a help: ${answer.stderr.slice(0, 2000)}`);
    }
  };
  results.push(paired('help', ['--help'], [], { expect: isHelp }));
  results.push(paired('help-command', ['help', 'assess'], [], { expect: isHelp }));
}

if (wanted('assess-1')) {
  const disk = loopDisk('one', '1G');
  partitioned(disk, [400, 0]);
  run('mkfs.ext4', ['-q', '-F', `${disk}p1`]);
  results.push(
    paired('assess-1', ['assess', disk, '--json'], [...RAW_HOST_CALLS, ...rawDiskCalls(disk)], {
      expect: (answer) => {
        const document = envelope(answer);
        if (document.result?.disk?.path !== disk) {
          throw new Error(`assess answered for ${document.result?.disk?.path}`);
        }
      },
    }),
  );
}

const supportsAll = (() => {
  const help = timed(process.execPath, [cli, 'assess', '--help']);
  return /--all\b/.test(help.stdout);
})();
for (const count of [1, 8, 32, 64]) {
  const name = `all-${count}`;
  if (!wanted(name)) {
    continue;
  }
  if (!supportsAll) {
    results.push({
      scenario: name,
      command: 'encplan assess --all --json',
      notAvailable: 'this build has no assess --all',
    });
    continue;
  }
  const disks = Array.from({ length: count }, (_, index) => loopDisk(`all${count}-${index}`, '256M'));
  for (const disk of disks) {
    partitioned(disk, [0]);
  }
  const raw = [
    ...RAW_HOST_CALLS,
    ['lsblk', '--json', '--bytes', '-O'],
    ...disks.flatMap((disk) => rawDiskCalls(disk).slice(1)),
  ];
  results.push(
    paired(name, ['assess', '--all', '--json'], raw, {
      rounds: count >= 32 ? Math.min(ROUNDS, 3) : ROUNDS,
      expect: (answer) => {
        const text = JSON.stringify(envelope(answer));
        const missing = disks.filter((disk) => !text.includes(`"${disk}"`));
        if (missing.length > 0) {
          throw new Error(`assess --all left out ${missing.join(', ')}`);
        }
      },
    }),
  );
  for (const disk of disks) {
    spawnSync('losetup', ['--detach', disk], { env });
    loops.splice(loops.indexOf(disk), 1);
  }
}

if (wanted('partitions-128')) {
  const disk = loopDisk('p128', '300M');
  partitioned(
    disk,
    Array.from({ length: 128 }, () => 2),
  );
  const result = paired(
    'partitions-128',
    ['assess', disk, '--json'],
    [...RAW_HOST_CALLS, ...rawDiskCalls(disk)],
    {
      rounds: Math.min(ROUNDS, 5),
      expect: (answer) => {
        const document = envelope(answer);
        const partitions = JSON.stringify(document.result).match(/"\/dev\/loop\d+p\d+"/g) ?? [];
        if (new Set(partitions).size < 128) {
          throw new Error(`assess saw ${new Set(partitions).size} of 128 partitions`);
        }
      },
    },
  );
  result.textReportLines = timed(process.execPath, [cli, 'assess', disk]).stdout.split('\n').length;
  results.push(result);
}

if (wanted('quick') && !SKIP_QUICK) {
  const disk = loopDisk('quick', '2G');
  partitioned(disk, [0]);
  run('mkfs.ext4', ['-q', '-F', `${disk}p1`]);
  const mountPoint = path.join(work, 'quick-mount');
  run('mkdir', ['-p', mountPoint]);
  run('mount', [`${disk}p1`, mountPoint]);
  mounts.push(mountPoint);
  const args = ['assess', disk, '--benchmark', '--quick', '--json'];
  const answer = timed(process.execPath, [cli, ...args]);
  envelope(answer);
  results.push({
    scenario: 'quick',
    command: `encplan ${args.join(' ')}`,
    encplan: summary([answer.ms]),
    goalMs: 30_000,
    withinGoal: answer.ms <= 30_000,
  });
  console.error(`quick: ${Math.round(answer.ms)} ms (goal 30000 ms)`);
}

if (wanted('fleet')) {
  results.push(fleetScenario(FLEET_SIZE));
}

/**
 * The fleet report at scale: N assessments written as a fetched tree (DIR/mN/disk.json), then `fleet report
 * DIR --json` with its output to a file. Each run's wall time and GNU time's peak RSS; the first run's summary
 * must count every machine, platform and repeated disk, or the bench fails.
 */
function fleetScenario(size) {
  const name = `fleet-${size}`;
  const folder = path.join(work, 'fleet');
  const bundle = (id) =>
    JSON.stringify(
      envelope(
        timed(process.execPath, [
          cli,
          'assess',
          '--bundle',
          path.join(root, 'fixtures/bundles', id),
          '--json',
        ]),
      ),
    );
  const fixtureText = (file) =>
    JSON.stringify(JSON.parse(readFileSync(path.join(root, 'fixtures/assessments', file), 'utf8')));
  const templates = [
    { platform: 'linux', text: fixtureText('loop-gpt-ext4-luks2-unallocated-debian12.json') },
    { platform: 'linux', text: fixtureText('virtio-system-disk-whole-ext4-debian12.json') },
    { platform: 'win32', text: bundle('windows-win11-bc901-bitlocker-xtsaes128') },
    { platform: 'darwin', text: bundle('darwin-intel-catalina-filevault-disk1s5') },
  ];
  const expected = { linux: 0, darwin: 0, win32: 0 };
  let repeats = 0;
  for (let index = 0; index < size; index += 1) {
    const template = templates[index % templates.length];
    const machine = path.join(folder, `m${index}`);
    mkdirSync(machine, { recursive: true });
    writeFileSync(path.join(machine, 'disk.json'), template.text);
    expected[template.platform] += 1;
    if (index % 1000 === 999) {
      writeFileSync(path.join(machine, 'disk-again.json'), template.text);
      repeats += 1;
    }
  }
  const output = path.join(work, 'fleet-report.json');
  const runOnce = () => {
    const fd = openSync(output, 'w');
    const started = performance.now();
    const result = spawnSync(
      '/usr/bin/time',
      ['-f', '%M %U %S', process.execPath, cli, 'fleet', 'report', folder, '--json'],
      {
        env,
        encoding: 'utf8',
        stdio: ['ignore', fd, 'pipe'],
      },
    );
    const ms = performance.now() - started;
    closeSync(fd);
    if (result.status !== 0) {
      throw new Error(`fleet report exited ${result.status}: ${result.stderr.slice(0, 2000)}`);
    }
    // Peak RSS, and the CPU seconds (user + system): on a shared machine the wall time moves with the load.
    const [kib, user, system] = (result.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    return { ms, peakMiB: Math.round(kib / 102.4) / 10, cpuSeconds: Math.round((user + system) * 10) / 10 };
  };
  const first = runOnce();
  const counted = JSON.parse(readFileSync(output, 'utf8')).result.summary;
  const wrong = [
    counted.disks !== size && `disks ${counted.disks}`,
    counted.machines !== size && `machines ${counted.machines}`,
    counted.duplicateDisks !== repeats && `duplicateDisks ${counted.duplicateDisks}`,
    counted.documents !== size + repeats && `documents ${counted.documents}`,
    JSON.stringify(counted.platforms) !== JSON.stringify(expected) &&
      `platforms ${JSON.stringify(counted.platforms)}`,
  ].filter(Boolean);
  if (wrong.length > 0) {
    throw new Error(`fleet report of ${size} generated assessments is wrong: ${wrong.join(', ')}`);
  }
  const runs = [first, ...Array.from({ length: Math.min(ROUNDS, 3) - 1 }, runOnce)];
  rmSync(folder, { recursive: true, force: true });
  rmSync(output, { force: true });
  const result = {
    scenario: name,
    command: `encplan fleet report DIR --json  (${size} assessments, ${repeats} repeated)`,
    encplan: summary(runs.map((run) => run.ms)),
    peakMiB: Math.max(...runs.map((run) => run.peakMiB)),
    cpuSeconds: median(runs.map((run) => run.cpuSeconds)),
    loadAverage: loadavg()[0],
    goalMs: 60_000,
    goalPeakMiB: 256,
    withinGoal:
      median(runs.map((run) => run.ms)) <= 60_000 && Math.max(...runs.map((run) => run.peakMiB)) <= 256,
  };
  console.error(
    `${name}: ${result.encplan.medianMs} ms (${result.encplan.minMs}–${result.encplan.maxMs}), ${result.cpuSeconds} s CPU, peak ${result.peakMiB} MiB, load ${result.loadAverage} (goal 60000 ms, 256 MiB)`,
  );
  return result;
}

// ---- output ------------------------------------------------------------------------------------------------
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? null,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
  date: new Date().toISOString(),
  revision: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim(),
};
const report = { schema: 'encplan.bench', schemaVersion: [1, 0], machine, rounds: ROUNDS, results, notes };
const cell = (summaryValue) =>
  summaryValue === undefined ? '—' : `${summaryValue.medianMs} (${summaryValue.minMs}–${summaryValue.maxMs})`;
const beforeCells = (result) =>
  BEFORE === undefined
    ? ''
    : result.before === undefined
      ? ' — | — | — | — |'
      : ` ${cell(result.before)} | ${result.before.ratioToNodePlusRaw} | ${result.before.pairedDifferenceMs} (${result.before.fasterIn}/${result.before.runs}) | ${result.before.peakMiB ?? '—'} |`;
const table = [
  `| scenario | encplan ms, median (min–max) | raw calls | raw ms | \`node -e 0\` ms | × raw | × (node + raw) | children | peak MiB |${BEFORE === undefined ? '' : ' before ms | before × (node + raw) | paired Δ ms (faster in) | before peak MiB |'}`,
  `| --- | --- | --- | --- | --- | --- | --- | --- | --- |${BEFORE === undefined ? '' : ' --- | --- | --- | --- |'}`,
  ...results.map((result) =>
    result.notAvailable !== undefined
      ? `| ${result.scenario} | ${result.notAvailable} | | | | | | | |`
      : `| ${result.scenario} | ${cell(result.encplan)} | ${result.raw?.calls ?? '—'} | ${cell(result.raw)} | ${cell(result.node)} | ${result.ratioToRaw ?? '—'} | ${result.ratioToNodePlusRaw ?? '—'} | ${result.childProcesses?.count ?? '—'} | ${result.peakMiB ?? '—'} |${beforeCells(result)}`,
  ),
].join('\n');
console.log(table);
// A comparison with --before is printed, never written as the figures of this checkout alone.
if (WRITE && ONLY === null && BEFORE === undefined) {
  writeFileSync(path.join(root, 'docs/performance.json'), `${JSON.stringify(report, null, 2)}\n`);
  const doc = path.join(root, 'docs/performance.md');
  const text = readFileSync(doc, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const header = `Measured at ${machine.revision} on ${machine.date.slice(0, 10)}: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, load average at the end ${machine.loadAverageAtEnd.join(' / ')}; ${ROUNDS} interleaved rounds.`;
  writeFileSync(
    doc,
    `${text.slice(0, text.indexOf(start) + start.length)}\n\n${header}\n\n${table}\n\n${text.slice(text.indexOf(end))}`,
  );
}
