import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isEncplanError } from '@encplan/core';
import { cryptsetupArgs, resourceName } from '../../src/plan/encrypted-backends.js';
import { createNodeHost, createRunner } from '@encplan/core/node';
import { CleanupRegistry } from '../../src/use-cases/benchmark/cleanup-registry.js';
import { prepareFscrypt, verifyFscrypt } from '../../src/targets/fscrypt/benchmark.js';
import { prepareLuks2, verifyLuks2 } from '../../src/targets/luks2/benchmark.js';
import { prepareVeracrypt } from '../../src/targets/veracrypt/benchmark.js';
import type { TargetContext } from '../../src/use-cases/benchmark/targets.js';
import {
  REPO_ROOT,
  createFakeTools,
  type FakeCase,
  type FakeTools,
} from '../../../../tests/support/fake-tools.js';
import { removeAfterTest, removeTempDirs, tempDir } from '../../../../tests/support/temp-dirs.js';
import { words } from '../support/argv.js';

const MIB = 1024 * 1024;
const DMSETUP_CRYPT = 'fixtures/dmsetup/crypt-luks2-keyring-allow-discards-sata-ssd/stdout.txt';
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

/** A context whose only tool answers one argv with a captured output (a path under fixtures/). */
async function replaying(tool: string, args: string[], stdoutFixture: string): Promise<TargetContext> {
  return contextWith({ [tool]: [{ args, stdoutFixture: `fixtures/${stdoutFixture}` }] }, await newWorkDir());
}

describe('LUKS2 target with a fake cryptsetup replaying this machine', () => {
  it('formats with the exact argv, keeps the key in a 0600 file, and reports device-mapper as KERNEL_FEATURE_MISSING', async () => {
    const workDir = await newWorkDir();
    const container = path.join(workDir, 'luks2-s4096-nowq.img');
    const keyFile = path.join(workDir, 'luks2-s4096-nowq.key');
    const mapping = resourceName(process.pid, 'luks2-s4096-nowq');
    const formatArgs = cryptsetupArgs.luksFormat(container, keyFile, 4096);
    const openArgs = cryptsetupArgs.open(container, keyFile, mapping, true);
    // The builders' exact argv: LUKS2 AES-XTS-512 on 4096-byte sectors, a throwaway key at PBKDF2's minimum.
    expect(formatArgs).toEqual([
      ...words(
        'luksFormat --batch-mode --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 4096',
      ),
      ...words('--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file'),
      ...[keyFile, '--', container],
    ]);
    expect(openArgs).toEqual([
      ...words('open --type luks2 --key-file'),
      ...[keyFile, '--perf-no_read_workqueue', '--perf-no_write_workqueue', '--', container, mapping],
    ]);
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
      // The container, which the loop device was over, is checked once more before it is deleted.
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
      const listArgs = ['--text', '--list', '--verbose', '--non-interactive'];
      const device = kernelCrypto ? '/dev/mapper/veracrypt1' : '/dev/loop7';
      const context = await contextWith(
        {
          veracrypt: [
            { args: createArgs },
            { args: mountArgs },
            { args: listArgs, stdout: await veracryptListFor(container, mountPoint, device) },
            { args: dismountArgs },
          ],
          // Kernel crypto: the mapping veracrypt made must be a dm-crypt one (a captured crypt table line).
          dmsetup: [{ args: ['table', 'veracrypt1'], stdoutFixture: DMSETUP_CRYPT }],
        },
        workDir,
      );

      const target = await prepareVeracrypt(withMounted(context, mountPoint, device), { kernelCrypto });
      expect(target).toMatchObject({
        backend: 'veracrypt',
        directory: mountPoint,
        verification: { method: `veracrypt ${listArgs.join(' ')}`, identity: device, cipher: 'AES' },
      });
      await context.registry.releaseAll();

      const calls = (await fakes!.calls()).filter((call) => call.tool === 'veracrypt');
      expect(calls.map((call) => call.argv)).toEqual([createArgs, mountArgs, listArgs, dismountArgs]);
      const password = calls[0]!.stdin.trimEnd();
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(calls[1]!.stdin).toBe(`${password}\n`);
      expect(calls.flatMap((call) => call.argv).some((arg) => arg.includes(password))).toBe(false);
      expect(await readdir(workDir)).toEqual([]);
    },
  );

  it.each([
    {
      name: 'lists no volume (exit 0 without mounting)',
      list: { stdout: '', stderr: 'Error: No volumes mounted.\n', exitCode: 1 },
      mounted: false,
    },
    { name: 'lists the volume, but nothing is mounted there', list: 'listed', mounted: false },
    { name: 'lists the volume at another mount point', list: 'elsewhere', mounted: true },
  ] as const)('refuses a lying veracrypt that $name, and removes what it made', async ({ list, mounted }) => {
    const workDir = await newWorkDir();
    const container = path.join(workDir, 'veracrypt-kernel.hc');
    const mountPoint = path.join(workDir, 'veracrypt-kernel');
    const listCase =
      list === 'listed'
        ? { stdout: await veracryptListFor(container, mountPoint, '/dev/mapper/veracrypt1') }
        : list === 'elsewhere'
          ? { stdout: await veracryptListFor(container, '/media/veracrypt1', '/dev/mapper/veracrypt1') }
          : list;
    const context = await contextWith(
      {
        veracrypt: [
          { args: ['--text', '--list', '--verbose', '--non-interactive'], ...listCase },
          { args: null },
        ],
      },
      workDir,
    );
    const error = await prepareVeracrypt(mounted ? withMounted(context, mountPoint) : context, {
      kernelCrypto: true,
    }).catch((e: unknown) => e);
    expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    expect((error as Error).message).toContain('not proven encrypted');
    await context.registry.releaseAll();
    expect(await readdir(workDir)).toEqual([]);
  });
});

describe('a lying veracrypt that lists a convincing AES volume is not measured (issue 25)', () => {
  it.each([
    {
      name: 'a tmpfs mounted at the mount point',
      source: 'tmpfs',
      dmsetup: { stdoutFixture: DMSETUP_CRYPT },
      reason: 'holds tmpfs',
    },
    {
      name: 'no dm-crypt mapping behind /dev/mapper/veracrypt1',
      source: '/dev/mapper/veracrypt1',
      dmsetup: { stderr: 'Device does not exist.\nCommand failed.\n', exitCode: 1 },
      reason: 'no dm-crypt (crypt) mapping veracrypt1',
    },
    {
      name: 'a linear (plain) mapping behind /dev/mapper/veracrypt1',
      source: '/dev/mapper/veracrypt1',
      dmsetup: { stdout: '0 409600 linear 7:7 0\n' },
      reason: 'no dm-crypt (crypt) mapping veracrypt1',
    },
  ] as const)('refuses $name, and removes what it made', async ({ source, dmsetup, reason }) => {
    const workDir = await newWorkDir();
    const container = path.join(workDir, 'veracrypt-kernel.hc');
    const mountPoint = path.join(workDir, 'veracrypt-kernel');
    const listArgs = ['--text', '--list', '--verbose', '--non-interactive'];
    const context = await contextWith(
      {
        veracrypt: [
          { args: listArgs, stdout: await veracryptListFor(container, mountPoint, '/dev/mapper/veracrypt1') },
          { args: null },
        ],
        dmsetup: [{ args: ['table', 'veracrypt1'], ...dmsetup }],
      },
      workDir,
    );
    const error = await prepareVeracrypt(withMounted(context, mountPoint, source), {
      kernelCrypto: true,
    }).catch((e: unknown) => e);
    expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    expect((error as Error).message).toContain('not proven encrypted');
    expect((error as Error).message).toContain(reason);
    await context.registry.releaseAll();
    expect(await readdir(workDir)).toEqual([]);
  });
});

/** The captured `veracrypt --list --verbose` block, for a volume at this run's paths. */
async function veracryptListFor(container: string, mountPoint: string, device: string): Promise<string> {
  const captured = await readFile(
    path.join(REPO_ROOT, 'fixtures/veracrypt/list-verbose-two-aes-volumes/stdout.txt'),
    'utf8',
  );
  const first = captured.split(/\n\s*\n/)[0]!;
  return `${first
    .replace('Volume: /dev/sdb1', `Volume: ${container}`)
    .replace('Virtual Device: /dev/mapper/veracrypt1', `Virtual Device: ${device}`)
    .replace('Mount Directory: /home/bob/mount/encrypt/sdb1', `Mount Directory: ${mountPoint}`)}\n`;
}

/** The context with a host whose mountinfo shows `mountPoint` mounted (the fake tools mount nothing). */
function withMounted(
  context: TargetContext,
  mountPoint: string,
  device = '/dev/mapper/veracrypt1',
): TargetContext {
  const mountinfo = `36 35 7:7 / ${mountPoint} rw,relatime shared:1 - ext4 ${device} rw\n`;
  const host = context.host;
  return {
    ...context,
    host: {
      ...host,
      readText: (file) =>
        file === '/proc/self/mountinfo' ? Promise.resolve(mountinfo) : host.readText(file),
    },
  };
}

describe('LUKS2 and fscrypt verification: a target is measured only when the tools show it encrypted', () => {
  it('accepts a dm-crypt aes-xts-plain64 mapping from dmsetup table', async () => {
    const context = await replaying(
      'dmsetup',
      ['table', 'encplan-bench-1-x'],
      'dmsetup/crypt-luks2-keyring-allow-discards-sata-ssd/stdout.txt',
    );
    await expect(verifyLuks2(context, 'encplan-bench-1-x', '/c.img')).resolves.toEqual({
      method: 'dmsetup table encplan-bench-1-x',
      identity: '/dev/mapper/encplan-bench-1-x',
      cipher: 'aes-xts-plain64',
    });
  });

  it.each([
    { name: 'no mapping', dmsetup: { stderr: 'Device does not exist.\nCommand failed.\n', exitCode: 1 } },
    { name: 'a linear (plain) mapping', dmsetup: { stdout: '0 463583232 linear 8:19 32768\n' } },
    {
      name: 'a crypt mapping with another cipher',
      dmsetup: { stdout: '0 463583232 crypt cipher_null-ecb - 0 8:19 32768\n' },
    },
  ])('refuses a lying cryptsetup: open exits 0, dmsetup shows $name', async ({ dmsetup }) => {
    const workDir = await newWorkDir();
    const context = await contextWith(
      {
        cryptsetup: [{ args: null }],
        dmsetup: [{ args: null, ...dmsetup }],
        losetup: [{ args: null, stdout: '' }],
      },
      workDir,
    );
    const error = await prepareLuks2(context, { sectorSizeBytes: 4096, noWorkqueues: true }, null).catch(
      (e: unknown) => e,
    );
    expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    const calls = await fakes!.calls();
    // Refused before anything was measured or even formatted: no mkfs, no mount.
    expect(calls.map((call) => call.tool)).toEqual(['cryptsetup', 'cryptsetup', 'dmsetup']);
    await context.registry.releaseAll();
    expect(await readdir(workDir)).toEqual([]);
  });

  it('accepts an unlocked AES_256_XTS fscrypt policy and names its policy id', async () => {
    const context = await replaying(
      'fscrypt',
      ['status', '/mnt/encplan-bench/fscrypt'],
      'fscrypt/status-raw-key-unlocked-debian12-v0.3.3/stdout.txt',
    );
    await expect(verifyFscrypt(context, '/mnt/encplan-bench/fscrypt', {})).resolves.toEqual({
      method: 'fscrypt status /mnt/encplan-bench/fscrypt',
      identity: 'policy acb43f320d33ab770fb4f3375be29b96',
      cipher: 'AES_256_XTS',
    });
  });

  it.each([
    {
      name: 'a locked policy',
      fscryptStatus: { stdoutFixture: 'fixtures/fscrypt/status-raw-key-locked-debian12-v0.3.3/stdout.txt' },
    },
    {
      name: 'a plain directory',
      fscryptStatus: { stdout: '', stderr: 'fscrypt status: not encrypted', exitCode: 1 },
    },
  ])('refuses a lying fscrypt: encrypt exits 0, status shows $name', async ({ fscryptStatus }) => {
    const workDir = await newWorkDir();
    const scratch = await tempDir('encplan-test-scratch-');
    const context = await contextWith(
      {
        fscrypt: [
          { args: ['status', path.join(scratch, 'fscrypt')], ...fscryptStatus },
          { args: ['lock', path.join(scratch, 'fscrypt'), '--quiet'] },
          { args: null },
        ],
      },
      workDir,
    );
    const error = await prepareFscrypt(context, { mountPoint: scratch, device: '/dev/loop99' }).catch(
      (e: unknown) => e,
    );
    expect(isEncplanError(error, 'TOOL_OUTPUT_UNRECOGNIZED')).toBe(true);
    const calls = await fakes!.calls();
    expect(calls.map((call) => call.argv[0])).toEqual(['setup', 'encrypt', 'status']);
    // fscrypt's global state stays in the run's private directory: no /etc/fscrypt.conf, no /.fscrypt.
    expect(calls[0]!.argv).toEqual(['setup', '--time=1ms', '--quiet']);
    await context.registry.releaseAll();
    expect(await readdir(workDir)).toEqual([]);
  });
});
