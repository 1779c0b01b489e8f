import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { resourceName } from '../../src/plan/encrypted-backends.js';
import { createNodeHost, createRunner } from '@encplan/core/node';
import { CleanupRegistry } from '../../src/node/benchmark/cleanup-registry.js';
import { prepareApfs, prepareLuks2, prepareVeracrypt, type TargetContext } from '../../src/node/benchmark/targets.js';
import {
  REPO_ROOT,
  createFakeTools,
  type FakeCase,
  type FakeTools,
} from '../../../../tests/support/fake-tools.js';
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
  const stateDirectory = await tempDir('encplan-test-state-');
  return {
    host,
    registry: await CleanupRegistry.create(host, stateDirectory),
    workDir,
    pid: process.pid,
    fileSizeBytes: 64 * MIB,
  };
}

function newWorkDir(): Promise<string> {
  return tempDir('encplan-test-work-');
}

describe('LUKS2 target with a fake cryptsetup replaying this machine', () => {
  it('formats with the exact argv, keeps the key in a 0600 file, and reports device-mapper as KERNEL_FEATURE_MISSING', async () => {
    const workDir = await newWorkDir();
    const container = path.join(workDir, 'luks2-s4096-nowq.img');
    const keyFile = path.join(workDir, 'luks2-s4096-nowq.key');
    const mapping = resourceName(process.pid, 'luks2-s4096-nowq');
    const formatArgs = [
      'luksFormat',
      '--batch-mode',
      '--type',
      'luks2',
      '--cipher',
      'aes-xts-plain64',
      '--key-size',
      '512',
      '--sector-size',
      '4096',
      '--pbkdf',
      'pbkdf2',
      '--pbkdf-force-iterations',
      '1000',
      '--key-file',
      keyFile,
      '--',
      container,
    ];
    const openArgs = [
      'open',
      '--type',
      'luks2',
      '--key-file',
      keyFile,
      '--perf-no_read_workqueue',
      '--perf-no_write_workqueue',
      '--',
      container,
      mapping,
    ];
    const openStderr = await readFile(
      path.join(REPO_ROOT, 'fixtures/cryptsetup/open-device-mapper-missing-debian12-v2.6.1/stderr.txt'),
      'utf8',
    );
    const context = await contextWith(
      {
        cryptsetup: [
          { args: formatArgs, exitCode: 0 },
          { args: openArgs, stderr: openStderr, exitCode: 1 },
        ],
        losetup: [{ args: ['--list', '--json', '--output', 'NAME,BACK-FILE'], stdout: '' }],
      },
      workDir,
    );
    const error = await prepareLuks2(context, { sectorSizeBytes: 4096, noWorkqueues: true }, null).catch(
      (e: unknown) => e,
    );
    expect(isEncplanError(error, 'KERNEL_FEATURE_MISSING')).toBe(true);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(keyFile)).size).toBe(64);
    expect((await stat(container)).size).toBe(64 * MIB + 128 * MIB + 16 * MIB);
    const state = JSON.parse(await readFile(context.registry.stateFilePath, 'utf8'));
    expect(state.resources.map((r: { kind: string }) => r.kind)).toEqual([
      'file',
      'file',
      'loop-device',
      'dm-mapping',
    ]);

    await context.registry.releaseAll();
    const calls = await fakes!.calls();
    expect(calls.map((call) => [call.tool, call.argv])).toEqual([
      ['cryptsetup', formatArgs],
      ['cryptsetup', openArgs],
      ['losetup', ['--list', '--json', '--output', 'NAME,BACK-FILE']],
    ]);
    expect(await readdir(workDir)).toEqual([]);
    await expect(stat(context.registry.stateFilePath)).rejects.toThrow();
  });
});

describe('VeraCrypt target with a fake veracrypt', () => {
  it.each([
    { kernelCrypto: true, extra: [] },
    { kernelCrypto: false, extra: ['--mount-options=nokernelcrypto'] },
  ])(
    'creates and mounts (kernel crypto: $kernelCrypto) with the password on stdin only, then dismounts',
    async ({ kernelCrypto, extra }) => {
      const workDir = await newWorkDir();
      const tag = kernelCrypto ? 'veracrypt-kernel' : 'veracrypt-fuse';
      const container = path.join(workDir, `${tag}.hc`);
      const mountPoint = path.join(workDir, tag);
      const createArgs = [
        '--text',
        '--create',
        container,
        `--size=${64 * MIB + 128 * MIB}`,
        '--volume-type=normal',
        '--encryption=AES',
        '--hash=SHA-512',
        '--filesystem=ext4',
        '--pim=1',
        '--keyfiles=',
        '--random-source=/dev/urandom',
        '--non-interactive',
        '--stdin',
      ];
      const mountArgs = [
        '--text',
        '--mount',
        container,
        mountPoint,
        '--pim=1',
        '--keyfiles=',
        '--protect-hidden=no',
        ...extra,
        '--non-interactive',
        '--stdin',
      ];
      const dismountArgs = ['--text', '--dismount', container, '--non-interactive'];
      const context = await contextWith(
        { veracrypt: [{ args: createArgs }, { args: mountArgs }, { args: dismountArgs }] },
        workDir,
      );

      const target = await prepareVeracrypt(context, { kernelCrypto });
      expect(target).toMatchObject({ backend: 'veracrypt', directory: mountPoint });
      await context.registry.releaseAll();

      const calls = await fakes!.calls();
      expect(calls.map((call) => call.argv)).toEqual([createArgs, mountArgs, dismountArgs]);
      const password = calls[0]!.stdin.trimEnd();
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(calls[1]!.stdin).toBe(`${password}\n`);
      expect(calls.flatMap((call) => call.argv).some((arg) => arg.includes(password))).toBe(false);
      expect(await readdir(workDir)).toEqual([]);
    },
  );
});

describe('APFS encrypted image with fake hdiutil and diskutil', () => {
  it('creates and attaches with the passphrase on stdin, checks encryption with diskutil, and detaches', async () => {
    const workDir = await newWorkDir();
    const image = path.join(workDir, 'apfs.dmg');
    const mountPoint = path.join(workDir, 'apfs');
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
    const attachArgs = ['attach', '-stdinpass', '-nobrowse', '-mountpoint', mountPoint, image];
    const context = await contextWith(
      {
        hdiutil: [{ args: createArgs }, { args: attachArgs }, { args: ['detach', mountPoint] }],
        diskutil: [
          {
            args: ['info', '-plist', mountPoint],
            stdoutFixture: 'fixtures/diskutil/info-plist-internal-ssd-filevault-macos11/stdout.plist',
          },
        ],
      },
      workDir,
    );
    const target = await prepareApfs(context);
    expect(target.directory).toBe(mountPoint);
    await context.registry.releaseAll();
    const calls = await fakes!.calls();
    expect(calls.map((call) => [call.tool, call.argv])).toEqual([
      ['hdiutil', createArgs],
      ['hdiutil', attachArgs],
      ['diskutil', ['info', '-plist', mountPoint]],
      ['hdiutil', ['detach', mountPoint]],
    ]);
    const passphrase = calls[0]!.stdin;
    expect(passphrase.length).toBeGreaterThanOrEqual(32);
    expect(calls[1]!.stdin).toBe(passphrase);
    expect(calls.flatMap((call) => call.argv).some((arg) => arg.includes(passphrase))).toBe(false);
  });

  it('refuses an image diskutil does not call encrypted', async () => {
    const workDir = await newWorkDir();
    const context = await contextWith(
      {
        hdiutil: [{ args: null }],
        diskutil: [
          {
            args: null,
            stdout:
              '<?xml version="1.0"?>\n<plist version="1.0">\n<dict>\n<key>Encryption</key>\n<false/>\n</dict>\n</plist>\n',
          },
        ],
      },
      workDir,
    );
    const error = await prepareApfs(context).catch((e: unknown) => e);
    expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    await context.registry.releaseAll();
    expect(await readdir(workDir)).toEqual([]);
  });
});
