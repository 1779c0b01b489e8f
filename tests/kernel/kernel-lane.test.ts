import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';

// The kernel lane: one boot of Debian's kernel under QEMU TCG runs every guest test (tests/kernel/guest/tests),
// then each guest test is one vitest test here, so the lane's results count in the same summary as the other
// lanes. Host-side tests compare what encplan reported in the guest with what the guest's kernel said.
// Speeds from this lane are emulation speeds (QEMU TCG); nothing here asserts a speed.
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const OUT = path.join(repo, 'test-artifacts/kernel-lane');
/** Guest tests, in the order the guest runs them; a missing result counts as a failure. */
const GUEST_TESTS = [
  '10-kernel-captures',
  '20-luks2-benchmark-io',
  '30-luks2-sigint',
  '40-luks2-sigkill-cleanup',
  '50-assess-stacks',
  '60-reencrypt-in-place',
  '70-plan-destructive-script',
] as const;
/** Hard deadline for QEMU (run-guest.sh kills it); the lane as a whole must stay within 15 minutes of CI. */
const GUEST_DEADLINE_SECONDS = 720;

let unavailable: string | null = null;

function run(script: string, args: string[], timeoutMs: number): { ok: boolean; output: string } {
  const result = spawnSync('bash', [path.join(here, script), ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    env: { ...process.env, DEADLINE_SECONDS: String(GUEST_DEADLINE_SECONDS) },
  });
  return {
    ok: result.status === 0,
    output: `${result.stdout}${result.stderr}`.trim().split('\n').slice(-8).join('\n'),
  };
}

/** Fails in CI and skips (with the reason) elsewhere when the lane could not boot. */
function requireLane(context: TestContext): void {
  if (unavailable === null) {
    return;
  }
  if (process.env.CI === 'true') {
    throw new Error(`kernel lane could not run: ${unavailable}`);
  }
  context.skip(`kernel lane skipped: ${unavailable}`);
}

function capture(test: string, file: string): string {
  return readFileSync(path.join(OUT, test, file), 'utf8');
}

function guestStatus(test: string): { status: number | null; log: string } {
  const statusFile = path.join(OUT, 'results', `${test}.status`);
  const logFile = path.join(OUT, test, 'log.txt');
  const log = existsSync(logFile)
    ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n')
    : '(no log)';
  if (!existsSync(statusFile)) {
    return { status: null, log };
  }
  const match = /^status=(\d+)$/m.exec(readFileSync(statusFile, 'utf8'));
  return { status: match ? Number(match[1]) : null, log };
}

beforeAll(() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    unavailable = 'needs Linux and root (apt-get, QEMU, a scratch disk image)';
    return;
  }
  rmSync(OUT, { recursive: true, force: true });
  const build = run('build-kernel-image.sh', [], 10 * 60_000);
  if (!build.ok) {
    unavailable = `building the kernel image failed: ${build.output}`;
    return;
  }
  const guest = run('run-guest.sh', [OUT, 'all'], (GUEST_DEADLINE_SECONDS + 30) * 1000);
  if (!existsSync(path.join(OUT, 'results'))) {
    unavailable = `the guest did not boot or ran no test: ${guest.output}`;
  }
}, 20 * 60_000);

describe('kernel lane: guest tests under Debian’s kernel (QEMU TCG, emulated speeds)', () => {
  for (const test of GUEST_TESTS) {
    it(`guest: ${test}`, (context) => {
      requireLane(context);
      const { status, log } = guestStatus(test);
      expect(status, `guest test ${test} did not finish before the deadline\n${log}`).not.toBeNull();
      expect(status, `guest test ${test} failed\n${log}`).toBe(0);
    });
  }
});

interface DiscardLayer {
  kernelName: string;
  kind: string;
  name: string | null;
  passesDiscards: boolean | null;
  discardMaxBytes: number | null;
}

describe('kernel lane: encplan’s reading of the real stacks equals the guest kernel’s', () => {
  it('the discard verdict of every layer equals sysfs discard_max_bytes', (context) => {
    requireLane(context);
    const sysfs = new Map(
      capture('50-assess-stacks', 'sysfs-discard-max-bytes.txt')
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .map(([kernelName, , bytes]) => [kernelName ?? '', Number(bytes)]),
    );
    const assessment = JSON.parse(capture('50-assess-stacks', 'assess.json')) as {
      result: { discardPassthrough: { paths: { layers: DiscardLayer[] }[] } };
    };
    const layers = assessment.result.discardPassthrough.paths.flatMap((p) => p.layers);
    const dmLayers = layers.filter((layer) => layer.kernelName.startsWith('dm-'));
    // Four dm-crypt mappings and the LVM volume were open when assess ran.
    expect(new Set(dmLayers.map((layer) => layer.kernelName)).size).toBe(5);
    for (const layer of dmLayers) {
      const kernelBytes = sysfs.get(layer.kernelName);
      expect(kernelBytes, `${layer.kernelName} missing from the sysfs capture`).toBeDefined();
      expect(layer.discardMaxBytes, layer.kernelName).toBe(kernelBytes);
      expect(layer.passesDiscards, `${layer.kernelName} (${layer.name ?? ''})`).toBe((kernelBytes ?? 0) > 0);
    }
  });

  it('recognises the existing LUKS2 and TCRYPT encryption', (context) => {
    requireLane(context);
    const assessment = JSON.parse(capture('50-assess-stacks', 'assess.json')) as {
      result: { encryption: { found: { path: string; format: string }[] } };
    };
    const found = assessment.result.encryption.found;
    for (const partition of ['/dev/vda1', '/dev/vda2', '/dev/vda3']) {
      expect(found, partition).toContainEqual(expect.objectContaining({ path: partition, format: 'luks2' }));
    }
    // TrueCrypt headers are indistinguishable from random data; an open TCRYPT mapping shows in its dm uuid.
    expect(found).toContainEqual(expect.objectContaining({ format: 'tcrypt' }));
  });

  it('reencrypt --encrypt keeps every known file intact', (context) => {
    requireLane(context);
    const check = capture('60-reencrypt-in-place', 'sha256-check.txt');
    expect(check.match(/: OK$/gm)).toHaveLength(5);
  });

  it('a second assess finds the dm-crypt stack the destructive plan script made', (context) => {
    requireLane(context);
    const after = capture('70-plan-destructive-script', 'dmsetup-table-after.txt');
    expect(after).toMatch(/ crypt aes-xts-plain64 /);
    const assessment = JSON.parse(capture('70-plan-destructive-script', 'assess-after.json')) as {
      result: { encryption: { found: unknown[] } };
    };
    expect(assessment.result.encryption.found.length).toBeGreaterThan(0);
  });
});
