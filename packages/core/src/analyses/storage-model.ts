import type { Disk, Filesystem, Partition, StackNode } from '../domain/device.js';
import type { EncryptionInventory, ExistingEncryption } from '../domain/encryption.js';
import type { OverProvisioning } from '../domain/over-provisioning.js';
import type { Sed } from '../domain/sed.js';
import type { PlatformStorage } from '../domain/platform-storage.js';
import type { Space } from '../domain/space.js';
import {
  encryptionKindSchema,
  linuxLayerKindOf,
  type FileEncryption,
  type EncryptionState,
  type LayerKind,
  type StorageLayer,
  type StorageModel,
  type StorageVolume,
} from '../domain/storage-model.js';
import type { DiscardLayer } from '../domain/trim.js';
import { recogniseVolume, targetOfLayer } from '../targets/registry.js';
import { modelOfLegacyPlatformStorage } from './legacy-platform-storage.js';
import { opalLockingLayers } from './sed.js';

/** The state of a LUKS, TCRYPT or BitLocker header the Linux inventory found. */
function linuxEncryptionState(found: ExistingEncryption): EncryptionState {
  const tokens = found.tokens ?? [];
  return {
    kind: found.format === 'apfs-encrypted' ? 'apfs' : found.format,
    scope: 'block',
    cipher: found.cipher,
    keyBits: found.keyBits,
    // A LUKS2 header made with cryptsetup --hw-opal or --hw-opal-only: the drive encrypts its OPAL locking range
    // (with dm-crypt on top, or alone). Without OPAL in the header, whether the drive encrypts too is not said.
    hardware: found.opal === undefined ? null : true,
    // A LUKS or TCRYPT header protects whatever its keyslots say: no off or suspended state exists for it. A
    // format whose volumes can also be unprotected (BitLocker with protection off) is unknown from a header.
    protection: canBeUnprotected(found.format) ? 'unknown' : 'on',
    conversion: found.flags.includes('online-reencrypt') ? 'encrypting' : null,
    percentEncrypted: null,
    keySlots: found.pbkdf.map((slot) => ({
      id: slot.keyslot,
      type: slot.type,
      tokens: tokens.filter((token) => token.keyslots.includes(slot.keyslot)).map((token) => token.type),
    })),
    source: found.source,
    ...(found.opal === undefined ? {} : { opal: found.opal }),
  };
}

/** Whether volumes of this format can exist with their protection off (its target names an unencrypted format). */
function canBeUnprotected(format: string): boolean {
  return (recogniseVolume(format)?.target.recognition.unencryptedFormats.length ?? 0) > 0;
}

/**
 * The encryption kind of a layer whose target's own tool makes the mapping (VeraCrypt's `veracryptN`), or null
 * for a generic dm-crypt mapping: the layer kind names the kind then.
 */
function ownMappingKind(kind: LayerKind): EncryptionState['kind'] | null {
  const target = targetOfLayer(kind);
  const parsed = encryptionKindSchema.safeParse(kind);
  return target === null || target.recognition.mappingNames === null || !parsed.success ? null : parsed.data;
}

/** dm UUID prefixes cryptsetup gives its mappings (cryptsetup lib/libdevmapper.c, dm_prepare_uuid: "CRYPT-<type>-"). */
const DM_UUID_KINDS: readonly (readonly [string, EncryptionState['kind']])[] = [
  ['CRYPT-LUKS1', 'luks1'],
  ['CRYPT-LUKS2', 'luks2'],
  ['CRYPT-PLAIN', 'dm-crypt-plain'],
  ['CRYPT-TCRYPT', 'tcrypt'],
];

const LUKS2_OPAL_UUID = 'LUKS2-OPAL-';

/** An open mapping whose header is not readable here (VeraCrypt, TCRYPT, plain): what its dm UUID or name says. */
function mappingState(kind: LayerKind, node: ModelStackNode): EncryptionState | null {
  if (targetOfLayer(kind) === null) {
    return null;
  }
  const byUuid = DM_UUID_KINDS.find(([prefix]) => node.dmUuid?.startsWith(prefix) === true)?.[1];
  return {
    kind: ownMappingKind(kind) ?? byUuid ?? 'dm-crypt',
    scope: 'block',
    cipher: null,
    keyBits: null,
    // cryptsetup 2.7 gives a LUKS2 volume on OPAL the dm UUID prefix "CRYPT-LUKS2-OPAL-" (cryptsetup v2.7.0,
    // lib/internal.h CRYPT_LUKS2_HW_OPAL): the drive encrypts below it, whatever its header says.
    hardware: node.dmUuid?.startsWith(`CRYPT-${LUKS2_OPAL_UUID}`) === true ? true : null,
    protection: 'on',
    conversion: null,
    percentEncrypted: null,
    keySlots: [],
    source: node.dmUuid === null ? 'dm name' : 'dm uuid',
  };
}

function walkStack(
  node: ModelStackNode,
  parent: ModelStackNode | null,
  visit: (n: ModelStackNode, p: ModelStackNode | null) => void,
) {
  visit(node, parent);
  node.children.forEach((child) => walkStack(child, node, visit));
}

/** A node of the holder stack as the model reads it (a whole StackNode is one): what the fleet report validates. */
export interface ModelStackNode extends Pick<
  StackNode,
  'path' | 'type' | 'sizeBytes' | 'mapperName' | 'dmUuid' | 'mountpoints'
> {
  readonly filesystem: Pick<Filesystem, 'type' | 'label'> | null;
  readonly children: readonly ModelStackNode[];
}

/** A partition as the model reads it (a whole Partition is one). */
export type ModelPartition = Pick<Partition, 'path' | 'number' | 'typeId' | 'sizeBytes'>;

/** The disk as the model reads it (a whole Disk is one). */
export type ModelDisk = Pick<Disk, 'path' | 'model' | 'sizeBytes' | 'transport'>;

/** Where discards pass or stop, layer by layer, as the model reads it (a whole discard section is one). */
export interface ModelDiscardPaths {
  readonly paths: readonly {
    readonly layers: readonly Pick<DiscardLayer, 'path' | 'passesDiscards' | 'blocksHere'>[];
  }[];
}

/** The filesystems' use as the model reads it (a whole over-provisioning section is one). */
export interface ModelFilesystemUse {
  readonly filesystems: readonly Pick<OverProvisioning['filesystems'][number], 'mountpoint' | 'usedBytes'>[];
}

/** The Linux facts of an assessment, the sections the model is made from. */
export interface LinuxStorageFacts {
  readonly disk: ModelDisk;
  readonly media: { readonly kind: 'ssd' | 'hdd' | 'unknown' };
  readonly partitions: readonly ModelPartition[];
  readonly stack: ModelStackNode;
  readonly encryption: EncryptionInventory;
  readonly space: Pick<Space, 'nvme'> | null;
  readonly discardPassthrough: ModelDiscardPaths | null;
  readonly overProvisioning: ModelFilesystemUse | null;
  /** Devices off this disk below each multi-device node (sysfs slaves/); undefined when not read (older documents). */
  readonly otherDisks?: ReadonlyMap<string, readonly string[]>;
  /** eCryptfs and fscrypt folders on the disk's filesystems; undefined when not probed (older documents). */
  readonly fileEncryption?: readonly FileEncryption[];
  /** The sed section, for the drive's OPAL locking (analyses/sed.ts opalLockingLayers); undefined: not read. */
  readonly sed?: Pick<Sed, 'opalLocking'> | null;
}

/** A file-level layer on the volume mounted where the encrypted folder lives. */
function fileLayers(volumes: readonly StorageVolume[], found: readonly FileEncryption[]): StorageLayer[] {
  return found.flatMap((entry) => {
    const volume = volumes.find((candidate) => candidate.mountpoints.includes(entry.volumeMount));
    return volume === undefined
      ? []
      : [
          {
            id: entry.directory,
            kind: 'file-encryption' as const,
            name: entry.lowerDirectory,
            sizeBytes: null,
            on: [volume.id],
            otherDisks: [],
            encryption: {
              kind: entry.kind,
              scope: 'file' as const,
              cipher: entry.cipher,
              keyBits: entry.keyBits,
              hardware: false,
              protection: 'on' as const,
              conversion: null,
              percentEncrypted: null,
              keySlots: [],
              source: entry.source,
            },
            passesDiscards: null,
          },
        ];
  });
}

/** The model of a Linux assessment: every node of the holder stack, headers from the encryption inventory. */
export function linuxStorageModel(facts: LinuxStorageFacts): StorageModel {
  const headerAt = new Map(facts.encryption.found.map((found) => [found.path, linuxEncryptionState(found)]));
  const passes = new Map<string, boolean | null>();
  for (const path of facts.discardPassthrough?.paths ?? []) {
    for (const layer of path.layers) {
      passes.set(layer.path, layer.passesDiscards);
    }
  }
  const layers: StorageLayer[] = [];
  const volumes: StorageVolume[] = [];
  // path → the encrypting layer ids from the node down to the disk (top first).
  const encryptedBelow = new Map<string, string[]>();
  const stateOf = new Map<string, EncryptionState>();
  walkStack(facts.stack, null, (node, parent) => {
    const kind = linuxLayerKindOf(node);
    const below = parent === null ? [] : (encryptedBelow.get(parent.path) ?? []);
    // A header on the node (LUKS, BitLocker) encrypts what is opened from it; the open mapping carries it too.
    const header = headerAt.get(node.path) ?? null;
    const parentHeader = parent === null ? null : (headerAt.get(parent.path) ?? null);
    let state: EncryptionState | null = null;
    if (kind !== null) {
      const opened = targetOfLayer(kind) === null ? null : parentHeader;
      state =
        opened === null
          ? mappingState(kind, node)
          : // VeraCrypt's own mapping of a TCRYPT-format volume is named for VeraCrypt.
            { ...opened, kind: (opened.kind === 'tcrypt' ? ownMappingKind(kind) : null) ?? opened.kind };
      layers.push({
        id: node.path,
        kind,
        name: node.mapperName,
        sizeBytes: node.sizeBytes,
        on: parent === null ? [] : [parent.path],
        // Only LVM, MD and other device-mapper targets can span devices; a crypt or loop layer sits on one.
        otherDisks:
          kind === 'lvm' || kind === 'md' || kind === 'device-mapper'
            ? [...(facts.otherDisks?.get(node.path) ?? [])].length === 0 &&
              facts.otherDisks?.has(node.path) !== true
              ? null
              : [...(facts.otherDisks?.get(node.path) ?? [])]
            : [],
        encryption: state,
        passesDiscards: passes.get(node.path) ?? null,
      });
    }
    const mine = state === null ? below : [node.path, ...below];
    if (state !== null) {
      stateOf.set(node.path, state);
    }
    encryptedBelow.set(node.path, mine);
    const filesystem = node.filesystem;
    if (filesystem !== null && header === null && !NOT_A_VOLUME.has(filesystem.type)) {
      const used = facts.overProvisioning?.filesystems.find((fs) => node.mountpoints.includes(fs.mountpoint));
      const top = mine[0];
      volumes.push({
        id: node.path,
        filesystem: filesystem.type,
        label: filesystem.label,
        mountpoints: [...node.mountpoints],
        sizeBytes: node.sizeBytes,
        usedBytes: used?.usedBytes ?? null,
        on: parent?.path ?? node.path,
        encryption: top === undefined ? null : (stateOf.get(top) ?? null),
        encryptionKnown: true,
        encryptedBy: mine,
      });
    }
  });
  const partitions = facts.partitions.map((part) => ({
    id: part.path,
    number: part.number,
    type: part.typeId,
    sizeBytes: part.sizeBytes,
    encryption: headerAt.get(part.path) ?? null,
  }));
  layers.push(...fileLayers(volumes, facts.fileEncryption ?? []));
  layers.push(...opalLockingLayers(facts.disk.path, facts.sed?.opalLocking));
  return {
    platform: 'linux',
    disk: {
      id: facts.disk.path,
      model: facts.disk.model,
      sizeBytes: facts.disk.sizeBytes,
      medium: facts.media.kind,
      bus: facts.disk.transport,
      encryption: headerAt.get(facts.disk.path) ?? null,
    },
    partitions,
    layers,
    volumes,
    encryptionUnknown: null,
    reclaim: reclaimOf(facts),
  };
}

/** Signatures that hold no filesystem of their own: what is opened from them is the volume. */
const NOT_A_VOLUME = new Set(['crypto_LUKS', 'LVM2_member', 'linux_raid_member', 'BitLocker', 'swap']);

/**
 * What fstrim could give back where discards stop at a layer: NVMe NUSE × LBA size (NVM Express Base
 * Specification, Identify Namespace "Namespace Utilization": the LBAs allocated, i.e. written and not
 * deallocated) against what the filesystems use (statfs). Null when no layer stops discards; the bytes null, with
 * the reason, when they cannot be said.
 */
function reclaimOf(facts: LinuxStorageFacts): StorageModel['reclaim'] {
  const blockedAt = [
    ...new Set(
      (facts.discardPassthrough?.paths ?? []).flatMap((path) =>
        path.layers.filter((layer) => layer.blocksHere).map((layer) => layer.path),
      ),
    ),
  ];
  if (blockedAt.length === 0) {
    return null;
  }
  const nvme = facts.space?.nvme ?? null;
  const driveUsedBytes = nvme?.namespaceUtilizationBytes ?? null;
  const filesystems = facts.overProvisioning?.filesystems ?? [];
  const filesystemsUsedBytes =
    filesystems.length === 0 ? null : filesystems.reduce((sum, fs) => sum + fs.usedBytes, 0);
  const unknownReason = reclaimUnknownReason(nvme, filesystemsUsedBytes);
  const reclaimableBytes =
    unknownReason !== null || driveUsedBytes === null || filesystemsUsedBytes === null
      ? null
      : Math.max(0, driveUsedBytes - filesystemsUsedBytes);
  return { driveUsedBytes, filesystemsUsedBytes, reclaimableBytes, unknownReason, blockedAt };
}

/**
 * Why the space fstrim could give back cannot be said, or null when it can. A namespace that reports all of itself
 * allocated (NUSE = NSZE) says nothing: with thin provisioning unsupported (NSFEAT bit 0, THINP, cleared) a
 * controller "may report a value in the Namespace Utilization field that is always equal to the value in the
 * Namespace Capacity field" (NVM Express Base Specification 1.4c, section 6.1.7), and Namespace Capacity then equals
 * Namespace Size; NSFEAT itself is not read, so a full drive and one that does not track its use look the same.
 */
function reclaimUnknownReason(
  nvme: NonNullable<LinuxStorageFacts['space']>['nvme'],
  filesystemsUsedBytes: number | null,
): string | null {
  if (nvme === null) {
    return 'The drive is not NVMe or nvme-cli did not answer: only an NVMe namespace reports how much of it is allocated (Identify Namespace NUSE).';
  }
  const used = nvme.namespaceUtilizationBytes ?? null;
  if (used === null) {
    return "The NVMe namespace's utilisation (NUSE) was not read: the LBA size is unknown, or the assessment predates it (1.3).";
  }
  if (nvme.namespaceSizeBytes !== null && used >= nvme.namespaceSizeBytes) {
    return 'The drive reports its whole namespace as allocated (NUSE = NSZE): a drive without thin provisioning may report that whatever was trimmed (NVMe Base Specification 1.4c, 6.1.7), so its own figure cannot tell what fstrim would give back.';
  }
  if (filesystemsUsedBytes === null) {
    return "No mounted filesystem's use was read (statfs), so there is nothing to set against the drive's.";
  }
  return null;
}

/** The sections of an assessment result the model is made from (any version of the contract). */
export interface StorageModelSource {
  readonly disk: ModelDisk | null;
  readonly media: { readonly kind: 'ssd' | 'hdd' | 'unknown' } | null;
  readonly partitions: readonly ModelPartition[] | null;
  readonly stack: ModelStackNode | null;
  readonly encryption: EncryptionInventory | null;
  readonly space: Pick<Space, 'nvme'> | null;
  readonly discardPassthrough: ModelDiscardPaths | null;
  readonly overProvisioning: ModelFilesystemUse | null;
  readonly platformStorage?: PlatformStorage | undefined;
  readonly storage?: StorageModel | undefined;
}

/**
 * The Linux-shaped sections of an assessment, all null: what a macOS or Windows assessment carries (its facts are in
 * the storage model), and what a reader passes to {@link storageModelOf} for such a document. One definition for the
 * assessment (use-cases/assess-platform.ts) and the fleet report.
 */
export const NO_LINUX_SECTIONS = {
  disk: null,
  media: null,
  partitions: null,
  stack: null,
  encryption: null,
  space: null,
  health: null,
  trim: null,
  discardPassthrough: null,
  sed: null,
  overProvisioning: null,
  kernelCrypto: null,
  machine: null,
} as const;

/**
 * The storage model of an assessment: the one it carries (1.3 and later), or the one its sections (or its
 * deprecated `platformStorage`, the only place that field is read) give for an older document, so bundles and documents of every version are read the same way. Null when it has neither
 * Linux sections nor platform facts (a failed disk).
 */
export function storageModelOf(result: StorageModelSource): StorageModel | null {
  // A macOS or Windows document before assessment 1.4 carries the deprecated `platformStorage`: the model is
  // rebuilt from it, so the facts 1.4 added to the model (health, TRIM, processor, FileVault, labels) are there.
  if (result.platformStorage !== undefined) {
    return modelOfLegacyPlatformStorage(result.platformStorage);
  }
  if (result.storage !== undefined) {
    return result.storage;
  }
  const { disk, media, partitions, stack, encryption } = result;
  if (disk === null || media === null || partitions === null || stack === null || encryption === null) {
    return null;
  }
  return linuxStorageModel({
    disk,
    media,
    partitions,
    stack,
    encryption,
    space: result.space,
    discardPassthrough: result.discardPassthrough,
    overProvisioning: result.overProvisioning,
  });
}
