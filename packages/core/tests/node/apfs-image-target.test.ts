import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { createNodeHost } from '@encplan/core/node';
import { hdiutilAttach, hdiutilCreateImage } from '../../src/targets/apfs/hdiutil.js';
import { resourceName } from '../../src/plan/encrypted-backends.js';
import { CleanupRegistry } from '../../src/use-cases/benchmark/cleanup-registry.js';
import { prepareApfsImage } from '../../src/targets/apfs/benchmark.js';
import { fakeToolsPerTest, type FakeCase } from '../../../../tests/support/fake-tools.js';
import { removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';

// Real child processes (a fake hdiutil on PATH): what reaches hdiutil's argv and stdin through the node runner.
// The exact argv of every step is checked on a recording host in tests/use-cases/darwin-io-benchmark.test.ts.
const { runnerWith, fakes } = fakeToolsPerTest();
afterEach(removeTempDirs);

async function prepared(hdiutil: readonly FakeCase[], encrypted: boolean) {
  const workDir = await tempDir('encplan-test-work-');
  const host = createNodeHost(await runnerWith({ hdiutil }));
  const registry = await CleanupRegistry.create(host, await tempDir('encplan-test-state-'));
  const context = { host, registry, workDir, pid: process.pid, fileSizeBytes: 64 * 1024 * 1024 };
  const outcome = await prepareApfsImage(context, encrypted).catch((error: unknown) => error);
  await registry.releaseAll();
  return { outcome, workDir, calls: await fakes().calls() };
}

describe('APFS disk images through a fake hdiutil process', () => {
  it('encrypted: one NUL-terminated passphrase on stdin to create and attach, never in argv; all removed', async () => {
    // Every call prints isencrypted's answer; create, attach and detach print nothing encplan reads.
    const { outcome, workDir, calls } = await prepared([{ args: null, stdout: 'encrypted: YES\n' }], true);
    expect(outcome).toMatchObject({ backend: 'apfs', directory: path.join(workDir, 'apfs-volume') });
    const passphrase = calls[0]!.stdin;
    expect(passphrase).toMatch(/^[^\0\n]{32,}\0$/);
    const secret = passphrase.slice(0, -1);
    const image = path.join(workDir, 'apfs.dmg');
    expect(calls.map((call) => call.argv)).toEqual([
      hdiutilCreateImage({
        imagePath: image,
        volumeName: resourceName(process.pid, 'apfs'),
        sizeMebibytes: 192,
        encryption: { keyBits: 256, passphrase: secret },
      }).args,
      ['isencrypted', image],
      hdiutilAttach({ imagePath: image, mountPoint: path.join(workDir, 'apfs-volume'), passphrase: secret })
        .args,
      ['detach', path.join(workDir, 'apfs-volume')],
    ]);
    expect(calls.map((call) => call.stdin)).toEqual([passphrase, '', passphrase, '']);
    expect(calls.flatMap((call) => call.argv).some((arg) => arg.includes(secret))).toBe(false);
    expect(await readdir(workDir)).toEqual([]);
  });

  it('plain: no passphrase anywhere', async () => {
    const { outcome, calls } = await prepared([{ args: null }], false);
    expect(outcome).toMatchObject({ backend: 'plain', variant: 'plain', verification: null });
    expect(calls.map((call) => [call.argv[0], call.stdin])).toEqual([
      ['create', ''],
      ['attach', ''],
      ['detach', ''],
    ]);
  });

  it('refuses an image hdiutil does not call encrypted, never attaches it, and removes it', async () => {
    const { outcome, workDir, calls } = await prepared([{ args: null, stdout: 'encrypted: NO\n' }], true);
    expect(isEncplanError(outcome, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    expect(calls.map((call) => call.argv[0])).toEqual(['create', 'isencrypted']);
    expect(await readdir(workDir)).toEqual([]);
  });
});
