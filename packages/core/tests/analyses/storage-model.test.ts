import { describe, expect, it } from 'vitest';
import { linuxStorageModel, storageModelOf } from '../../src/analyses/storage-model.js';
import { storageSummaryOf } from '../../src/analyses/storage-summary.js';
import { parseBundle } from '../../src/capture/bundle.js';
import type { AssessmentEnvelope, AssessmentResult } from '../../src/contract/assessment.js';
import { assessmentDocument } from '../../src/contract/assessment.js';
import { filesystemOf, stackNode } from '../../../../tests/support/stack-node.js';
import { parseLuks2JsonMetadata } from '../../src/parsers/cryptsetup/parse-luks-dump.js';
import { parseNvmeList } from '../../src/parsers/nvme/list.js';
import { toReportView } from '../../src/report/report-view.js';
import { assessBundle } from '../../src/use-cases/collect.js';
import { fixture } from '../support/fixtures.js';

const clock = { now: () => new Date('2026-11-26T00:00:00Z') };

async function assessed(name: string): Promise<AssessmentEnvelope> {
  return assessBundle(parseBundle(JSON.parse(fixture(`bundles/${name}/bundle.json`))), clock);
}
const resultOf = (envelope: AssessmentEnvelope): AssessmentResult => {
  if (envelope.result === null) {
    throw new Error('no result');
  }
  return envelope.result;
};

describe('one storage model for every platform (issue 26 item 1)', () => {
  it('a Windows assessment carries the model: disk → partition → BitLocker layer → volume C:', async () => {
    const result = resultOf(await assessed('windows-de-win10-bitlocker-3pct-protection-off'));
    expect(result.storage?.platform).toBe('win32');
    const volume = result.storage?.volumes.find((entry) => entry.id === 'C:');
    expect(volume?.encryption).toMatchObject({
      kind: 'bitlocker',
      cipher: 'xts-aes',
      keyBits: 128,
      protection: 'off',
      conversion: 'encrypting',
      percentEncrypted: 3.5,
      keySlots: [{ id: '0', type: 'TPM', tokens: [] }],
      source: 'manage-bde',
    });
    expect(result.storage?.layers.map((layer) => layer.kind)).toEqual(['bitlocker']);
    // The document validates against the contract, model included.
    expect(
      assessmentDocument.envelope.safeParse(await assessed('windows-de-win10-bitlocker-3pct-protection-off'))
        .success,
    ).toBe(true);
  });

  it('a Linux assessment carries the model the same way (loop bundle: GPT, ext4 mounted)', async () => {
    const result = resultOf(await assessed('loop-gpt-ext4-78pct-debian12'));
    expect(result.storage?.platform).toBe('linux');
    expect(result.storage?.volumes).toContainEqual(
      expect.objectContaining({
        filesystem: 'ext4',
        encryption: null,
        encryptionKnown: true,
        encryptedBy: [],
      }),
    );
    // Derived again from the sections, the model is the same one: the stored and the derived never differ.
    expect(storageModelOf({ ...result, storage: undefined })).toEqual(result.storage);
  });

  it('an assessment 1.0 document without the model (LUKS2 partition) replays into it: old documents read alike', () => {
    const envelope = JSON.parse(
      fixture('assessments/loop-gpt-ext4-luks2-unallocated-debian12.json'),
    ) as AssessmentEnvelope;
    const model = storageModelOf(resultOf(envelope));
    expect(model?.partitions.find((part) => part.id === '/dev/loop2p2')?.encryption).toMatchObject({
      kind: 'luks2',
      cipher: 'aes-xts-plain64',
      keyBits: 512,
      protection: 'on',
      keySlots: [{ id: '0', type: 'pbkdf2', tokens: [] }],
    });
    expect(storageSummaryOf(resultOf(envelope))).toMatchObject({
      platform: 'linux',
      kinds: ['luks2'],
      keySlots: '0:pbkdf2',
      passphraseOutsideSlot0: false,
    });
  });
});

/** A NVMe disk whose root filesystem sits on dm-crypt that stops discards, with the drive's and the filesystems' use. */
function blockedRoot(
  nvme: { namespaceSizeBytes: number | null; namespaceUtilizationBytes: number | null } | null,
  filesystems: readonly { mountpoint: string; usedBytes: number }[],
) {
  const crypt = stackNode('dm-0', 'crypt', {
    path: '/dev/mapper/root',
    mapperName: 'root',
    dmUuid: 'CRYPT-LUKS2-0a1b-root',
    filesystem: filesystemOf('ext4', { usedPercent: 20 }),
    mountpoints: ['/'],
  });
  const part = stackNode('nvme0n1p2', 'part', { children: [crypt] });
  const layer = (path: string, blocksHere: boolean) => ({
    kernelName: path,
    path,
    kind: 'dm-crypt' as const,
    name: null,
    passesDiscards: !blocksHere,
    blocksHere,
    discardMaxBytes: 0,
    reason: '',
    fix: null,
    source: { origin: 'sysfs', field: 'queue/discard_max_bytes' },
  });
  return linuxStorageModel({
    disk: { path: '/dev/nvme0n1', model: 'x', sizeBytes: 512_110_190_592, transport: 'nvme' } as never,
    media: { kind: 'ssd' },
    partitions: [],
    stack: stackNode('nvme0n1', 'disk', { children: [part] }),
    encryption: { found: [], veracryptDetectable: false, note: '' },
    space: {
      nvme:
        nvme === null
          ? null
          : {
              totalCapacityBytes: null,
              unallocatedCapacityBytes: null,
              namespaceManagementSupported: null,
              ...nvme,
            },
    },
    // The model reads each path's layers (where discards pass and stop), nothing else of the section.
    discardPassthrough: { paths: [{ layers: [layer('/dev/mapper/root', true)] }] },
    overProvisioning: {
      filesystems: filesystems.map((fs) => ({
        ...fs,
        sizeBytes: 500_000_000_000,
        usedPercent: 20,
        discardsReachDrive: false,
      })),
    },
  });
}

describe('detection (issue 26 item 4)', () => {
  it('BitLocker protection off mid-conversion, on at 100 % still converting, used-space-only: the fleet adapter tells them apart', async () => {
    const off = storageSummaryOf(resultOf(await assessed('windows-de-win10-bitlocker-3pct-protection-off')));
    expect(off).toMatchObject({
      protection: 'off',
      conversion: 'encrypting',
      percentEncrypted: 3.5,
      kinds: ['bitlocker'],
    });
    const converting = storageSummaryOf(resultOf(await assessed('windows-de-win10-bitlocker-in-progress')));
    expect(converting).toMatchObject({ protection: 'on', conversion: 'encrypting', percentEncrypted: 100 });
    const usedSpace = storageSummaryOf(resultOf(await assessed('windows-win11-bc901-bitlocker-xtsaes128')));
    expect(usedSpace).toMatchObject({
      protection: 'on',
      conversion: null,
      keySlots: '0:TPM 1:Numerical Password',
    });
    // Without manage-bde or Get-BitLockerVolume the state is unknown, never "not encrypted".
    const runner = storageSummaryOf(resultOf(await assessed('windows-github-runner-virtual-disks')));
    expect(runner?.protection).toBe('unknown');
    expect(runner?.unencryptedVolumes).toEqual([]);
  });

  it('the report never says "nothing to encrypt" for BitLocker with protection off: it says to finish', async () => {
    const view = toReportView(await assessed('windows-de-win10-bitlocker-3pct-protection-off'));
    expect(view.answer?.headline).toMatch(/^Not protected yet: finish the encryption already started on/);
    expect(view.answer?.headline).not.toMatch(/Nothing to encrypt/);
    expect(view.answer?.reason).toMatch(/protection is off/);
  });

  it('a LUKS2 token and a passphrase outside slot 0: keyslots carry their tokens, the fleet adapter flags slot 0', () => {
    // The kernel lane's real LUKS2 header, with a systemd-tpm2 token bound to keyslot 0 added to its JSON as
    // systemd-cryptenroll writes one (LUKS2 on-disk format: tokens.N.type, tokens.N.keyslots). The kernel lane
    // test 56-luks2-token-slot proves the same on a header cryptsetup itself wrote.
    const document = JSON.parse(
      fixture('cryptsetup-luksdump/lv-luks2-pbkdf2-kernel-lane-debian12/stdout'),
    ) as {
      tokens: Record<string, unknown>;
    };
    document.tokens = { '0': { type: 'systemd-tpm2', keyslots: ['0'] } };
    const header = parseLuks2JsonMetadata(JSON.stringify(document));
    expect(header.tokens).toEqual([{ id: '0', type: 'systemd-tpm2', keyslots: ['0'] }]);
    const disk = stackNode('vda', 'disk', { sizeBytes: 1 << 30 });
    const result = {
      disk: { path: '/dev/vda', model: null, sizeBytes: 1 << 30, transport: 'virtio' },
      media: { kind: 'unknown' },
      partitions: [],
      stack: disk,
      encryption: {
        found: [{ ...header, path: '/dev/vda', source: 'cryptsetup luksDump --dump-json-metadata' }],
      },
      space: null,
      discardPassthrough: null,
      overProvisioning: null,
    } as unknown as Parameters<typeof storageSummaryOf>[0];
    expect(storageSummaryOf(result)).toMatchObject({
      keySlots: '0:pbkdf2+systemd-tpm2',
      passphraseOutsideSlot0: true,
    });
  });

  it('what fstrim could give back cannot be said: a drive reporting its whole namespace in use (real nvme list), not NVMe, no filesystem read', () => {
    // Seagate FireCuda 530 4 TB as `nvme list -o json` (nvme-cli 2.11) printed it: UsedBytes = PhysicalSize on every
    // namespace (fixtures/nvme/list-v2.11-4x-firecuda530), what a drive without thin provisioning may always report.
    const namespaces = parseNvmeList(fixture('nvme/list-v2.11-4x-firecuda530/stdout.json'));
    expect(namespaces.length).toBeGreaterThan(0);
    for (const namespace of namespaces) {
      const full = blockedRoot(
        { namespaceSizeBytes: namespace.sizeBytes, namespaceUtilizationBytes: namespace.usedBytes },
        [{ mountpoint: '/', usedBytes: 100_000_000_000 }],
      ).reclaim;
      expect(full, namespace.namespacePath).toMatchObject({
        driveUsedBytes: 4_000_787_030_016,
        filesystemsUsedBytes: 100_000_000_000,
        reclaimableBytes: null,
        blockedAt: ['/dev/mapper/root'],
      });
      expect(full?.unknownReason).toMatch(/NUSE = NSZE/);
    }
    // The same namespace reporting less than its size in use: the estimate is made.
    const [first] = namespaces;
    const tracked = blockedRoot(
      { namespaceSizeBytes: first?.sizeBytes ?? null, namespaceUtilizationBytes: 1_000_000_000_000 },
      [{ mountpoint: '/', usedBytes: 100_000_000_000 }],
    ).reclaim;
    expect(tracked).toMatchObject({ reclaimableBytes: 900_000_000_000, unknownReason: null });
    const notNvme = blockedRoot(null, [{ mountpoint: '/', usedBytes: 1 }]).reclaim;
    expect(notNvme).toMatchObject({ driveUsedBytes: null, reclaimableBytes: null });
    expect(notNvme?.unknownReason).toMatch(/not NVMe/);
    const noUse = blockedRoot({ namespaceSizeBytes: null, namespaceUtilizationBytes: null }, []).reclaim;
    expect(noUse?.unknownReason).toMatch(/utilisation \(NUSE\) was not read/);
    const noFilesystem = blockedRoot({ namespaceSizeBytes: null, namespaceUtilizationBytes: 5 }, []).reclaim;
    expect(noFilesystem).toMatchObject({ reclaimableBytes: null, filesystemsUsedBytes: null });
    expect(noFilesystem?.unknownReason).toMatch(/No mounted filesystem/);
  });

  it('where discards stop at a layer: what the drive holds (NVMe NUSE) against what the filesystems use', () => {
    // NUSE × LBA size as nvme id-ns reports it.
    const model = blockedRoot({ namespaceSizeBytes: null, namespaceUtilizationBytes: 400_000_000_000 }, [
      { mountpoint: '/', usedBytes: 100_000_000_000 },
    ]);
    expect(model.reclaim).toEqual({
      driveUsedBytes: 400_000_000_000,
      filesystemsUsedBytes: 100_000_000_000,
      reclaimableBytes: 300_000_000_000,
      unknownReason: null,
      blockedAt: ['/dev/mapper/root'],
    });
    // A dm-crypt mapping the header of which was not read is named by its dm UUID, never guessed.
    expect(model.layers[0]?.encryption?.kind).toBe('luks2');
    expect(model.volumes[0]).toMatchObject({
      id: '/dev/mapper/root',
      usedBytes: 100_000_000_000,
      encryptedBy: ['/dev/mapper/root'],
    });
  });
});
