import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { REPO_ROOT } from '../support/fake-tools.js';
import { assessmentSchemaErrors } from '../support/schema.js';
import { createLoopStack, loopDeviceSkipReason, type LoopStack } from './support/loop-device.js';
import { noteSkip } from '../support/skip-reasons.js';

const skipReason = loopDeviceSkipReason();
noteSkip(import.meta.url, skipReason);

const SIZE = 1024 * 1024 * 1024;

interface Envelope {
  status: string;
  warnings: { code: string; source: string | null }[];
  // The shape is checked against the committed JSON Schema; tests then read fields freely.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- validated by assessmentSchemaErrors first
  result: Record<string, any>;
}

describe.skipIf(skipReason !== null)('encplan assess on a real loop device (root)', () => {
  let stack: LoopStack;
  const scratch: string[] = [];

  beforeAll(() => {
    stack = createLoopStack({ sizeBytes: SIZE, partitionPercent: 78, mount: true });
  });
  afterAll(() => {
    stack?.remove();
    for (const directory of scratch) {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('reports the exact size, the unallocated tail within 0.5 %, the partition and its ext4, and validates', () => {
    const run = runCli(['assess', stack.device, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as Envelope;
    expect(assessmentSchemaErrors(envelope)).toBeNull();
    const { result } = envelope;
    expect(result.disk.sizeBytes).toBe(SIZE);
    expect(result.disk.transport).toBe('loop');
    const tailPercent = (result.space.unallocatedBytes / SIZE) * 100;
    expect(Math.abs(tailPercent - 22)).toBeLessThan(0.5);
    expect(result.space.regions).toEqual([expect.objectContaining({ location: 'tail' })]);
    expect(result.partitions).toHaveLength(1);
    expect(result.partitions[0]).toMatchObject({
      path: stack.partition,
      startBytes: 1024 * 1024,
      filesystem: { type: 'ext4' },
      mountpoints: [stack.mountpoint],
    });
    expect(result.stack.backingFile).toBe(path.join(stack.directory, 'disk.img'));
    // A loop device has no SMART: a warning, a partial status and an unknown verdict, never a crash.
    expect(envelope.status).toBe('partial');
    expect(envelope.warnings).toContainEqual(
      expect.objectContaining({ code: 'SMART_UNAVAILABLE', source: 'smartctl' }),
    );
    expect(result.health.verdict).toBe('unknown');
    expect(result.discardPassthrough.paths[0]).toMatchObject({
      topPath: stack.partition,
      passesToDisk: true,
    });
  });

  it('collect then assess --bundle gives the same result', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'encplan-test-bundle-'));
    scratch.push(out);
    const bundleDir = path.join(out, 'bundle');
    const collected = runCli(['collect', stack.device, '--out', bundleDir, '--json']);
    expect(collected.status, collected.stderr).toBe(0);
    const replayed = runCli(['assess', '--bundle', bundleDir, '--json']);
    expect(replayed.status, replayed.stderr).toBe(0);
    const live = JSON.parse(collected.stdout) as Envelope;
    const fromBundle = JSON.parse(replayed.stdout) as Envelope;
    expect(assessmentSchemaErrors(fromBundle)).toBeNull();
    const comparable = (envelope: Envelope) => {
      const rest: Record<string, unknown> = { ...envelope.result };
      delete rest.provenance;
      return {
        status: envelope.status,
        warnings: envelope.warnings,
        ...rest,
        target: { ...envelope.result.target, resolvedFrom: null },
      };
    };
    expect(comparable(fromBundle)).toEqual(comparable(live));
    expect(fromBundle.result.provenance.mode).toBe('bundle');
  });

  it('collect --benchmark --quick records the benchmark; assess --bundle replays it offline, touching nothing', () => {
    // Its own, larger disk: the quick benchmark needs about 736 MiB free for its containers and margin.
    const benchStack = createLoopStack({ sizeBytes: 2 * SIZE, partitionPercent: 90, mount: true });
    try {
      benchmarkRoundTrip(benchStack);
    } finally {
      benchStack.remove();
    }
  }, 600_000);

  function benchmarkRoundTrip(stack: LoopStack): void {
    const out = mkdtempSync(path.join(tmpdir(), 'encplan-test-bundle-'));
    scratch.push(out);
    const bundleDir = path.join(out, 'bundle');
    const collected = runCli(
      ['collect', stack.device, '--benchmark', '--quick', '--out', bundleDir, '--json'],
      { timeoutMs: 400_000 },
    );
    expect(collected.status, collected.stderr).toBe(0);
    const live = JSON.parse(collected.stdout) as Envelope;
    expect(live.result.ioBenchmark, JSON.stringify(live.warnings)).not.toBeNull();
    expect(live.result.ioBenchmark.encrypted.map((target: { backend: string }) => target.backend)).toContain(
      'fscrypt',
    );
    expect(readdirSync(stack.mountpoint!).filter((entry) => entry.startsWith('encplan-bench-'))).toEqual([]);
    const mountsBefore = readFileSync('/proc/self/mountinfo', 'utf8');
    // No tool can run: the replay must answer every process and file change from the bundle.
    const replayed = runCli(['assess', '--bundle', bundleDir, '--json'], { env: { PATH: '/nonexistent' } });
    expect(replayed.status, replayed.stderr).toBe(0);
    const fromBundle = JSON.parse(replayed.stdout) as Envelope;
    expect(assessmentSchemaErrors(fromBundle)).toBeNull();
    expect(fromBundle.result.ioBenchmark).toEqual(live.result.ioBenchmark);
    expect(fromBundle.result.cipherBenchmark).toEqual(live.result.cipherBenchmark);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).toBe(mountsBefore);
    expect(readdirSync(stack.mountpoint!).filter((entry) => entry.startsWith('encplan-bench-'))).toEqual([]);
  }

  it('without a device argument assesses the disk holding the current directory', () => {
    const run = runCli(['assess', '--json'], { cwd: stack.mountpoint! });
    expect(run.status, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as Envelope;
    expect(envelope.result.target).toMatchObject({
      path: stack.device,
      resolvedFrom: 'working-directory',
      requested: null,
    });
  });

  it('refuses a partition and names the disk to assess instead', () => {
    const run = runCli(['assess', stack.partition, '--json']);
    expect(run.status).toBe(4);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: {
        code: 'DEVICE_UNSUPPORTED',
        hint: `Assess the disk it belongs to: encplan assess ${stack.device}`,
      },
    });
  });

  // The unprivileged user must reach the checkout: a clone in a `mktemp -d` folder (mode 0700) it cannot.
  const NOBODY_TEST = 'tells a user who cannot read the device what needs root and what runs without it';
  const entry = path.join(REPO_ROOT, 'packages/cli/bin/run.js');
  const nobodyReadsCheckout =
    skipReason !== null ||
    spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-r', entry]).status ===
      0;
  noteSkip(
    import.meta.url,
    nobodyReadsCheckout
      ? null
      : `user 65534 cannot read ${entry} (a parent folder is not searchable by others)`,
    NOBODY_TEST,
  );
  it.skipIf(!nobodyReadsCheckout)(NOBODY_TEST, () => {
    const setpriv = spawnSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        entry,
        'assess',
        stack.device,
        '--json',
      ],
      {
        encoding: 'utf8',
        cwd: '/',
      },
    );
    expect(setpriv.status, setpriv.stderr).toBe(3);
    const document = JSON.parse(setpriv.stdout) as { error: { code: string; hint: string } };
    expect(document.error.code).toBe('PERMISSION_DENIED');
    expect(document.error.hint).toContain('Without root encplan can still read lsblk and sysfs');
  });
});
