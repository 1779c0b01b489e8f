import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { createNodeHost, createRunner } from '@encplan/core/node';
import { resourceName } from '../../src/plan/encrypted-backends.js';
import { CleanupRegistry } from '../../src/use-cases/benchmark/cleanup-registry.js';
import { prepareApfsImage, type TargetContext } from '../../src/use-cases/benchmark/targets.js';
import { createFakeTools, type FakeCase, type FakeTools } from '../../../../tests/support/fake-tools.js';
import { removeAfterTest, removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';

const MIB = 1024 * 1024;
let fakes: FakeTools | undefined;

afterEach(removeTempDirs);

async function contextWith(
  cases: Readonly<Record<string, readonly FakeCase[]>>,
  workDir: string,
): Promise<TargetContext> {
  fakes = removeAfterTest(await createFakeTools(cases));
  const host = createNodeHost(createRunner({ searchPath: fakes.binDir, includeSystemDirectories: false }));
  return {
    host,
    registry: await CleanupRegistry.create(host, await tempDir('encplan-test-state-')),
    workDir,
    pid: process.pid,
    fileSizeBytes: 64 * MIB,
  };
}

describe('APFS disk images with a fake hdiutil (real processes)', () => {
  it('encrypted: creates, proves it encrypted, attaches with the passphrase on stdin only, and detaches', async () => {
    const workDir = await tempDir('encplan-test-work-');
    const image = path.join(workDir, 'apfs.dmg');
    const mountPoint = path.join(workDir, 'apfs-volume');
    const createArgs = [
      'create',
      '-size',
      '192m',
      '-fs',
      'APFS',
      '-volname',
      resourceName(process.pid, 'apfs'),
      '-encryption',
      'AES-256',
      '-stdinpass',
      image,
    ];
    const attachArgs = [
      'attach',
      '-nobrowse',
      '-owners',
      'on',
      '-mountpoint',
      mountPoint,
      '-stdinpass',
      image,
    ];
    const context = await contextWith(
      {
        hdiutil: [
          { args: createArgs },
          // hdiutil(1) isencrypted: "encrypted: YES" then the image's encryption details.
          { args: ['isencrypted', image], stdout: 'encrypted: YES\nblocksize: 512\n' },
          { args: attachArgs },
          { args: ['detach', mountPoint] },
        ],
      },
      workDir,
    );
    const target = await prepareApfsImage(context, true);
    expect(target).toMatchObject({ backend: 'apfs', variant: 'apfs', directory: mountPoint });
    expect(target.verification).toEqual({
      method: `hdiutil isencrypted ${image}`,
      identity: image,
      cipher: 'AES-256',
    });
    await context.registry.releaseAll();
    const calls = await fakes!.calls();
    expect(calls.map((call) => call.argv)).toEqual([
      createArgs,
      ['isencrypted', image],
      attachArgs,
      ['detach', mountPoint],
    ]);
    const passphrase = calls[0]!.stdin;
    // hdiutil(1) -stdinpass reads a NUL-terminated passphrase.
    expect(passphrase).toMatch(/^[^\0\n]{32,}\0$/);
    expect(calls[2]!.stdin).toBe(passphrase);
    const secret = passphrase.slice(0, -1);
    expect(calls.flatMap((call) => call.argv).some((arg) => arg.includes(secret))).toBe(false);
    expect(await readdir(workDir)).toEqual([]);
  });

  it('plain: the same image without encryption, attached without a passphrase', async () => {
    const workDir = await tempDir('encplan-test-work-');
    const image = path.join(workDir, 'plain.dmg');
    const mountPoint = path.join(workDir, 'plain-volume');
    const context = await contextWith({ hdiutil: [{ args: null }] }, workDir);
    const target = await prepareApfsImage(context, false);
    expect(target).toMatchObject({ backend: 'plain', variant: 'plain', verification: null });
    await context.registry.releaseAll();
    const calls = await fakes!.calls();
    expect(calls.map((call) => call.argv)).toEqual([
      ['create', '-size', '192m', '-fs', 'APFS', '-volname', resourceName(process.pid, 'plain'), image],
      ['attach', '-nobrowse', '-owners', 'on', '-mountpoint', mountPoint, image],
      ['detach', mountPoint],
    ]);
    expect(calls.every((call) => call.stdin === '')).toBe(true);
  });

  it('refuses an image hdiutil does not call encrypted, and removes what it made', async () => {
    const workDir = await tempDir('encplan-test-work-');
    const image = path.join(workDir, 'apfs.dmg');
    const context = await contextWith(
      { hdiutil: [{ args: ['isencrypted', image], stdout: 'encrypted: NO\n' }, { args: null }] },
      workDir,
    );
    const error = await prepareApfsImage(context, true).catch((e: unknown) => e);
    expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    await context.registry.releaseAll();
    expect(await readdir(workDir)).toEqual([]);
    // Never attached: create and isencrypted only.
    expect((await fakes!.calls()).map((call) => call.argv[0])).toEqual(['create', 'isencrypted']);
  });
});
