import { describe, expect, it } from 'vitest';
import { linuxStorageModel } from '../../src/analyses/storage-model.js';
import { storageSummaryOf } from '../../src/analyses/storage-summary.js';
import type { CommandSpec, Host } from '../../src/ports.js';
import { probeFileEncryption } from '../../src/probes/linux/file-encryption.js';
import { createProbeContext } from '../../src/probes/probe-context.js';
import { refusedEffects } from '../../../../tests/support/directory-host.js';
import { filesystemOf, stackNode } from '../../../../tests/support/stack-node.js';
import { fixture } from '../support/fixtures.js';

/** The real /proc/mounts of a Linux Mint machine with an eCryptfs home (fixtures/proc/PROVENANCE.md). */
const MOUNTS = fixture('proc/mounts-mint-lvm-root-ecryptfs-home-linuxpy.txt');
const FSCRYPT_UNLOCKED = fixture('fscrypt/status-raw-key-unlocked-debian12-v0.3.3/stdout.txt');

function host(answers: { fscrypt: boolean; homes?: readonly string[] }): Host {
  return {
    platform: 'linux',
    privileged: true,
    cwd: '/',
    effects: refusedEffects('the probe only reads'),
    run: (spec: CommandSpec) =>
      Promise.resolve(
        spec.tool === 'fscrypt' && spec.args.at(-1) === '/home/marge'
          ? { stdout: FSCRYPT_UNLOCKED, stderr: '', exitCode: 0, durationMs: 1 }
          : {
              stdout: '',
              stderr: `"${String(spec.args.at(-1))}" is not encrypted`,
              exitCode: 1,
              durationMs: 1,
            },
      ),
    readText: (path) => Promise.resolve(path === '/proc/self/mounts' ? MOUNTS : null),
    listDir: (path) => Promise.resolve(path === '/home' ? [...(answers.homes ?? [])] : null),
    realPath: (path) => Promise.resolve(path),
    stat: () => Promise.resolve(null),
    whichTool: (tool) => Promise.resolve(tool === 'fscrypt' && answers.fscrypt ? '/usr/bin/fscrypt' : null),
    systemInfo: () => Promise.reject(new Error('unused')),
  };
}

describe('file-level encryption of home folders (issue 26 item 4: eCryptfs, fscrypt)', () => {
  it('finds the eCryptfs home of the real mount table on the disk holding /, with its cipher and key size', async () => {
    const found = await probeFileEncryption(createProbeContext(host({ fscrypt: false })), ['/']);
    expect(found).toEqual([
      {
        kind: 'ecryptfs',
        directory: '/home/hsimpson',
        lowerDirectory: '/home/hsimpson/.Private',
        volumeMount: '/',
        cipher: 'aes',
        keyBits: 128,
        unlocked: true,
        source: '/proc/self/mounts',
      },
    ]);
    // The disk holding only /boot and the EFI partition holds no encrypted home.
    expect(
      await probeFileEncryption(createProbeContext(host({ fscrypt: false })), ['/boot', '/boot/efi']),
    ).toEqual([]);
  });

  it('asks fscrypt about each home folder and keeps the encrypted ones', async () => {
    const found = await probeFileEncryption(
      createProbeContext(host({ fscrypt: true, homes: ['hsimpson', 'marge', 'bart'] })),
      ['/'],
    );
    expect(found.map((entry) => [entry.kind, entry.directory, entry.cipher])).toEqual([
      ['ecryptfs', '/home/hsimpson', 'aes'],
      ['fscrypt', '/home/marge', 'AES_256_XTS'],
    ]);
  });

  it('in the model: a file-encryption layer on the root volume, which is not full-disk encrypted', async () => {
    const found = await probeFileEncryption(createProbeContext(host({ fscrypt: false })), ['/']);
    const root = stackNode('dm-0', 'lvm', {
      path: '/dev/mapper/vgmint-root',
      mapperName: 'vgmint-root',
      filesystem: filesystemOf('ext4'),
      mountpoints: ['/'],
    });
    const facts = {
      disk: { path: '/dev/nvme0n1', model: null, sizeBytes: 1, transport: 'nvme' } as never,
      media: { kind: 'ssd' as const },
      partitions: [],
      stack: stackNode('nvme0n1', 'disk', {
        children: [stackNode('nvme0n1p3', 'part', { children: [root] })],
      }),
      encryption: { found: [], veracryptDetectable: false as const, note: '' },
      space: null,
      discardPassthrough: null,
      overProvisioning: null,
      fileEncryption: found,
    };
    const model = linuxStorageModel(facts);
    expect(model.layers.find((layer) => layer.kind === 'file-encryption')).toMatchObject({
      id: '/home/hsimpson',
      on: ['/dev/mapper/vgmint-root'],
      encryption: { kind: 'ecryptfs', scope: 'file', cipher: 'aes', keyBits: 128 },
    });
    expect(model.volumes[0]?.encryption).toBeNull();
    expect(storageSummaryOf({ ...facts, storage: model })).toMatchObject({
      kinds: ['ecryptfs'],
      protection: 'none',
      fileLevelOnly: true,
      unencryptedVolumes: ['/dev/mapper/vgmint-root'],
    });
  });
});
